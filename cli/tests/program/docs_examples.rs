//! Docs that run: every command example in README.md and `docs/*.md` is
//! run here and what it prints compared with what the page shows, so that
//! a page cannot say what is not so.
//!
//! An example is written as trycmd writes a markdown case: a ```` ```console ````
//! block of `$ COMMAND` lines, each followed by an optional `? STATUS`
//! line (its exit status; 0 when there is none) and by what it prints,
//! stdout and stderr together as a terminal shows them. In what it prints,
//! `[..]` stands for any text within a line and a line of `...` for any
//! number of lines: snapbox's (and trycmd's) matching, which this test
//! calls. A `$ ` line in any other block fails the test, so that no
//! example is left unrun; ```` ```sh ```` blocks are commands to type that
//! build, test, bench or are scripts (`cargo test`, the Slurm scripts),
//! which CI runs in its own steps (`.ci/run`).
//!
//! Why snapbox's matching with a shell, and not trycmd itself: trycmd runs a
//! `$ ` line as one program and its arguments, with no shell, but the
//! examples are what a reader types into one: a pipe (`| head -3`), a glob
//! (`merge shard-*.json`), a `for` loop that writes three shards, `sed`
//! tampering with a record, `timeout` standing in for Ctrl-C. Rewritten
//! for trycmd they would no longer be what anyone types. So each `$ ` line
//! runs as `bash -o pipefail -c LINE` (a failing stage of a pipe fails the
//! example too), in one scratch directory per page, so that the files one
//! example writes are there for the next as for a reader who follows the
//! page, with this build's `queens-simd` first on PATH; the markdown reading
//! below is all this file adds.
//!
//! What the CPU or the clock decides is written with `[..]`, nothing
//! broader: `lanes-avx[..]` is `lanes-avx512` on a CPU with AVX-512 and
//! `lanes-avx2` on one without. [`the_docs_hold_without_avx512`] runs the
//! pages that show the CPU's choices again, with `queens-simd` under
//! `qemu-x86_64 -cpu Haswell-noTSX` (AVX2, no AVX-512), so that an example
//! that holds only on this machine's CPU fails on either.
//!
//! A command whose program is not on PATH (`qemu-x86_64`) is skipped and
//! says `SKIPPED`, a failure with `QUEENS_SIMD_REQUIRE_ALL=1`.
//!
//! [`every_path_the_docs_name_exists`] checks the other thing a page can get
//! wrong by itself: every `src/...`, `tests/...`, `docs/...` path it names
//! and every link it makes, to a file or to a heading.
//!
//! Release builds only (`cargo test --release`, the README's test command):
//! the examples count up to N = 19, which takes minutes in a debug build.
#![cfg(all(unix, not(debug_assertions)))]

use crate::common;
// Every public path the pages name, built (in a test binary of its own
// it cost a build and a link more).
mod paths;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The repository's root.
use common::ROOT;

/// No example takes long; one that hangs fails after this.
const TIMEOUT: Duration = Duration::from_secs(300);

/// The CPU the emulated run gives `queens-simd`: AVX2, BMI and everything
/// below, no AVX-512 (the Zen 3 machines CI has run on), less four features
/// that qemu-user does not emulate and would warn about on every run.
const WITHOUT_AVX512: &str = "Haswell-noTSX,-pcid,-x2apic,-tsc-deadline,-invpcid";

/// One `$ ` line of a page and what the page says it does.
#[derive(Debug)]
struct Example {
    /// Where it is: `docs/plan.md:187`.
    place: String,
    /// The command line, for bash.
    command: String,
    /// Its exit status (the `? STATUS` line; 0 without one).
    status: i32,
    /// What it prints, stdout and stderr together.
    output: String,
}

