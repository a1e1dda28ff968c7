//! The crate's structure, as docs/architecture.md states it:
//! - each type's own methods live in the file that defines it: an inherent
//!   `impl Type` (not `impl Trait for Type`) in another file fails here,
//!   naming both, and so does one that a macro writes in the file that
//!   invokes it;
//! - no two types of `src/` share a name (structs, enums, unions, traits,
//!   type aliases, those macros declare included);
//! - each item the crate re-exports at its root is reached by one path,
//!   `crate::Name` inside the crate and `queens_simd::Name` outside.
//!
//! - docs/api.md lists every public item, and nothing else.
//!
//! (The layers and their imports are checked by the architecture picture,
//! `cargo run --features trace --example pictures -- --check`.)

mod structure {
    pub mod api;
    pub mod macros;
    pub mod paths;
    pub mod text;
}

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use structure::macros::{bound_in, effects, macro_rules};
use structure::paths::{ModPath, Named, module_of, named};
use structure::text::{code_of, definitions, inherent_impls};

/// Names that two types share on purpose, each with its reason in
/// docs/architecture.md ("One name, one thing"). None today.
const SHARED_NAMES: &[&str] = &[];

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

/// The files under `dir` of the crate, relative to it, with their code
/// (`code_of`: comments and literals out).
fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    if !root.is_dir() {
        return Vec::new();
    }
    rust_files(&root)
        .into_iter()
        .map(|path| {
            let code = code_of(&fs::read_to_string(&path).unwrap());
            (path.strip_prefix(&root).unwrap().to_path_buf(), code)
        })
        .collect()
}

/// What the files define and where they write inherent impls: each type
/// definition (file, name), once per definition, and each inherent impl
/// (file, name), a macro's in the file that invokes it.
type Found = Vec<(PathBuf, String)>;

fn definitions_and_impls(files: &[(PathBuf, String)]) -> (Found, Found) {
    let mut macros = BTreeMap::new();
    for (_, code) in files {
        macros.extend(macro_rules(code));
    }
    let effects = effects(&macros);
    let (mut defined, mut impls) = (Vec::new(), Vec::new());
    for (path, code) in files {
        let mut own = definitions(code);
        let mut own_impls = inherent_impls(code);
        // A macro invoked with `struct Name` in its text (`kernel_type!`)
        // shows its definition twice: as text and through the macro.
        let as_text: BTreeSet<String> = own.iter().cloned().collect();
        for (_, bound) in bound_in(code, &macros, &effects) {
            own.extend(
                bound
                    .defines
                    .into_iter()
                    .filter(|name| !as_text.contains(name)),
            );
            own_impls.extend(bound.impls);
        }
        let named = |name: &String| !name.starts_with('$');
        defined.extend(
            own.into_iter()
                .filter(named)
                .map(|name| (path.clone(), name)),
        );
        impls.extend(
            own_impls
                .into_iter()
                .filter(named)
                .map(|name| (path.clone(), name)),
        );
    }
    (defined, impls)
}

/// The inherent impls away from their type's file, as messages.
fn stray_impls(files: &[(PathBuf, String)]) -> Vec<String> {
    let (defined, impls) = definitions_and_impls(files);
    let mut homes: BTreeMap<&str, BTreeSet<&Path>> = BTreeMap::new();
    for (path, name) in &defined {
        homes.entry(name).or_default().insert(path);
    }
    impls
        .iter()
        .filter(|(path, name)| {
            homes
                .get(name.as_str())
                .is_some_and(|home| !home.contains(path.as_path()))
        })
        .map(|(path, name)| {
            let home: Vec<_> = homes[name.as_str()]
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            format!(
                "impl {name} in {}, defined in {}",
                path.display(),
                home.join(", ")
            )
        })
        .collect()
}

/// The names defined more than once (outside `shared`), with where.
fn shared_names(files: &[(PathBuf, String)], shared: &[&str]) -> Vec<String> {
    let (defined, _) = definitions_and_impls(files);
    let mut places: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (path, name) in &defined {
        places
            .entry(name)
            .or_default()
            .push(path.display().to_string());
    }
    places
        .into_iter()
        .filter(|(name, places)| places.len() > 1 && !shared.contains(name))
        .map(|(name, places)| format!("{name}: {}", places.join(", ")))
        .collect()
}

