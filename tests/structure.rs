//! The crate's structure, as docs/architecture.md states it: each type's
//! own methods live in the file that defines it. An inherent `impl Type`
//! (not `impl Trait for Type`) in another file fails here, naming both.
//! (The layers and their imports are checked by the architecture picture,
//! `cargo run --features trace --example pictures -- --check`.)

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

/// `text` without its `//` comments (doc comments included), so that a
/// type named in prose is neither a definition nor an impl.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.split_once("//").map_or(line, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The identifier that starts `text`, if any.
fn identifier(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    (end > 0).then(|| &text[..end])
}

/// The names this file defines: after `struct`, `enum`, `union` or `type`
/// (a `kernel_type!` declares its type with `struct` too).
fn defined(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for keyword in ["struct ", "enum ", "union ", "type "] {
        for (at, _) in code.match_indices(keyword) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(name) = identifier(&code[at + keyword.len()..]) {
                names.insert(name.to_string());
            }
        }
    }
    names
}

/// The types this file writes inherent impls of: `impl Name {` or
/// `impl<…> Name<…> {`, at the start of a line, not `impl Trait for`.
fn inherent_impls(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines() {
        let Some(rest) = line.trim_start().strip_prefix("impl") else {
            continue;
        };
        let rest = match rest.strip_prefix('<') {
            Some(generic) => generic.split_once('>').map_or("", |(_, after)| after),
            None => rest,
        };
        if !rest.starts_with(' ') || rest.contains(" for ") || !rest.trim_end().ends_with('{') {
            continue;
        }
        if let Some(name) = identifier(rest.trim_start())
            && name.starts_with(char::is_uppercase)
        {
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn every_type_has_its_methods_in_its_own_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut homes: BTreeMap<String, BTreeSet<PathBuf>> = BTreeMap::new();
    let mut impls = Vec::new();
    for path in rust_files(&src) {
        let code = without_comments(&fs::read_to_string(&path).unwrap());
        for name in defined(&code) {
            homes.entry(name).or_default().insert(path.clone());
        }
        for name in inherent_impls(&code) {
            impls.push((path.clone(), name));
        }
    }
    assert!(impls.len() > 50, "{} inherent impls found", impls.len());
    let strays: Vec<String> = impls
        .iter()
        .filter(|(path, name)| homes.get(name).is_some_and(|home| !home.contains(path)))
        .map(|(path, name)| {
            let home: Vec<_> = homes[name]
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            format!(
                "impl {name} in {}, defined in {}",
                path.display(),
                home.join(", ")
            )
        })
        .collect();
    assert!(
        strays.is_empty(),
        "methods away from their type:\n{}",
        strays.join("\n")
    );
}

/// The checks above see what they must: a stray impl in a text is found,
/// a trait impl and a type named only in a comment are not.
#[test]
fn the_scan_finds_a_stray_impl_and_nothing_else() {
    let code = without_comments(
        "impl Display for Plan {\n}\n// impl Plan {\nimpl<'a> Listed<'a> {\nimpl Plan {\n",
    );
    assert_eq!(inherent_impls(&code), ["Listed", "Plan"]);
    let defined = defined(&without_comments(
        "pub struct Plan {\n// struct Other\nenum Kind {",
    ));
    assert_eq!(defined.into_iter().collect::<Vec<_>>(), ["Kind", "Plan"]);
}

/// The measured times that a doc comment line of `text` quotes: a number
/// followed by a unit of time (`8 ms`, `15 seconds`) or a speed-up (`1.6
/// times faster`), outside code spans.
fn quoted_timings(text: &str) -> Vec<String> {
    const UNITS: &[&str] = &[
        "ns", "µs", "us", "ms", "s", "sec", "second", "seconds", "minute", "minutes", "hour",
        "hours",
    ];
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        let Some(doc) = line
            .strip_prefix("///")
            .or_else(|| line.strip_prefix("//!"))
        else {
            continue;
        };
        // Code spans (`40 s`, a format the docs show) are not measurements.
        let prose: String = doc.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let words: Vec<&str> = prose
            .split_whitespace()
            .map(|word| word.trim_matches(|c: char| ",.;:()".contains(c)))
            .collect();
        for (at, word) in words.iter().enumerate() {
            let number = word.chars().any(|c| c.is_ascii_digit())
                && word.chars().all(|c| c.is_ascii_digit() || ".,".contains(c));
            let next = |k: usize| words.get(at + k).copied().unwrap_or("");
            let speed_up = next(1) == "times"
                && (["faster", "slower"].contains(&next(2))
                    || next(2) == "as" && ["fast", "slow", "long"].contains(&next(3)));
            if number && (UNITS.contains(&next(1)) || speed_up) {
                found.push(doc.trim().to_owned());
                break;
            }
        }
    }
    found
}

/// Timings go stale as the kernels change: BENCHMARKS.md is their home,
/// and the library's doc comments point to its sections instead of quoting
/// them. (The command line's doc comments are its `--help` text, which
/// names settings such as `--time`'s warm-up, not measurements: not
/// checked here.)
#[test]
fn doc_comments_quote_no_timings() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut quoting = Vec::new();
    for path in rust_files(&src) {
        if path.starts_with(src.join("cli")) {
            continue;
        }
        for line in quoted_timings(&fs::read_to_string(&path).unwrap()) {
            quoting.push(format!("{}: {line}", path.display()));
        }
    }
    assert!(
        quoting.is_empty(),
        "doc comments quoting timings (link to BENCHMARKS.md instead):\n{}",
        quoting.join("\n")
    );
}