/// The examples of `page` (its text `text`), in order, or what is wrong with
/// how they are written.
fn examples(page: &str, text: &str) -> Result<Vec<Example>, Vec<String>> {
    let mut examples = Vec::new();
    let mut errors = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    while let Some((number, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let fence = &line[..line.len() - info.trim_start_matches('`').len()];
        let mut info = info.trim_start_matches('`').trim().split(',');
        let console = info.next() == Some("console");
        if console && info.any(|word| word.trim() == "ignore") {
            errors.push(format!(
                "{page}:{number}: every console block runs; show output that cannot run \
                 without a `$ ` prompt, in a text block"
            ));
        }
        let mut current: Option<Example> = None;
        for (number, line) in lines.by_ref() {
            if line.starts_with(fence) {
                break;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                if !console {
                    errors.push(format!(
                        "{page}:{number}: `$ {command}` is not in a console block, so it \
                         never runs: make the block ```console"
                    ));
                    continue;
                }
                examples.extend(current.replace(Example {
                    place: format!("{page}:{number}"),
                    command: command.to_owned(),
                    status: 0,
                    output: String::new(),
                }));
            } else if let Some(example) = current.as_mut() {
                if let Some(status) = line.strip_prefix("? ")
                    && example.output.is_empty()
                {
                    match status.trim().parse() {
                        Ok(status) => example.status = status,
                        Err(_) => errors.push(format!(
                            "{page}:{number}: `? {status}`: an exit status is a number"
                        )),
                    }
                } else {
                    example.output.push_str(line);
                    example.output.push('\n');
                }
            } else if console {
                errors.push(format!(
                    "{page}:{number}: a console block starts with a `$ ` command"
                ));
            }
        }
        examples.extend(current);
    }
    if errors.is_empty() {
        Ok(examples)
    } else {
        Err(errors)
    }
}

/// Words that start a segment of a command line without being a program,
/// and the shell's own commands.
const SHELL_WORDS: &[&str] = &[
    "!", "{", "}", "do", "done", "then", "else", "elif", "fi", "while", "until", "time", "cd",
    "echo", "printf", "test", "[", "true", "false", "command", "export", "exit",
];

/// The programs a command line runs (a good guess: the first word of each
/// part between `|`, `;`, `&&`, `(` and `)`, past the shell's keywords).
fn programs(command: &str) -> Vec<&str> {
    command
        .split(['|', ';', '&', '(', ')'])
        .filter_map(|part| {
            let mut words = part.split_whitespace().skip_while(|word| {
                word.contains('=') || ["do", "then", "else", "!", "time"].contains(word)
            });
            let word = words.next()?;
            // `for i in 0 1 2`, `case`: the rest of the part is no program.
            let program = !["for", "case", "select", "in"].contains(&word)
                && !SHELL_WORDS.contains(&word)
                && word.starts_with(|c: char| c.is_ascii_alphabetic())
                && word
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
            program.then_some(word)
        })
        .collect()
}

/// Runs the examples of `page`, with `queens-simd` under `qemu-x86_64 -cpu
/// MODEL` if `emulate` names a model, and returns what went wrong.
fn run_page(page: &str, emulate: Option<&str>) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(page)).unwrap();
    let examples = match examples(page, &text) {
        Ok(examples) => examples,
        Err(errors) => return errors,
    };
    if examples.is_empty() {
        return Vec::new();
    }
    let scratch = common::scratch(&format!(
        "docs-examples-{}{}",
        page.replace(['/', '.'], "-"),
        if emulate.is_some() { "-emulated" } else { "" }
    ));
    let bin = scratch.join("bin");
    let work = scratch.join("work");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // The repository's examples/ as seen from its root, where a reader
    // runs the pages' commands (`--projection examples/batch/…`).
    let examples_dir = work.join("examples");
    if std::fs::symlink_metadata(&examples_dir).is_err() {
        std::os::unix::fs::symlink(Path::new(ROOT).join("examples"), &examples_dir).unwrap();
    }
    let queens = env!("CARGO_BIN_EXE_queens-simd");
    match emulate {
        None => std::os::unix::fs::symlink(queens, bin.join("queens-simd")).unwrap(),
        Some(model) => {
            use std::os::unix::fs::PermissionsExt;
            let wrapper = bin.join("queens-simd");
            std::fs::write(
                &wrapper,
                format!("#!/bin/sh\nexec qemu-x86_64 -cpu {model} '{queens}' \"$@\"\n"),
            )
            .unwrap();
            std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();

    let assert = snapbox::Assert::new()
        .action(snapbox::assert::Action::Verify)
        .palette(snapbox::report::Palette::plain())
        .normalize_paths(false);
    let mut failures = Vec::new();
    for example in &examples {
        let place = &example.place;
        let programs = programs(&example.command);
        if emulate.is_some() && programs.contains(&"qemu-x86_64") {
            eprintln!("{place}: not run on the emulated CPU: it runs qemu-x86_64 itself");
            continue;
        }
        if emulate.is_some() && counts_alone(example) {
            eprintln!("{place}: not run on the emulated CPU: its count is the same on every CPU");
            continue;
        }
        if programs
            .iter()
            .filter(|program| **program != "queens-simd")
            .any(|program| common::tool(program).is_none())
        {
            eprintln!("SKIPPED: {place}: $ {}", example.command);
            continue;
        }
        let output = snapbox::cmd::Command::new("bash")
            .args(["--noprofile", "--norc", "-o", "pipefail", "-c"])
            .arg(&example.command)
            .current_dir(&work)
            .env("PATH", &path)
            .stderr_to_stdout()
            .timeout(TIMEOUT)
            .output()
            .unwrap_or_else(|e| panic!("{place}: bash does not start: {e}"));
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        let mut failure = String::new();
        if output.status.code() != Some(example.status) {
            writeln!(
                failure,
                "exit status {}, but the page says {}",
                snapbox::cmd::display_exit_status(output.status),
                example.status
            )
            .unwrap();
        }
        if let Err(error) = assert.try_eq(
            Some(&"printed"),
            snapbox::Data::text(printed.clone()),
            snapbox::Data::text(example.output.clone()),
        ) {
            writeln!(failure, "{error}").unwrap();
        } else if !failure.is_empty() {
            writeln!(failure, "it printed:\n{printed}").unwrap();
        }
        if !failure.is_empty() {
            failures.push(format!("{place}: $ {}\n{failure}", example.command));
        }
    }
    failures
}

/// Whether `example` picks no kernel and prints nothing but a count: what
/// it shows does not depend on the CPU (the native run checks it, and
/// cli/tests/program/cpu_models.rs every kernel's counts on emulated CPUs), while under
/// qemu a count of N = 16 takes seconds.
fn counts_alone(example: &Example) -> bool {
    let printed = example.output.trim_end();
    example.status == 0
        && !example.command.contains("--kernel")
        && !printed.is_empty()
        && printed.bytes().all(|b| b.is_ascii_digit())
}

/// Runs the examples of `pages` and fails with every one that went wrong.
fn check_pages(pages: &[String], emulate: Option<&str>) {
    // Two pages at a time, each in its own scratch folder; a page's
    // examples run in order, as a reader types them. The failures are
    // reported in the pages' order.
    let next = AtomicUsize::new(0);
    let mut by_page: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(page) = pages.get(index) else {
                            break done;
                        };
                        done.push((index, run_page(page, emulate)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap())
            .collect()
    });
    by_page.sort_by_key(|&(index, _)| index);
    let failures: Vec<String> = by_page.into_iter().flat_map(|(_, f)| f).collect();
    assert!(
        failures.is_empty(),
        "{} example(s) in the docs do not do what they show{}:\n\n{}",
        failures.len(),
        emulate.map_or(String::new(), |model| format!(" on `-cpu {model}`")),
        failures.join("\n")
    );
}