#[test]
fn every_type_has_its_methods_in_its_own_file() {
    let src = sources("src");
    let (_, impls) = definitions_and_impls(&src);
    assert!(impls.len() > 50, "{} inherent impls found", impls.len());
    let by_macro = impls
        .iter()
        .filter(|(path, _)| path.ends_with("join/avx2.rs"))
        .count();
    assert!(
        by_macro >= 1,
        "the impls `join_kernel!` writes in join/avx2.rs are seen"
    );
    let strays = stray_impls(&src);
    assert!(
        strays.is_empty(),
        "methods away from their type:\n{}",
        strays.join("\n")
    );
}

#[test]
fn no_two_types_share_a_name() {
    let src = sources("src");
    let (defined, _) = definitions_and_impls(&src);
    assert!(
        defined.len() > 150,
        "{} type definitions found",
        defined.len()
    );
    for kernel in ["JoinAvx2", "LanesAvx512", "Avx", "Portable"] {
        assert!(
            defined.iter().any(|(_, name)| name == kernel),
            "{kernel} is seen"
        );
    }
    let architecture =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md"))
            .unwrap();
    for name in SHARED_NAMES {
        assert!(
            architecture.contains(&format!("`{name}`")),
            "docs/architecture.md says why {name} is shared"
        );
    }
    let shared = shared_names(&src, SHARED_NAMES);
    assert!(
        shared.is_empty(),
        "type names defined more than once:\n{}",
        shared.join("\n")
    );
}

/// Paths that `use` declarations make: each (its scope and name) with
/// the path it names.
type Aliases = BTreeMap<ModPath, ModPath>;

/// The aliases of the files (every `use` of `src/`).
fn aliases(src: &[(PathBuf, Vec<Named>)]) -> Aliases {
    let mut aliases = BTreeMap::new();
    for (_, named) in src {
        for item in named {
            if let Some(imported) = &item.imported {
                let mut alias = item.scope.clone();
                alias.push(imported.clone());
                if alias != item.path {
                    aliases.insert(alias, item.path.clone());
                }
            }
        }
    }
    aliases
}

/// Where `path` leads through `aliases`: the path of what it names, and
/// the aliases it went through (each as alias, target).
fn resolved(path: &[String], aliases: &Aliases) -> (ModPath, Vec<(ModPath, ModPath)>) {
    let mut path = path.to_vec();
    let mut through = Vec::new();
    for _ in 0..16 {
        let Some(len) = (1..=path.len())
            .rev()
            .find(|&len| aliases.contains_key(&path[..len]))
        else {
            break;
        };
        let alias = path[..len].to_vec();
        let mut next = aliases[&alias].clone();
        through.push((alias, next.clone()));
        next.extend_from_slice(&path[len..]);
        path = next;
    }
    (path, through)
}

/// The paths in `files` (each file's named paths) that reach an item the
/// crate re-exports at its root by another path than the root's, as
/// messages. `src` gives the aliases (every `use` of `src/`).
fn second_paths(src: &[(PathBuf, Vec<Named>)], files: &[(PathBuf, Vec<Named>)]) -> Vec<String> {
    let aliases = aliases(src);
    let root_items: Vec<String> = src
        .iter()
        .filter(|(path, _)| path == Path::new("lib.rs"))
        .flat_map(|(_, named)| named.iter())
        .filter(|item| item.public_use && item.scope.is_empty())
        .filter_map(|item| item.imported.clone())
        .collect();
    let chains: Vec<_> = root_items
        .iter()
        .map(|name| resolved(std::slice::from_ref(name), &aliases))
        .collect();
    // The re-exports that bring the root items to the root, and only those,
    // may name them by their home.
    let re_export = |item: &Named| {
        item.public_use
            && chains
                .iter()
                .flat_map(|(_, chain)| chain)
                .any(|(alias, to)| {
                    to[..] == item.path[..] && alias[..alias.len() - 1] == item.scope[..]
                })
    };
    let mut found = Vec::new();
    for (name, (target, _)) in root_items.iter().zip(&chains) {
        let root = std::slice::from_ref(name);
        for (path, named) in files {
            for item in named {
                let reaches = (1..=item.path.len()).any(|len| {
                    item.path[..len] != *root && resolved(&item.path[..len], &aliases).0 == *target
                });
                if reaches && !re_export(item) {
                    found.push(format!(
                        "{}: `{}` names {name}, reached as the root's `{name}`",
                        path.display(),
                        item.written
                    ));
                }
            }
        }
    }
    found
}

/// Each file's named paths (see `paths::named`), from its module.
fn named_in(files: &[(PathBuf, String)], root: &str) -> Vec<(PathBuf, Vec<Named>)> {
    files
        .iter()
        .map(|(path, code)| {
            let module = if root == "crate" {
                module_of(path)
            } else {
                Vec::new()
            };
            (path.clone(), named(code, &module, root))
        })
        .collect()
}

