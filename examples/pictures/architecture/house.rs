//! `src/` read against [`LAYERS`]: each file in its layer, and the
//! imports between layers; or everything that does not keep to them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::LAYERS;
use super::modules::Crate;
use super::scan::Import;

/// A file of `src/`.
pub(super) struct File {
    /// Its path under `src/`, folders split by `/`: `kernel/join/mod.rs`.
    pub(super) path: String,
    /// Its layer: an index into [`LAYERS`].
    pub(super) layer: usize,
}

/// `src/` read: its files, and the imports between layers.
pub(super) struct House {
    pub(super) files: Vec<File>,
    /// `imports[(from, to)]`: how many pairs of a file of layer `from` and
    /// a file of layer `to` that it imports, `from != to`.
    pub(super) imports: BTreeMap<(usize, usize), usize>,
}

impl House {
    /// Reads `src`, or says everything that does not keep to the layers.
    pub(super) fn read(src: &Path) -> Result<House, Vec<String>> {
        let (files, texts) = files(src)?;
        let crate_ = Crate::read(&files, &texts);
        let mut imports = BTreeMap::new();
        for (from, to) in pairs(&files, &crate_)? {
            let (from_layer, to_layer) = (files[from].layer, files[to].layer);
            if from_layer != to_layer {
                *imports.entry((from_layer, to_layer)).or_insert(0) += 1;
            }
        }
        Ok(House { files, imports })
    }
}

/// The files of `src`, each in its layer, with their texts; or each file
/// in no layer (or two) and each path of a layer that holds no file.
fn files(src: &Path) -> Result<(Vec<File>, Vec<String>), Vec<String>> {
    let mut paths = Vec::new();
    walk(src, "", &mut paths).map_err(|e| vec![format!("cannot read {}: {e}", src.display())])?;
    paths.sort();
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut texts = Vec::new();
    for path in paths {
        match layer_of(&path) {
            Ok(layer) => {
                texts.push(std::fs::read_to_string(src.join(&path)).unwrap_or_default());
                files.push(File { path, layer });
            }
            Err(problem) => problems.push(problem),
        }
    }
    // A path of a layer that holds nothing is a folder moved or renamed
    // without LAYERS following it.
    for (i, layer) in LAYERS.iter().enumerate() {
        for held in layer.paths {
            if !files.iter().any(|f| holds(held, &f.path)) {
                problems.push(format!(
                    "layer {} ({}) names src/{held}, which holds no file",
                    i + 1,
                    layer.name
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok((files, texts))
    } else {
        Err(problems)
    }
}

/// Each pair of a file and another file that it imports (`(from, to)`,
/// indices into `files`); or each import that runs up the layers.
fn pairs(files: &[File], crate_: &Crate) -> Result<BTreeSet<(usize, usize)>, Vec<String>> {
    let mut problems = Vec::new();
    let mut pairs = BTreeSet::new();
    for (from, file) in files.iter().enumerate() {
        for import in &crate_.imports[from] {
            let to = crate_.locate(&import.path, 0);
            if to == from {
                continue;
            }
            if files[to].layer > file.layer {
                problems.push(upward(file, import, &files[to]));
            }
            pairs.insert((from, to));
        }
    }
    if problems.is_empty() {
        Ok(pairs)
    } else {
        Err(problems)
    }
}

/// The problem of `file`'s `import` of `to`, a file of a layer above.
fn upward(file: &File, import: &Import, to: &File) -> String {
    format!(
        "src/{}:{}: `{}` is src/{}, in layer {} ({}), above this file's layer {} ({})",
        file.path,
        import.line,
        import.text,
        to.path,
        to.layer + 1,
        LAYERS[to.layer].name,
        file.layer + 1,
        LAYERS[file.layer].name
    )
}

/// Every file under `dir`, as a path under it with `/` between folders.
fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        if entry.file_type()?.is_dir() {
            walk(&entry.path(), &format!("{path}/"), out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether the layer's path `held` (a folder or a file) holds `path`.
pub(super) fn holds(held: &str, path: &str) -> bool {
    path == held
        || path
            .strip_prefix(held)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The layer of the file at `path`: the one whose path holding it is the
/// longest (so a layer may take a folder out of another's).
fn layer_of(path: &str) -> Result<usize, String> {
    let mut best: Option<(usize, usize)> = None;
    for (i, layer) in LAYERS.iter().enumerate() {
        for held in layer.paths.iter().filter(|held| holds(held, path)) {
            match best {
                Some((_, len)) if len > held.len() => {}
                Some((other, len)) if len == held.len() && other != i => {
                    return Err(format!(
                        "src/{path} is in two layers: {} and {}",
                        LAYERS[other].name, layer.name
                    ));
                }
                _ => best = Some((i, held.len())),
            }
        }
    }
    best.map(|(i, _)| i).ok_or_else(|| {
        format!("src/{path} is in no layer: add it, or its folder, to a layer of LAYERS")
    })
}
