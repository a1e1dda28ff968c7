//! The `queens-simd` command-line contract: every flag, every format, every
//! bad input.

mod common;

use common::{queens, stdout_of};
use predicates::prelude::*;
use queens_simd::Kernel;
use queens_simd::kernel::Task;

#[test]
fn count_prints_the_number_alone() {
    queens()
        .args(["8", "--count"])
        .assert()
        .success()
        .stdout("92\n")
        .stderr("");
    queens().args(["--count"]).assert().success().stdout("92\n");
    queens()
        .args(["0", "--count"])
        .assert()
        .success()
        .stdout("1\n");
    queens()
        .args(["3", "--count"])
        .assert()
        .success()
        .stdout("0\n");
    queens()
        .args(["10", "--count", "--kernel", "portable"])
        .assert()
        .success()
        .stdout("724\n");
}

#[test]
fn unique_counts_fundamental_solutions() {
    queens()
        .args(["8", "--count", "--unique"])
        .assert()
        .success()
        .stdout("12\n");
    queens()
        .args(["6", "--count", "--unique"])
        .assert()
        .success()
        .stdout("1\n");
}

#[test]
fn default_lists_boards_then_a_total() {
    let text = stdout_of(&[]);
    let boards: Vec<&str> = text.trim_end().split("\n\n").collect();
    assert_eq!(boards.len(), 93, "92 boards and the total");
    assert_eq!(*boards.last().unwrap(), "92 solutions");
    assert_eq!(
        boards[0],
        "@ . . . . . . .\n. . . . @ . . .\n. . . . . . . @\n. . . . . @ . .\n\
         . . @ . . . . .\n. . . . . . @ .\n. @ . . . . . .\n. . . @ . . . ."
    );
    for board in &boards[..92] {
        assert_eq!(board.lines().count(), 8);
        assert_eq!(board.matches('@').count(), 8);
    }
}

#[test]
fn unique_boards_end_with_their_total() {
    let text = stdout_of(&["8", "--unique"]);
    assert!(text.ends_with("\n12 fundamental solutions\n"), "{text}");
    assert_eq!(text.matches('@').count(), 12 * 8);
}

#[test]
fn columns_format_is_one_solution_per_line() {
    let text = stdout_of(&["6", "--format", "columns"]);
    assert_eq!(text, "1 3 5 0 2 4\n2 5 1 4 0 3\n3 0 4 1 5 2\n4 2 0 5 3 1\n");
    let text = stdout_of(&["8", "--format", "columns", "--unique"]);
    assert_eq!(text.lines().count(), 12);
    assert!(text.lines().all(|l| l.split(' ').count() == 8));
}

#[test]
fn hex_format_is_the_seed_000_bitboard() {
    let text = stdout_of(&["8", "--format", "hex"]);
    assert_eq!(text.lines().count(), 92);
    assert!(text.lines().any(|l| l == "802400420801001"), "{text}");
    assert_eq!(
        u64::from_str_radix("802400420801001", 16).unwrap(),
        577094088726155265
    );
}

