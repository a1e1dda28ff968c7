//! Every combination of flags is honoured or refused with one line: none is
//! silently dropped. The tables below are the contract; the matrices try
//! every flag against every mode.

mod common;

use common::queens;
use predicates::prelude::*;

/// Runs `args` and checks it is refused with one line containing `why`.
fn refused(args: &[&str], why: &str) {
    let err = common::refusal(args);
    assert!(err.contains(why), "{args:?}: expected {why:?} in {err}");
}

/// Runs `args` and checks it is honoured with `stdout`.
fn honoured(args: &[&str], stdout: &str) {
    queens()
        .args(args)
        .assert()
        .success()
        .stdout(stdout.to_owned());
}

/// Each flag with a value it accepts, as given on a solve.
const SOLVE_FLAGS: &[&[&str]] = &[
    &["--count"],
    &["--unique"],
    &["--format", "json"],
    &["--kernel", "portable"],
    &["--max-n", "5"],
    &["--threads", "2"],
    &["--shard", "0/2"],
    &["--checkpoint", "never-written.json"],
    &["--checkpoint-interval", "1"],
    &["--quiet"],
    &["--max-memory", "1G"],
    &["--time"],
    &["--sample", "5"],
    &["--seed", "1"],
];

/// `flag` as [`SOLVE_FLAGS`] gives it, with its value.
fn given(flag: &str) -> &'static [&'static str] {
    SOLVE_FLAGS.iter().find(|f| f[0] == flag).unwrap()
}

#[test]
fn kernels_takes_nothing_else() {
    for flag in SOLVE_FLAGS.iter().chain(&[&["--verify"][..], &["20"]]) {
        let mut args = vec!["--kernels"];
        args.extend_from_slice(flag);
        refused(&args, "--kernels takes no");
    }
}