#[test]
fn each_root_item_is_reached_by_one_path() {
    let src = named_in(&sources("src"), "crate");
    let mut files = src.clone();
    for dir in ["tests", "benches", "examples", "fuzz/fuzz_targets"] {
        files.extend(
            named_in(&sources(dir), "queens_simd")
                .into_iter()
                .map(|(path, named)| (Path::new(dir).join(path), named)),
        );
    }
    let uses = files
        .iter()
        .flat_map(|(_, named)| named)
        .filter(|n| n.path == ["Kernel"])
        .count();
    assert!(uses > 30, "{uses} paths to crate::Kernel seen");
    let second = second_paths(&src, &files);
    assert!(
        second.is_empty(),
        "items reached by a second path:\n{}",
        second.join("\n")
    );
}

/// The checks above see what they must, on planted texts: a stray impl (by
/// hand or by a macro invoked in another file), a name defined twice, and
/// a second path to a root item; not a trait impl, an associated type, or
/// a type named only in a comment or a string.
#[test]
fn the_scans_find_what_is_planted_and_nothing_else() {
    let file = |path: &str, text: &str| (PathBuf::from(path), code_of(text));
    let plan = file(
        "plan.rs",
        "pub struct Plan {}\n// struct Other\nimpl Iterator for Plan {\n    type Item = u8;\n}\nconst S: &str = \"struct Quoted {\";\n",
    );
    let stray = file(
        "stray.rs",
        "impl Display for Plan {\n}\n// impl Plan {\nimpl<'a> Plan {\n",
    );
    assert_eq!(
        stray_impls(&[plan.clone(), stray]),
        ["impl Plan in stray.rs, defined in plan.rs"]
    );
    let kernel_type = file(
        "proof.rs",
        "macro_rules! kernel_type {\n    ($(#[$m:meta])* $vis:vis struct $name:ident = $k:expr;) => {\n        $vis struct $name(());\n        impl $name {\n        }\n    };\n}\n",
    );
    let family = file(
        "family.rs",
        "macro_rules! family {\n    ($(#[$doc:meta])* $name:ident, $v:ty) => {\n        kernel_type! { $(#[$doc])* pub struct $name = K::$name; }\n    };\n}\n",
    );
    let invoked = file("avx2.rs", "family!(\n    /// Doc.\n    Fast,\n    u8\n);\n");
    let elsewhere = file("other.rs", "impl Fast {\n}\n");
    assert_eq!(
        stray_impls(&[
            kernel_type.clone(),
            family.clone(),
            invoked.clone(),
            elsewhere
        ]),
        ["impl Fast in other.rs, defined in avx2.rs"]
    );
    assert!(stray_impls(&[kernel_type.clone(), family.clone(), invoked.clone()]).is_empty());
    let twice = file("twice.rs", "fn f() {\n    struct Fast;\n}\n");
    assert_eq!(
        shared_names(
            &[
                plan.clone(),
                kernel_type.clone(),
                family.clone(),
                invoked.clone(),
                twice
            ],
            &[]
        ),
        ["Fast: avx2.rs, twice.rs"]
    );
    assert!(shared_names(&[plan, kernel_type, family, invoked], &[]).is_empty());

    let lib = file(
        "lib.rs",
        "mod kernel;\nmod vocabulary;\npub use kernel::Kernel;\nfn f() { crate::Kernel::Auto; }\n",
    );
    let kernel = file(
        "kernel/mod.rs",
        "pub use crate::vocabulary::kernel::{Kernel, Role};\n",
    );
    let vocabulary = file("vocabulary/kernel.rs", "pub enum Kernel {}\n");
    let src = named_in(&[lib, kernel, vocabulary], "crate");
    assert!(
        second_paths(&src, &src).is_empty(),
        "{:?}",
        second_paths(&src, &src)
    );
    let second = file(
        "kernel/join.rs",
        "use crate::kernel::{Kernel, Role};\nfn f() { crate::vocabulary::kernel::Kernel::Auto; super::Kernel::Auto; crate::kernel::Role::A; }\nmod tests {\n    use super::super::Kernel;\n}\n",
    );
    let mut with_second = src.clone();
    with_second.extend(named_in(&[second], "crate"));
    let found = second_paths(&with_second, &with_second);
    let written: Vec<_> = found.iter().map(|m| m.split('`').nth(1).unwrap()).collect();
    assert_eq!(
        written,
        [
            "crate::kernel::Kernel",
            "super::super::Kernel",
            "crate::vocabulary::kernel::Kernel::Auto",
            "super::Kernel::Auto"
        ],
        "{found:?}"
    );
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
/// them. (The command line's doc comments, in cli/, are its `--help`
/// text, which names settings such as `--time`'s warm-up, not
/// measurements: not checked here.)
#[test]
fn doc_comments_quote_no_timings() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut quoting = Vec::new();
    for path in rust_files(&src) {
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
}

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

/// A plain dependency is the lean library: the command line is a package
/// of its own (cli/), and so are the benchmarks (benches/), which the
/// workspace builds at the root (`cargo run`, `cargo test`, `cargo bench`);
/// the library's manifest names none of their dependencies and stays
/// short; the feature tables of src/lib.rs and docs/library.md say what
/// the default is. (.ci/lean checks what Cargo
/// resolves, and the join kernels with and without `alloc`.)
#[test]
fn the_command_line_is_a_package_of_its_own_and_the_tables_say_so() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let defaults = default_features(&manifest);
    assert_eq!(
        defaults,
        BTreeSet::from(["alloc".to_owned(), "std".to_owned()])
    );
    assert!(
        manifest.lines().count() <= 80,
        "Cargo.toml is over 80 lines"
    );
    assert!(!manifest.contains("[[bin]]"), "the program is cli/'s");
    for dependency in [
        "clap",
        "serde",
        "serde_json",
        "indicatif",
        "sha2",
        "tempfile",
        "getrandom",
        "snapbox",
        "assert_cmd",
        // The benchmarks' harnesses are the benches/ package's: `cargo
        // test` builds the library's dev-dependencies, which must not be
        // them.
        "criterion",
        "iai-callgrind",
    ] {
        assert!(
            !manifest
                .lines()
                .any(|line| line.starts_with(&format!("{dependency} ="))),
            "the library's manifest names {dependency}"
        );
    }
    assert!(manifest.contains(
        "\n[workspace]\nmembers = [\"cli\", \"benches\"]\ndefault-members = [\".\", \"cli\", \"benches\"]\n"
    ));
    assert!(manifest.contains("\nautobenches = false\n"));
    let benches = fs::read_to_string(root.join("benches/Cargo.toml")).unwrap();
    assert!(
        benches.contains("\n[[bench]]\nname = \"simd\"\npath = \"simd.rs\"\nharness = false\n")
    );
    let member = fs::read_to_string(root.join("cli/Cargo.toml")).unwrap();
    assert!(member.contains("\n[[bin]]\nname = \"queens-simd\"\n"));
    assert!(member.contains("\nqueens-simd = { path = \"..\", version = \"0.1.0\" }\n"));
    assert!(!root.join("src/cli").exists() && !root.join("src/bin").exists());
    for page in ["src/lib.rs", "docs/library.md"] {
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

/// docs/api.md lists the public API, and this keeps it true: the `pub`
/// items written at the top of `src/lib.rs` and of each public module's
/// file ([`structure::api`]) against the paths in the page's tables.
#[test]
fn docs_api_lists_every_public_item_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut public = BTreeSet::new();
    structure::api::collect(&root.join("src/lib.rs"), "", &mut public);
    let listed = structure::api::listed(&root.join("docs/api.md"));
    // Far more than a broken reader or page would give.
    assert!(public.len() > 100, "{public:?}");
    let unlisted: Vec<_> = public.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&public).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "public but not in docs/api.md (list it and say why, or make it private): \
         {unlisted:?}\nin docs/api.md but not public: {stale:?}"
    );
}

/// The API's reader reads the forms the code uses, and nothing private.
#[test]
fn the_api_reader_reads_each_form_of_item() {
    let lines = [
        "pub use a::b::{self, C, D as E};",
        "pub use a::{",
        "    f, g,",
        "    h::{i, j as k},",
        "};",
        "pub const fn l() {}",
        "pub(crate) fn hidden() {}",
        "    pub struct Indented = Kernel::Indented;",
        "pub struct M {",
    ];
    let mut names = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        names.extend(structure::api::public_names(&lines, &mut at));
        at += 1;
    }
    let names: Vec<_> = names.iter().map(|(n, k)| format!("{k} {n}")).collect();
    assert_eq!(
        names,
        [
            "use b", "use C", "use E", "use f", "use g", "use i", "use k", "fn l", "struct M"
        ]
    );
}

/// The README is a first page, not the manual: at most 400 lines, the rest
/// in `docs/` (docs/library.md, docs/kernels.md, docs/plan.md, …).
#[test]
fn the_readme_is_at_most_400_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lines = fs::read_to_string(root.join("README.md"))
        .unwrap()
        .lines()
        .count();
    assert!(lines <= 400, "README.md has {lines} lines, at most 400");
}
