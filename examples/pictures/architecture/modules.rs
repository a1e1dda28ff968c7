//! The crate's modules: which file each one is, the names each file
//! re-exports, and a path from the root followed through those re-exports
//! to the file that defines what it names.

use std::collections::BTreeMap;

use super::house::File;
use super::scan::{Import, Names, scan};

/// The crate's modules, their re-exports and their imports.
pub(super) struct Crate {
    /// The file of each module (`["kernel", "join"]` is
    /// `kernel/join/mod.rs`; `[]` is `lib.rs`).
    modules: BTreeMap<Vec<String>, usize>,
    /// The names each file re-exports (`pub use`, at its top level), that a
    /// path through its module may name: name -> the path from the root.
    exports: Vec<Names>,
    /// Each file's imports.
    pub(super) imports: Vec<Vec<Import>>,
}

impl Crate {
    /// The crate of `files`, whose texts are `texts`.
    pub(super) fn read(files: &[File], texts: &[String]) -> Crate {
        let mut modules = BTreeMap::new();
        for (i, file) in files.iter().enumerate() {
            if let Some(module) = module_of(&file.path) {
                modules.insert(module, i);
            }
        }
        let mut crate_ = Crate {
            modules,
            exports: Vec::new(),
            imports: Vec::new(),
        };
        for (file, text) in files.iter().zip(texts) {
            let (exports, imports) = if file.path.ends_with(".rs") {
                scan(&crate_, file, text)
            } else {
                Default::default()
            };
            crate_.exports.push(exports);
            crate_.imports.push(imports);
        }
        crate_
    }

    /// `path`, written in `module`, as a path from the crate's root; `None`
    /// for a path into another crate.
    pub(super) fn absolute(
        &self,
        module: &[String],
        path: &[String],
        binary: bool,
    ) -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let mut base = match first.as_str() {
            "crate" if !binary => Vec::new(),
            "queens_simd" if binary => Vec::new(),
            "self" if !binary => module.to_vec(),
            "super" if !binary => module[..module.len().checked_sub(1)?].to_vec(),
            // A name relative to this module: one of its child modules.
            name if !binary => {
                let mut child = module.to_vec();
                child.push(name.to_owned());
                if !self.modules.contains_key(&child) {
                    return None;
                }
                module.to_vec()
            }
            _ => return None,
        };
        let mut rest = if matches!(first.as_str(), "crate" | "queens_simd" | "self" | "super") {
            rest
        } else {
            path
        };
        while let Some(("super", more)) = rest.split_first().map(|(s, more)| (s.as_str(), more)) {
            base.pop()?;
            rest = more;
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The file that the path from the root reaches: that of its longest
    /// prefix that is a module, or, where the next name is one that file
    /// re-exports, what that reaches in turn (`hops` re-exports so far: a
    /// cycle of them stops after 16).
    pub(super) fn locate(&self, path: &[String], hops: usize) -> usize {
        let mut known = path.len();
        while !self.modules.contains_key(&path[..known]) {
            known -= 1;
        }
        let file = self.modules[&path[..known]];
        if let Some(name) = path.get(known)
            && let Some(target) = self.exports[file].get(name)
            && hops < 16
        {
            let mut further = target.clone();
            further.extend(path[known + 1..].iter().cloned());
            return self.locate(&further, hops + 1);
        }
        file
    }
}

/// The module a file of `src/` is (`kernel/join/mod.rs` is
/// `["kernel", "join"]`, `lib.rs` is `[]`); `None` for the binary and for
/// what is not Rust.
pub(super) fn module_of(path: &str) -> Option<Vec<String>> {
    if path.starts_with("bin/") {
        return None;
    }
    let stem = path.strip_suffix(".rs")?;
    let mut module: Vec<String> = stem.split('/').map(str::to_owned).collect();
    if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
        module.pop();
    }
    Some(module)
}
