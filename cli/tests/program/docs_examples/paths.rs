//! Docs the compiler keeps: every public path of the library that
//! README.md and the pages of `docs/` name in their text is linked from a
//! crate built here, which depends on the library as any other crate
//! would, and rustdoc must resolve each link. A path that names a private
//! item, an item that was renamed or removed, or one reached by a path
//! that is not public fails, with the page and line that named it.
//!
//! What counts as a public path: a path written from the crate
//! (`queens_simd::…`), from one of the library's public modules
//! (`dispatch::count`, `plan::Plan::with_method`), or from an item that
//! docs/api.md lists (`Kernel::ALL`, `Options::count`, read as
//! `dispatch::Options::count`). Other names with `::` are the code's
//! private ones, named as such (`registry::build`, `crate::…`), and the
//! Rust examples of the pages run as doctests instead. (The command
//! line's package, whose public items promise nothing, is left out: the
//! crate here would build its dependencies too, clap and serde among
//! them, three times the time of the check.)

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use super::common::{self, ROOT};

/// The library's public modules, from which a page may write a path.
const MODULES: &[&str] = &[
    "dispatch",
    "fundamental",
    "kernel",
    "plan",
    "reference",
    "suggest",
    "symmetry",
    "trace",
    "verify",
];

/// The items docs/api.md lists, by their last name: `Options` is
/// `dispatch::Options`. (A name listed twice is ambiguous, and left out.)
fn listed_items() -> BTreeMap<String, String> {
    let api = std::fs::read_to_string(Path::new(ROOT).join("docs/api.md")).unwrap();
    let mut items: BTreeMap<String, Option<String>> = BTreeMap::new();
    for row in api.lines().filter_map(|line| line.strip_prefix("| `")) {
        let Some((path, _)) = row.split_once("` |") else {
            continue;
        };
        let last = path.rsplit("::").next().unwrap().to_owned();
        items
            .entry(last)
            .and_modify(|seen| *seen = None)
            .or_insert_with(|| Some(path.to_owned()));
    }
    items
        .into_iter()
        .filter_map(|(last, path)| Some((last, path?)))
        .collect()
}

/// The text of a page outside its fenced blocks (whose Rust runs as
/// doctests, and whose shell and TOML name no Rust paths), by line.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (at, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((at + 1, line));
        }
    }
    lines
}

/// The paths (two names or more, joined by `::`) in the inline code of
/// `line`: `Plan::new(16)` gives `Plan::new`.
fn paths_in(line: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    for (at, code) in line.split('`').enumerate() {
        if at % 2 == 0 {
            continue;
        }
        let mut rest = code;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let before = rest[..start].chars().next_back();
            let tail = &rest[start..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            let path = tail[..end].trim_end_matches(':');
            if path.contains("::") && !before.is_some_and(|c| c == ':' || c == '.') {
                paths.push(path);
            }
            rest = &tail[end.max(1)..];
        }
    }
    paths
}

/// `path` written from the crate, if it is a public path (see the module's
/// docs), else `None`.
fn qualified(path: &str, listed: &BTreeMap<String, String>) -> Option<String> {
    if path.starts_with("queens_simd::") {
        return Some(path.to_owned());
    }
    let (first, rest) = path.split_once("::")?;
    if MODULES.contains(&first) {
        return Some(format!("queens_simd::{path}"));
    }
    let full = listed.get(first)?;
    Some(format!("queens_simd::{full}::{rest}"))
}

/// Every public path the pages name, with where: `(page:line, path)`.
fn named_public_paths() -> Vec<(String, String)> {
    let listed = listed_items();
    let mut found = Vec::new();
    for page in common::pages() {
        let text = std::fs::read_to_string(Path::new(ROOT).join(&page)).unwrap();
        for (line_number, line) in prose(&text) {
            for path in paths_in(line) {
                if let Some(full) = qualified(path, &listed) {
                    found.push((format!("{page}:{line_number}"), full));
                }
            }
        }
    }
    found
}

/// The crate that links every path, written in `dir`.
fn write_crate(dir: &Path, paths: &[(String, String)]) {
    std::fs::create_dir_all(dir).unwrap();
    let root = std::fs::canonicalize(ROOT).unwrap();
    let manifest = format!(
        "[package]\nname = \"docs-paths\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\npath = \"lib.rs\"\n\n[workspace]\n\n[dependencies]\n\
         queens-simd = {{ path = {root:?}, features = [\"trace\"] }}\n",
        root = root.display().to_string(),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's versions, so that nothing is resolved anew (offline).
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let mut lib = String::from(
        "//! Every public path that README.md and docs/ name, each a link\n\
         //! rustdoc must resolve (written by cli/tests/program/docs_examples/paths.rs).\n//!\n",
    );
    for (place, path) in paths {
        writeln!(lib, "//! - {place}: [`{path}`]").unwrap();
    }
    lib.push_str("#![deny(rustdoc::broken_intra_doc_links)]\n");
    std::fs::write(dir.join("lib.rs"), lib).unwrap();
}

#[test]
fn every_public_path_the_docs_name_resolves() {
    let paths = named_public_paths();
    // The pages name well over a hundred (a reader that found none would
    // pass everything).
    assert!(paths.len() > 100, "{} paths found", paths.len());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-paths");
    write_crate(&dir, &paths);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "doc",
            "--offline",
            "--no-deps",
            "--quiet",
            "--manifest-path",
        ])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("RUSTDOCFLAGS", "-D warnings")
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "paths the docs name that the compiler refuses (see each `- PAGE:LINE` in {}):\n{stderr}",
        dir.join("lib.rs").display()
    );
}

#[test]
fn the_reader_finds_public_paths_and_leaves_private_names() {
    let listed = BTreeMap::from([("Options".to_owned(), "dispatch::Options".to_owned())]);
    let line = "see `Options::count(plan)`, `plan::Plan::new(16)`, `registry::build`, \
                `crate::kernel::Kernel` and `x.y::z` (`queens_simd::count`, `queens_simd_cli::run`)";
    let found: Vec<String> = paths_in(line)
        .into_iter()
        .filter_map(|path| qualified(path, &listed))
        .collect();
    assert_eq!(
        found,
        [
            "queens_simd::dispatch::Options::count",
            "queens_simd::plan::Plan::new",
            "queens_simd::count"
        ]
    );
    assert_eq!(
        prose("a `b::c`\n```rust\nd::e\n```\nf"),
        [(1, "a `b::c`"), (5, "f")]
    );
}