#[test]
fn the_timing_scan_finds_quoted_timings_and_nothing_else() {
    let text = "/// took 8.8 ns against 6.3\n\
                //! up to 15 seconds (N = 32)\n\
                /// is 1.6 to 1.8 times faster\n\
                /// prints `40 s` or `12 min`\n\
                /// taken some 600 times at N = 12, 3 times as fast\n\
                // 20 ms in a plain comment\n";
    assert_eq!(
        quoted_timings(text),
        [
            "took 8.8 ns against 6.3",
            "up to 15 seconds (N = 32)",
            "is 1.6 to 1.8 times faster",
            "taken some 600 times at N = 12, 3 times as fast",
        ]
    );
/// The features a build of `Cargo.toml`'s `[features]` turns on with
/// `default`: the closure of `default` over the features it names.
fn default_features(manifest: &str) -> BTreeSet<String> {
    let manifest = format!("\n{manifest}");
    let section = manifest.split("\n[features]\n").nth(1).unwrap();
    let section = &section[..section.find("\n[").unwrap_or(section.len())];
    let lists: BTreeMap<&str, Vec<String>> = section
        .split('\n')
        .filter_map(|line| line.split_once(" = ["))
        .map(|(name, rest)| {
            let list = rest.split(']').next().unwrap();
            let items = list
                .split(',')
                .map(|item| item.trim().trim_matches('"').to_owned());
            (name, items.filter(|item| !item.is_empty()).collect())
        })
        .collect();
    let mut on = BTreeSet::new();
    let mut todo = vec!["default".to_owned()];
    while let Some(feature) = todo.pop() {
        for item in lists.get(feature.as_str()).into_iter().flatten() {
            if !item.starts_with("dep:") && on.insert(item.clone()) {
                todo.push(item.clone());
            }
        }
    }
    on
}

/// The features whose row of a feature table (`| `name` | default | ...`)
/// says "yes" in its default column.
fn defaults_in_table(text: &str) -> BTreeSet<String> {
    text.lines()
        .map(|line| line.trim_start_matches("//!").trim())
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| row.split_once("` | "))
        .filter(|(_, rest)| rest.starts_with("yes"))
        .map(|(name, _)| name.to_owned())
        .collect()
}

/// A plain dependency is the lean library: the command line is not a
/// default feature, the binary needs it, and the workspace's `cli` member
/// turns it on for the commands at the root (`cargo run`, `cargo test`);
/// the feature tables of src/lib.rs and README.md say what the default is.
/// (.ci/lean checks what Cargo resolves, and the join kernels with and
/// without `alloc`.)
#[test]
fn the_command_line_is_not_a_default_feature_and_the_tables_say_so() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let defaults = default_features(&manifest);
    assert_eq!(
        defaults,
        BTreeSet::from(["alloc".to_owned(), "std".to_owned()])
    );
    let bin = manifest
        .split("[[bin]]\nname = \"queens-simd\"\n")
        .nth(1)
        .unwrap();
    assert!(
        bin.contains("\nrequired-features = [\"cli\"]\n"),
        "the binary needs `cli`"
    );
    assert!(
        manifest
            .contains("\n[workspace]\nmembers = [\"cli\"]\ndefault-members = [\".\", \"cli\"]\n")
    );
    let member = fs::read_to_string(root.join("cli/Cargo.toml")).unwrap();
    assert!(member.contains("\nqueens-simd = { path = \"..\", features = [\"cli\"] }\n"));
    for page in ["src/lib.rs", "README.md"] {
        let text = fs::read_to_string(root.join(page)).unwrap();
        assert_eq!(defaults_in_table(&text), defaults, "{page}'s feature table");
    }
}

#[test]
fn the_default_features_are_read_as_cargo_reads_them() {
    let manifest =
        "[features]\ndefault = [\"b\"]\na = []\nb = [\"a\", \"dep:x\"]\nc = [\"b\"]\n\n[x]\n";
    let on = default_features(manifest);
    assert_eq!(on, BTreeSet::from(["a".to_owned(), "b".to_owned()]));
    let table = "| feature | default |\n|---|---|\n| `a` | yes (by `b`) | x |\n| `c` | | y |";
    assert_eq!(defaults_in_table(table), BTreeSet::from(["a".to_owned()]));
}