#[test]
fn verify_takes_max_n_only() {
    for flag in SOLVE_FLAGS.iter().filter(|f| f[0] != "--max-n") {
        let mut args = vec!["--verify", "--max-n", "3"];
        args.extend_from_slice(flag);
        refused(&args, "does not apply to --verify");
    }
    refused(&["20", "--verify"], "give --max-n M instead of N (20)");
    refused(
        &["--verify", "--max-n", "16"],
        "--max-n must be from 0 to 15",
    );
    queens()
        .args(["--verify", "--max-n", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("all kernels agree for N = 0 to 3"));
}

#[test]
fn merge_takes_its_own_options_only() {
    for flag in SOLVE_FLAGS {
        let mut args: Vec<&str> = flag.to_vec();
        args.extend(["merge", "a.json"]);
        refused(&args, "does not apply to merge");
    }
    refused(
        &["12", "merge", "a.json"],
        "merge takes shard records, not N",
    );
    refused(
        &["merge", "a.json", "--seed", "3"],
        "--seed goes with --recount",
    );
    refused(
        &["merge", "a.json", "--threads", "2"],
        "--threads goes with --recount",
    );
    refused(
        &["merge", "a.json", "--recount", "0"],
        "--recount must be from 1",
    );
    refused(
        &["merge", "a.json", "--count"],
        "unexpected argument '--count'",
    );
    refused(&["merge"], "required");
}

#[test]
fn counting_flags_need_count() {
    for flag in [
        "--threads",
        "--shard",
        "--checkpoint",
        "--quiet",
        "--max-memory",
        "--sample",
    ] {
        let mut with_n = vec!["8"];
        with_n.extend(given(flag));
        refused(&with_n, &format!("{flag} goes with --count"));
    }
    refused(&["8", "--max-n", "5"], "--max-n goes with --verify");
    refused(
        &["8", "--count", "--max-n", "5"],
        "--max-n goes with --verify",
    );
    refused(
        &["8", "--count", "--checkpoint-interval", "1"],
        "--checkpoint-interval goes with --checkpoint",
    );
}

#[test]
fn a_sample_projects_a_whole_join_count_and_nothing_else() {
    refused(
        &["16", "--count", "--seed", "3"],
        "--seed goes with --sample",
    );
    refused(
        &["16", "--count", "--sample", "0"],
        "--sample must be from 1",
    );
    refused(
        &["16", "--count", "--sample", "x"],
        "--sample must be a whole number",
    );
    for flag in ["--shard", "--checkpoint", "--time"] {
        let mut args = vec!["16", "--count", "--sample", "5"];
        args.extend(given(flag));
        refused(&args, &format!("it cannot be combined with {flag}"));
    }
    refused(
        &["16", "--unique", "--sample", "5"],
        "--sample goes with --count",
    );
    refused(
        &["16", "--count", "--sample", "5", "--kernel", "symmetric"],
        "--sample projects a join count, but N = 16 is counted here through the symmetric plan",
    );
    refused(
        &["3", "--count", "--sample", "5", "--kernel", "join"],
        "the join plan of N = 3 has none (every split of its board is empty)",
    );
    refused(
        &["16", "--count", "--sample", "5", "--max-memory", "1M"],
        "more than the --max-memory limit of 1.0 MiB",
    );
    // The same seed draws the same row sets, so it projects the same count.
    let solutions = |seed: &str| {
        let out = common::stdout_of(&[
            "16", "--count", "--sample", "200", "--seed", seed, "--kernel", "join", "--format",
            "json",
        ]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["draws"], 200);
        assert_eq!(json["seed"].as_u64(), Some(seed.parse().unwrap()));
        assert!(json["core_seconds"]["value"].as_f64().unwrap() > 0.0);
        json["solutions"]["value"].as_f64().unwrap()
    };
    assert_eq!(solutions("7"), solutions("7"));
    assert_ne!(solutions("7"), solutions("8"));
    let text = common::stdout_of(&["14", "--count", "--sample", "50", "--seed", "1"]);
    assert!(
        text.starts_with("N = 14: 50 row sets drawn with --seed 1, joined by join"),
        "{text}"
    );
    assert!(text.contains("\nsolutions: ") && text.contains("\ncore-hours: "));
}

/// `--sample K --check` counts each drawn row set of the join twice, by
/// the join on its split unfolded and by a plain search, and says whether
/// all agree: on N = 14 (no band) and N = 25 (a band of three queens,
/// the seed drawing a row set small enough to search in a second or two).
#[test]
fn a_checked_sample_counts_each_row_set_twice() {
    refused(&["16", "--count", "--check"], "--check goes with --sample");
    refused(
        &[
            "16",
            "--count",
            "--sample",
            "2",
            "--check",
            "--kernel",
            "symmetric",
        ],
        "--sample projects a join count",
    );
    for (n, draws, seed) in [("14", "4", "1"), ("25", "1", "7")] {
        let text = common::stdout_of(&[n, "--count", "--sample", draws, "--check", "--seed", seed]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].starts_with(&format!(
                "N = {n}: {draws} row sets drawn with --seed {seed}, each counted by join"
            )),
            "{text}"
        );
        let draws: usize = draws.parse().unwrap();
        assert_eq!(lines.len(), draws + 2, "{text}");
        for line in &lines[1..=draws] {
            assert!(
                line.starts_with("band [") && line.ends_with(": agree"),
                "{text}"
            );
            // The two counts, printed, are the same number.
            let join = line
                .split("join ")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap();
            let search = line
                .split("search ")
                .nth(1)
                .unwrap()
                .split(':')
                .next()
                .unwrap();
            assert_eq!(join, search, "{line}");
        }
        assert!(
            lines[draws + 1].starts_with(&format!("all {draws} agree: ")),
            "{text}"
        );
    }
    // N = 25's band: three queens, in columns 11 to 13.
    let text = common::stdout_of(&["25", "--count", "--sample", "1", "--check", "--seed", "7"]);
    assert!(
        text.contains(", 11) (") && text.contains(", 13)]"),
        "{text}"
    );
}

#[test]
fn formats_apply_where_they_mean_something() {
    for format in ["board", "columns", "hex"] {
        refused(
            &["8", "--count", "--format", format],
            "with --count only --format json applies",
        );
    }
    honoured(
        &["8", "--count", "--format", "json"],
        &format!(
            "{{\"n\":8,\"kernel\":\"{}\",\"unique\":false,\"count\":92,\"count_text\":\"92\"}}\n",
            queens_simd::dispatch::resolve_for(
                queens_simd::Kernel::Auto,
                8,
                queens_simd::kernel::Task::Count
            )
        ),
    );
    refused(
        &["8", "--count", "--shard", "0/2", "--format", "json"],
        "--shard prints a JSON record",
    );
    refused(&["9", "--format", "hex"], "up to 8x8");
}