#[test]
fn json_format_parses() {
    let text = stdout_of(&["8", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["n"], 8);
    assert_eq!(v["count"], 92);
    assert_eq!(v["unique"], false);
    let solutions = v["solutions"].as_array().unwrap();
    assert_eq!(solutions.len(), 92);
    assert_eq!(solutions[0], serde_json::json!([0, 4, 7, 5, 2, 6, 1, 3]));

    let text = stdout_of(&["8", "--format", "json", "--unique"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["solutions"].as_array().unwrap().len(), 12);

    let text = stdout_of(&["8", "--format", "json", "--count"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["count"], 92);

    let text = stdout_of(&["0", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["solutions"], serde_json::json!([[]]));
}

#[test]
fn every_kernel_can_be_chosen_by_name() {
    for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
        let n = 6.min(*kernel.sizes().end());
        let expected = common::A000170[n];
        let assert = queens()
            .args([&n.to_string(), "--count", "--kernel", kernel.name()])
            .assert();
        if kernel.is_available() {
            assert.success().stdout(format!("{expected}\n"));
        } else {
            assert
                .code(2)
                .stderr(predicate::str::contains("not available"));
        }
    }
}

#[test]
fn kernels_lists_every_kernel_and_the_auto_choice() {
    let text = stdout_of(&["--kernels"]);
    for &kernel in Kernel::ALL {
        assert!(
            text.lines().any(|l| l.starts_with(kernel.name())),
            "{kernel}: {text}"
        );
    }
    let auto = Kernel::Auto.resolve(8);
    assert!(text.contains(&format!("auto picks: {auto}")), "{text}");
    // The other tasks' choices start at N = 0 too.
    for (label, task) in [
        ("auto enumerates with", Task::Enumerate),
        ("auto finds fundamental solutions with", Task::Fundamental),
    ] {
        let auto = Kernel::Auto.resolve_for(0, task);
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{label}: {auto} for N 0-"))),
            "{text}"
        );
    }
    let asm_line = match Kernel::Asm.unavailable_because() {
        None => format!("asm picks: {}", Kernel::Asm.resolve(8)),
        Some(why) => format!("asm picks: none ({why})"),
    };
    assert!(text.lines().any(|l| l == asm_line), "{text}");
    let splits = queens_simd::plan::Options::default()
        .counting_kernel()
        .unwrap();
    assert!(
        text.lines().any(|l| l.starts_with(&format!(
            "counts on threads, in shards and with checkpoints: {splits} "
        ))),
        "{text}"
    );
}

/// The asm kernel streams its solutions through its resumable interface:
/// the same set as the portable kernel's, one per line.
#[test]
fn asm_streams_every_solution_as_columns() {
    if !Kernel::Asm.is_available() {
        assert!(!common::require_all(), "the asm kernel does not run here");
        queens()
            .args(["8", "--kernel", "asm"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("kernel 'asm' is not available"));
        return;
    }
    let n = if cfg!(debug_assertions) { 10 } else { 12 };
    let sorted_lines = |kernel: &str| {
        let text = stdout_of(&[&n.to_string(), "--kernel", kernel, "--format", "columns"]);
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort_unstable();
        lines
    };
    let asm = sorted_lines("asm");
    assert_eq!(asm.len() as u128, common::A000170[n]);
    assert_eq!(asm, sorted_lines("portable"));
}

#[test]
fn verify_passes_and_prints_a_table() {
    let text = stdout_of(&["--verify", "--max-n", "8"]);
    assert!(text.contains("all kernels agree for N = 0 to 8"), "{text}");
    let row8 = text
        .lines()
        .find(|l| l.trim_start().starts_with("8 "))
        .unwrap();
    assert!(row8.contains(" 92 ") && row8.contains(" 12 "), "{row8}");
    assert!(!text.contains("MISMATCH"));
}

#[test]
fn time_reports_microseconds_on_stderr() {
    queens()
        .args(["8", "--count", "--time"])
        .assert()
        .success()
        .stdout("92\n")
        .stderr(
            // It says how it measured: samples, batch size, warm-up.
            predicate::str::is_match(format!(
                r"^time: [0-9.]+ µs per solve, median of \d+ samples of \d+ solves after \d+ warm-up solves \(fastest [0-9.]+ µs\); kernel {}, N = 8, count\n$",
                queens_simd::Kernel::Auto.resolve(8)
            ))
            .unwrap(),
        );
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["-3"], "N must be from 0 to 32"),
        (&["abc"], "N must be a whole number"),
        (&["33"], "N must be from 0 to 32"),
        (&["8.5"], "N must be a whole number"),
        (&["99999999999999999999"], "N must be from 0 to 32"),
        (&["--kernel", "nope"], "unknown kernel 'nope'"),
        (&["9", "--format", "hex"], "up to 8x8"),
        (&["--format", "xml"], "invalid value 'xml'"),
        (&["--bogus"], "unexpected argument '--bogus'"),
        (
            &["--verify", "--max-n", "99"],
            "--max-n must be from 0 to 15",
        ),
        (&["--max-n", "5"], "--verify"),
        (&["8", "9"], "unexpected argument '9'"),
    ];
    for (args, message) in cases {
        let err = common::refusal(*args);
        assert!(
            err.contains(message),
            "{args:?}: expected {message:?} in {err}"
        );
    }
}

#[test]
fn n_above_a_kernels_range_is_an_error() {
    for &kernel in Kernel::ALL
        .iter()
        .filter(|k| *k.sizes().end() < queens_simd::MAX_N)
    {
        let n = (kernel.sizes().end() + 1).to_string();
        queens()
            .args([n.as_str(), "--count", "--kernel", kernel.name()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "kernel '{kernel}' supports N from"
            )));
    }
}

#[test]
fn a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::{Command as Std, Stdio};
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("queens-simd"))
        .args(["12", "--format", "columns"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line's worth, then hang up, as `| head -1` does.
    let mut first = [0u8; 24];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status:?}: {err}");
    assert!(!err.contains("panick"), "{err}");
}

/// The join kernels count on threads without a plan; they list nothing,
/// and they do not split into shards or checkpoints: each refusal is one
/// line and exit status 2.
#[test]
fn the_join_kernels_count_on_threads_and_refuse_the_rest() {
    for kernel in ["join", "join-avx2"] {
        if !Kernel::from_name(kernel).unwrap().is_available() {
            assert!(!common::require_all(), "{kernel} does not run here");
            continue;
        }
        for threads in ["1", "2", "3"] {
            let args = ["14", "--count", "--kernel", kernel, "--threads", threads];
            assert_eq!(stdout_of(&args), "365596\n", "{kernel}, {threads} threads");
        }
        for refused in [
            vec!["8", "--kernel", kernel],
            vec!["8", "--unique", "--kernel", kernel],
            vec!["14", "--count", "--kernel", kernel, "--shard", "0/2"],
            vec![
                "14",
                "--count",
                "--kernel",
                kernel,
                "--checkpoint",
                "x.json",
            ],
        ] {
            let out = queens()
                .args(&refused)
                .assert()
                .code(2)
                .get_output()
                .clone();
            assert!(out.stdout.is_empty(), "{refused:?}");
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(stderr.lines().count(), 1, "{refused:?}: {stderr}");
            assert!(stderr.contains(kernel), "{refused:?}: {stderr}");
        }
    }
    // `auto` counts with one from N = 14, and still splits shards with a
    // symmetric kernel.
    let json = stdout_of(&["14", "--count", "--format", "json"]);
    assert!(json.contains("\"kernel\":\"join"), "{json}");
    let shard = stdout_of(&["14", "--count", "--shard", "0/1", "--quiet"]);
    assert!(shard.contains("\"kernel\": \"symmetric"), "{shard}");
}