#[test]
fn every_command_example_in_the_docs_runs_as_shown() {
    check_pages(&common::pages(), None);
}

/// The pages the emulated run covers: the ones whose examples show what the
/// CPU decides (`--kernels`, `--verify`, `--time`, `auto`'s choices) and
/// take seconds under qemu (less their plain counts, [`counts_alone`]). `docs/plan.md` names the kernel too (`kernel`
/// in a record, `join-avx[..]` in its errors), but its counts of N = 16
/// to 19 take five minutes there; it passed so when it was written, and
/// CI's machines without AVX-512 run it natively.
const EMULATED_PAGES: &[&str] = &["README.md", "docs/kernels.md"];

/// The same examples, with `queens-simd` on an emulated CPU without
/// AVX-512: `auto` picks the AVX2 kernels there, and `--kernels` and
/// `--verify` mark the AVX-512 ones missing.
#[test]
fn the_docs_hold_without_avx512() {
    if common::tool("qemu-x86_64").is_none() {
        return;
    }
    let pages: Vec<String> = EMULATED_PAGES.iter().map(|page| page.to_string()).collect();
    for page in &pages {
        assert!(Path::new(ROOT).join(page).is_file(), "{page} is gone");
    }
    check_pages(&pages, Some(WITHOUT_AVX512));
}

/// The emulated run leaves out plain counts with `auto`, and nothing else.
#[test]
fn only_plain_counts_are_left_to_the_native_run() {
    let example = |command: &str, status: i32, output: &str| Example {
        place: "page.md:1".into(),
        command: command.into(),
        status,
        output: output.into(),
    };
    assert!(counts_alone(&example(
        "queens-simd 16 --count",
        0,
        "14772512\n"
    )));
    for shows_more in [
        example(
            "queens-simd 16 --count --kernel join-avx512",
            0,
            "14772512\n",
        ),
        example("queens-simd 8 --count --time", 0, "92\nqueens-simd: [..]\n"),
        example("queens-simd 8 --count --format json", 0, "{\"n\":8}\n"),
        example("queens-simd 40", 2, "\n"),
        example("queens-simd --kernels | wc -l", 0, ""),
    ] {
        assert!(!counts_alone(&shows_more), "{}", shows_more.command);
    }
}