#[test]
fn plans_refuse_what_they_cannot_do() {
    for flag in ["--threads", "--shard", "--checkpoint"] {
        let value = given(flag)[1];
        refused(
            &["8", "--count", "--unique", flag, value],
            "fundamental solutions (--unique) are counted on one thread",
        );
    }
    refused(
        &["8", "--count", "--shard", "0/2", "--time"],
        "cannot be combined with --shard",
    );
    refused(
        &["8", "--count", "--checkpoint", "c.json", "--time"],
        "cannot be combined with --checkpoint",
    );
    for kernel in ["portable", "sse41", "heap"] {
        refused(
            &["8", "--count", "--shard", "0/2", "--kernel", kernel],
            "solves whole boards only",
        );
    }
    refused(
        &["16", "--count", "--threads", "2", "--kernel", "portable"],
        "solves whole boards only",
    );
    // A memory limit for a count that allocates nothing: no plan, no join.
    for kernel in ["portable", "sse41"] {
        refused(
            &["16", "--count", "--max-memory", "1G", "--kernel", kernel],
            "--max-memory limits counts through a plan or with a join kernel",
        );
    }
    refused(
        &["8", "--count", "--max-memory", "1G"],
        "--max-memory limits counts through a plan or with a join kernel",
    );
    refused(
        &["16", "--count", "--unique", "--max-memory", "1G"],
        "--max-memory limits counts of all solutions",
    );
}

#[test]
fn an_explicit_join_kernel_splits_like_a_symmetric_one() {
    for kernel in queens_simd::plan::Method::Join.kernels().rev() {
        if !kernel.is_available() {
            common::skip_unavailable(kernel);
            continue;
        }
        let kernel = kernel.name();
        for n in ["0", "3", "8", "11", "13"] {
            let expected = format!("{}\n", common::A000170[n.parse::<usize>().unwrap()]);
            for threads in ["1", "2"] {
                honoured(
                    &[n, "--count", "--threads", threads, "--kernel", kernel],
                    &expected,
                );
            }
            honoured(
                &[n, "--count", "--kernel", kernel, "--max-memory", "1G"],
                &expected,
            );
        }
        let record = common::stdout_of(&[
            "8",
            "--count",
            "--threads",
            "2",
            "--shard",
            "0/1",
            "--kernel",
            kernel,
        ]);
        assert!(record.contains("\"count\": \"92\""), "{record}");
        assert!(record.contains("\"method\": \"join\""), "{record}");
        refused(
            &[
                "8", "--count", "--shard", "0/2", "--time", "--kernel", kernel,
            ],
            "cannot be combined with --shard",
        );
    }
}

#[test]
fn an_explicit_symmetric_kernel_behaves_like_auto() {
    // Below N = 12 a count runs on one thread whatever --threads says,
    // with auto or with a symmetric kernel named.
    for kernel in ["auto", "symmetric", "symmetric-bmi"] {
        let kernel_runs = queens_simd::Kernel::ALL
            .iter()
            .chain(&[queens_simd::Kernel::Auto])
            .any(|k| k.name() == kernel && k.is_available());
        if !kernel_runs {
            eprintln!("SKIPPED: kernel {kernel} does not run here");
            continue;
        }
        for n in ["0", "8", "11", "13"] {
            let expected = format!("{}\n", common::A000170[n.parse::<usize>().unwrap()]);
            honoured(
                &[n, "--count", "--threads", "2", "--kernel", kernel],
                &expected,
            );
            honoured(
                &[n, "--count", "--threads", "1", "--kernel", kernel],
                &expected,
            );
        }
        let record = common::stdout_of(&[
            "8",
            "--count",
            "--threads",
            "2",
            "--shard",
            "0/1",
            "--kernel",
            kernel,
        ]);
        assert!(record.contains("\"count\": \"92\""), "{record}");
    }
    // A whole-board kernel on one thread is fine too; on two it is
    // refused at every N, where it was once ignored below N = 12.
    for n in ["8", "13"] {
        refused(
            &[n, "--count", "--threads", "2", "--kernel", "portable"],
            "kernel 'portable' solves whole boards only",
        );
    }
    honoured(
        &["13", "--count", "--threads", "1", "--kernel", "portable"],
        "73712\n",
    );
}

#[test]
fn help_and_version_exit_0() {
    queens()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("--checkpoint-interval"));
    queens()
        .args(["merge", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--recount"));
    queens()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("queens-simd "));
}
