//! docs/api.md lists the public API, and this keeps it true: the `pub`
//! items written at the top of `src/lib.rs` and of each public module's
//! file, read with a parser as simple as the code's layout allows (one
//! item a line, `pub` at the start of the line; the kernel types that
//! macros write are indented, and docs/api.md describes them in prose),
//! against the paths in the page's tables.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The modules whose own items are listed but whose submodules are not
/// read: the program and the pictures' traces, outside the promise.
const SHALLOW: &[&str] = &["cli", "trace"];

/// The names that `line` (and the lines after it, for a `use` over
/// several) makes public at the top of its file, with their kind.
fn public_names(lines: &[&str], at: &mut usize) -> Vec<(String, &'static str)> {
    let line = lines[*at];
    let Some(rest) = line.strip_prefix("pub ") else {
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
    for kind in [
        "mod", "fn", "const", "static", "struct", "enum", "trait", "type", "union",
    ] {
        if let Some(named) = rest.strip_prefix(kind).and_then(|r| r.strip_prefix(' ')) {
            let name: String = named
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            return vec![(name, kind)];
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
    let used = used.trim_end().trim_end_matches(';');
    let (base, names) = match used.split_once("::{") {
        Some((base, names)) => (base, names.trim_end_matches('}')),
        None => used.rsplit_once("::").unwrap_or(("", used)),
    };
    names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            let name = match name {
                "self" => base.rsplit("::").next().unwrap(),
                _ => name.rsplit(" as ").next().unwrap(),
            };
            (name.rsplit("::").next().unwrap().to_owned(), "use")
        })
        .collect()
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
fn collect(file: &Path, prefix: &str, found: &mut BTreeSet<String>) {
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

/// The paths in docs/api.md's tables: a row's first cell, in backticks.
fn listed() -> BTreeSet<String> {
    let page = std::fs::read_to_string(Path::new(ROOT).join("docs/api.md")).unwrap();
    page.lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|row| row.split('`').next().unwrap().to_owned())
        .collect()
}

#[test]
fn docs_api_lists_every_public_item_and_no_other() {
    let mut public = BTreeSet::new();
    collect(&Path::new(ROOT).join("src/lib.rs"), "", &mut public);
    let listed = listed();
    // Far more than a broken parser or page would give.
    assert!(public.len() > 100, "{public:?}");
    let unlisted: Vec<_> = public.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&public).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "public but not in docs/api.md (list it and say why, or make it private): \
         {unlisted:?}\nin docs/api.md but not public: {stale:?}"
    );
}

/// The parser reads the forms the code uses.
#[test]
fn the_parser_reads_each_form_of_item() {
    let lines = [
        "pub use a::b::{self, C, D as E};",
        "pub use a::{",
        "    f, g,",
        "};",
        "pub const fn h() {}",
        "pub(crate) fn hidden() {}",
        "    pub struct Indented = Kernel::Indented;",
        "pub struct I {",
    ];
    let mut names = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        names.extend(public_names(&lines, &mut at));
        at += 1;
    }
    let names: Vec<_> = names.iter().map(|(n, k)| format!("{k} {n}")).collect();
    assert_eq!(
        names,
        [
            "use b", "use C", "use E", "use f", "use g", "fn h", "struct I"
        ]
    );
}
