//! The public API as the code writes it, for docs/api.md's check: the
//! `pub` items at the top of `src/lib.rs` and of each public module's
//! file, read as simply as the code's layout allows (one item a line,
//! `pub` at the start of the line; the kernel types that macros write are
//! indented, and docs/api.md describes them in prose). A `pub use` is read
//! with the `use`-tree reader of the path check ([`super::paths::flatten`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::paths::flatten;
use super::text::identifier;

/// The modules whose own items are listed but whose submodules are not
/// read: the pictures' traces, outside the promise.
const SHALLOW: &[&str] = &["trace"];

/// The kinds of item a `pub` line declares, by the word before the name.
const KINDS: &[&str] = &[
    "mod", "fn", "const", "static", "struct", "enum", "trait", "type", "union",
];

/// The names that `line` (and the lines after it, for a `use` over
/// several) makes public at the top of its file, with their kind.
pub fn public_names(lines: &[&str], at: &mut usize) -> Vec<(String, &'static str)> {
    let Some(rest) = lines[*at].strip_prefix("pub ") else {
        return Vec::new();
    };
    // `const fn` and `unsafe fn` are functions; `const X` is a constant.
    let rest = match rest
        .trim_start_matches("const ")
        .trim_start_matches("unsafe ")
    {
        function if function.starts_with("fn ") => function,
        _ => rest,
    };
    for kind in KINDS {
        if let Some(named) = rest.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) {
            return identifier(named)
                .map(|name| (name.to_owned(), *kind))
                .into_iter()
                .collect();
        }
    }
    let Some(used) = rest.strip_prefix("use ") else {
        return Vec::new();
    };
    let mut used = used.to_owned();
    while !used.trim_end().ends_with(';') {
        *at += 1;
        used.push_str(lines[*at].trim());
    }
    let mut leaves = Vec::new();
    flatten(used.trim_end().trim_end_matches(';'), &[], &mut leaves);
    leaves.into_iter().map(|(_, name)| (name, "use")).collect()
}

/// The file of module `name` declared in `file`.
fn module_file(file: &Path, name: &str) -> PathBuf {
    let dir = match file.file_name().and_then(|f| f.to_str()) {
        Some("lib.rs" | "mod.rs") => file.parent().unwrap().to_owned(),
        _ => file.with_extension(""),
    };
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        flat
    } else {
        dir.join(name).join("mod.rs")
    }
}

/// Every public path under `prefix` from `file`, into `found`.
pub fn collect(file: &Path, prefix: &str, found: &mut BTreeSet<String>) {
    let text = std::fs::read_to_string(file)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
    let lines: Vec<&str> = text.lines().collect();
    let mut at = 0;
    while at < lines.len() {
        // The tests at the end of a file are not the API.
        if lines[at].starts_with("#[cfg(test)]") && lines.get(at + 1) == Some(&"mod tests {") {
            break;
        }
        for (name, kind) in public_names(&lines, &mut at) {
            let path = format!("{prefix}{name}");
            let shallow = SHALLOW
                .iter()
                .any(|m| prefix.starts_with(&format!("{m}::")));
            if kind == "mod" && !shallow {
                collect(&module_file(file, &name), &format!("{path}::"), found);
            }
            found.insert(path);
        }
        at += 1;
    }
}

/// The paths in the tables of the page `page`: a row's first cell, in
/// backticks.
pub fn listed(page: &Path) -> BTreeSet<String> {
    let page = std::fs::read_to_string(page).unwrap();
    page.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|row| row.split('`').next().unwrap().to_owned())
        .collect()
}