#[test]
fn the_example_parser_reads_status_output_and_misplaced_prompts() {
    let page = "text\n```console\n$ a | b\n? 2\nerror\n$ c\n```\n```text\n$ d\n```\n";
    let errors = examples("page.md", page).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("page.md:9: `$ d` is not in a console block"));
    let page = "```console\n$ a | b\n? 2\nerror\n\n$ c\n```\n";
    let examples = examples("page.md", page).unwrap();
    assert_eq!(examples.len(), 2);
    assert_eq!(
        (examples[0].command.as_str(), examples[0].status),
        ("a | b", 2)
    );
    assert_eq!(examples[0].output, "error\n\n");
    assert_eq!(
        (examples[1].place.as_str(), examples[1].status),
        ("page.md:6", 0)
    );
    assert_eq!(examples[1].output, "");
    assert_eq!(
        programs("for i in 0 1; do queens-simd 16 > s-$i.json; done"),
        ["queens-simd"]
    );
    assert_eq!(
        programs("qemu-x86_64 -cpu core2duo $(command -v queens-simd) 8 | head -3"),
        ["qemu-x86_64", "head"]
    );
}

/// The paths a line names from the repository's root: `src/...`,
/// `tests/...` and the like, as a word of their own (not the tail of
/// `../src/...` or `target/docs-png`).
fn named_paths(line: &str) -> Vec<&str> {
    const ROOTS: &[&str] = &[
        "src/",
        "tests/",
        "docs/",
        "examples/",
        "benches/",
        "asm/",
        "fuzz/",
        ".ci/",
        "cli/",
        ".cargo/",
    ];
    let mut paths = Vec::new();
    for (start, _) in line.char_indices() {
        let before = line[..start].chars().next_back();
        if !before.is_none_or(|c| " `(\"'[".contains(c))
            || !ROOTS.iter().any(|root| line[start..].starts_with(root))
        {
            continue;
        }
        let rest = &line[start..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || "_./-*".contains(c)))
            .unwrap_or(rest.len());
        paths.push(rest[..end].trim_end_matches('.'));
    }
    paths
}

/// The targets of a line's markdown links and images: `x` in `[text](x)`.
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(at, _)| {
            let rest = &line[at + 2..];
            rest.find(')').map(|end| &rest[..end])
        })
        .collect()
}

/// The anchors of a page's headings, as GitHub makes them: lower case,
/// punctuation dropped, spaces made hyphens.
fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    text.lines()
        .filter(|line| {
            if line.starts_with("```") {
                in_code = !in_code;
            }
            !in_code && line.starts_with('#')
        })
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || " -_".contains(*c))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// Every path the docs name exists, and every link leads to a file, and
/// to one of its headings where it names one: a page that points to a file
/// that was moved or never was (`src/kernel/symmetric.rs`) fails here.
#[test]
fn every_path_the_docs_name_exists() {
    let root = Path::new(ROOT);
    let mut wrong = Vec::new();
    for page in common::pages().iter().chain([&"BENCHMARKS.md".to_owned()]) {
        let text = std::fs::read_to_string(root.join(page)).unwrap();
        let dir = Path::new(page).parent().unwrap();
        for (number, line) in text.lines().enumerate() {
            let place = format!("{page}:{}", number + 1);
            for path in named_paths(line) {
                // A glob (`docs/pictures/*.svg`): its folder.
                let path = path.split('*').next().unwrap();
                if !root.join(path).exists() {
                    wrong.push(format!("{place}: no file or folder `{path}`"));
                }
            }
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
                let file: PathBuf = if file.is_empty() {
                    PathBuf::from(page)
                } else {
                    dir.join(file)
                };
                if !root.join(&file).exists() {
                    wrong.push(format!("{place}: the link `{target}` leads to no file"));
                } else if !anchor.is_empty() {
                    let linked = std::fs::read_to_string(root.join(&file)).unwrap();
                    if !anchors(&linked).iter().any(|a| a == anchor) {
                        wrong.push(format!(
                            "{place}: the link `{target}`: {} has no heading `#{anchor}`",
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
