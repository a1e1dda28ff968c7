//! The `queens-simd` command-line contract: every flag, every format, every
//! bad input.

use crate::common;

use common::{queens, stdout_of};
use predicates::prelude::*;
use queens_simd::Kernel;
use queens_simd::kernel::Method;
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
    // The list starts at N = 0 (`portable` on every CPU: the blocks kernels
    // lead only from N = 5, the lane kernels from N = 9).
    let auto =
        queens_simd::dispatch::resolve_for(Kernel::Auto, queens_simd::kernel::Task::Count, 0);
    assert!(
        text.contains(&format!("auto picks: {auto} for N 0-")),
        "{text}"
    );
    // The other tasks' choices start at N = 0 too.
    for (label, task) in [
        ("auto enumerates with", Task::Enumerate),
        ("auto finds fundamental solutions with", Task::Fundamental),
    ] {
        let auto = queens_simd::dispatch::resolve_for(Kernel::Auto, task, 0);
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{label}: {auto} for N 0-"))),
            "{text}"
        );
    }
    let asm_line = match Kernel::Asm.unavailable_because() {
        None => format!(
            "asm picks: {}",
            queens_simd::dispatch::resolve_for(Kernel::Asm, queens_simd::kernel::Task::Count, 8)
        ),
        Some(why) => format!("asm picks: none ({why})"),
    };
    assert!(text.lines().any(|l| l == asm_line), "{text}");
    // Which kernels split: exactly those that count a plan and run here.
    let splitting: Vec<&str> = Kernel::ALL
        .iter()
        .filter(|k| Method::of(**k).is_some() && k.is_available())
        .map(|k| k.name())
        .collect();
    assert!(
        text.lines().any(|l| l.starts_with(&format!(
            "counts on threads, in shards and with checkpoints: {} (",
            splitting.join(", ")
        ))),
        "{text}"
    );
    // What `auto` shards with: the plan of the kernel it counts with, a
    // join plan where it counts with a join kernel.
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("auto shards with: "))
        .unwrap_or_else(|| panic!("{text}"));
    let join_from = auto_join_from();
    let symmetric = queens_simd::dispatch::Options::new()
        .counting_kernel(Method::Symmetric)
        .unwrap();
    let join = queens_simd::dispatch::Options::new()
        .counting_kernel(Method::Join)
        .unwrap();
    assert_eq!(
        line,
        format!(
            "{symmetric} for N 0-{} (symmetric plan), {join} for N {join_from}-32 (join plan)",
            join_from - 1
        )
    );
    assert!(!text.contains("no shards or checkpoints"), "{text}");
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
                queens_simd::dispatch::resolve_for(queens_simd::Kernel::Auto, queens_simd::kernel::Task::Count, 8)
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

/// The join kernels this CPU runs, by name.
fn join_kernels() -> Vec<&'static str> {
    let mut runs = Vec::new();
    for kernel in Method::Join.kernels().rev() {
        if kernel.is_available() {
            runs.push(kernel.name());
        } else {
            common::skip_unavailable(kernel);
        }
    }
    runs
}

/// The join kernels count through their plan: on threads, in shards that
/// merge, from checkpoints; they list nothing (one line, exit status 2).
#[test]
fn the_join_kernels_count_through_their_plan_and_list_nothing() {
    let dir = common::scratch("cli-join");
    let sizes: &[usize] = if cfg!(debug_assertions) {
        &[12]
    } else {
        &[14, 15, 16]
    };
    for kernel in join_kernels() {
        for threads in ["1", "2", "3"] {
            let args = ["14", "--count", "--kernel", kernel, "--threads", threads];
            assert_eq!(stdout_of(&args), "365596\n", "{kernel}, {threads} threads");
        }
        for &n in sizes {
            let expected = format!("{}\n", common::A000170[n]);
            // Three shards, each a record of the join plan, merged.
            let files: Vec<std::path::PathBuf> = (0..3)
                .map(|i| {
                    let shard = format!("{i}/3");
                    let json = stdout_of(&[
                        &n.to_string(),
                        "--count",
                        "--kernel",
                        kernel,
                        "--shard",
                        &shard,
                    ]);
                    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
                    assert_eq!(record["version"], 4, "{json}");
                    assert_eq!(record["method"], "join", "{json}");
                    assert_eq!(record["kernel"], kernel, "{json}");
                    assert_eq!(record["shard"], shard, "{json}");
                    let path = dir.join(format!("{kernel}-{n}-{i}.json"));
                    std::fs::write(&path, json).unwrap();
                    path
                })
                .collect();
            common::merge(&files).success().stdout(expected.clone());
            queens()
                .arg("merge")
                .args(&files)
                .args(["--recount", "4", "--threads", "2"])
                .assert()
                .success()
                .stdout(expected.clone())
                .stderr(predicate::str::contains(
                    "the 4 recounted subproblems agree",
                ));
            queens()
                .arg("merge")
                .args(&files)
                .args(["--recount", "1"])
                .assert()
                .success()
                .stderr(predicate::str::contains(
                    "the 1 recounted subproblem agrees with the records",
                ));
            // A checkpoint: written, then resumed from when finished.
            let checkpoint = dir.join(format!("{kernel}-{n}-ckpt.json"));
            let _ = std::fs::remove_file(&checkpoint);
            let args = [
                n.to_string(),
                "--count".into(),
                "--kernel".into(),
                kernel.into(),
                "--checkpoint".into(),
                checkpoint.display().to_string(),
            ];
            queens()
                .args(&args)
                .assert()
                .success()
                .stdout(expected.clone());
            let text = std::fs::read_to_string(&checkpoint).unwrap();
            assert!(text.contains("\"method\": \"join\""), "{text}");
            queens()
                .args(&args)
                .assert()
                .success()
                .stdout(expected.clone())
                .stderr(predicate::str::contains("resuming from checkpoint"));
        }
        for refused in [
            vec!["8", "--kernel", kernel],
            vec!["8", "--unique", "--kernel", kernel],
            vec!["14", "--count", "--unique", "--kernel", kernel],
        ] {
            let stderr = common::refusal(&refused);
            assert!(stderr.contains(kernel), "{refused:?}: {stderr}");
        }
    }
}

/// A checkpoint that holds part of a join plan's pieces (counted here by
/// the library, in another order than the command line's) is resumed: only
/// the rest is counted, and the total is right.
#[test]
fn a_partial_join_checkpoint_is_resumed() {
    use queens_simd::dispatch::Options;
    use queens_simd::plan::{Plan, Shard};
    use queens_simd_cli::records::{Checkpoint, PlanId, Tally};
    let dir = common::scratch("cli-join-partial");
    let n = if cfg!(debug_assertions) { 12 } else { 16 };
    for kernel in join_kernels() {
        let plan = Plan::with_method(Method::Join, n).unwrap();
        let mut tally = Tally::empty(plan.len());
        // Every third piece, by number.
        let some: Vec<usize> = (0..plan.len()).step_by(3).collect();
        let options = Options::new().with_threads(2).with_kernel(Kernel::Join);
        let count = options
            .count(&plan, &some, |index, count| {
                assert!(tally.insert(index, count));
            })
            .unwrap();
        let checkpoint = Checkpoint {
            tally,
            count,
            in_flight: Default::default(),
            seconds: 1.0,
            ..Checkpoint::start(PlanId::of(&plan), Shard::WHOLE, 0.5)
        };
        let path = dir.join(format!("{kernel}.json"));
        std::fs::write(&path, checkpoint.to_bytes()).unwrap();
        queens()
            .args([
                &n.to_string(),
                "--count",
                "--kernel",
                kernel,
                "--checkpoint",
            ])
            .arg(&path)
            .assert()
            .success()
            .stdout(format!("{}\n", common::A000170[n]))
            .stderr(format!(
                "queens-simd: resuming from checkpoint {}: {} of {} subproblems done\n",
                path.display(),
                some.len(),
                plan.len()
            ));
        let done =
            Checkpoint::parse(&std::fs::read(&path).unwrap(), &mut Default::default()).unwrap();
        assert_eq!(done.tally.len(), plan.len());
        assert_eq!(done.count, common::A000170[n]);
        // The symmetric plan of N is another plan: refused, with a hint.
        let err = common::refusal([
            n.to_string().as_str(),
            "--count",
            "--kernel",
            "symmetric",
            "--checkpoint",
            path.to_str().unwrap(),
        ]);
        assert!(
            err.contains("join plan") && err.contains("symmetric plan"),
            "{err}"
        );
        assert!(err.contains("resume it with --kernel join"), "{err}");
    }
}

/// A checkpoint that holds parts of join pieces (the first block of each
/// of the first pieces, counted here by the library) is resumed inside
/// them: the message says so, the count is right, and those row sets are
/// not counted again (a checkpoint whose parts say one solution more than
/// they have makes the total one more per piece: nothing recounted them).
#[test]
fn a_join_checkpoint_resumes_inside_its_pieces() {
    use queens_simd::dispatch::Options;
    use queens_simd::plan::{InFlight, Plan, Progress, Shard};
    use queens_simd_cli::records::{Checkpoint, PlanId};
    let dir = common::scratch("cli-join-in-flight");
    let n = if cfg!(debug_assertions) { 12 } else { 16 };
    let plan = Plan::with_method(Method::Join, n).unwrap();
    let first: Vec<usize> = plan.all().iter().copied().take(3).collect();
    let mut begun = InFlight::new();
    // Each piece counted by a count of its own: its first block, before
    // any is timed, is one row set.
    for piece in first {
        Options::new()
            .with_threads(1)
            .count_progress(&plan, &[piece], &InFlight::new(), |progress| {
                if let Progress::Part {
                    index,
                    rows,
                    of,
                    count,
                } = progress
                    && rows.start == 0
                    && rows.end < of
                {
                    begun.add(index, rows, of, count).unwrap();
                }
            })
            .unwrap();
    }
    assert_eq!(begun.len(), 3, "each of the first pieces cut in blocks");
    let (done, of): (u32, u32) = begun.iter().fold((0, 0), |(d, o), (_, parts)| {
        (d + parts.len(), o + parts.of())
    });
    for bias in [0, 1] {
        let mut in_flight = InFlight::new();
        for (index, parts) in begun.iter() {
            let rows = parts.ranges()[0].clone();
            in_flight
                .add(index, rows, parts.of(), parts.count() + bias)
                .unwrap();
        }
        let checkpoint = Checkpoint {
            in_flight,
            ..Checkpoint::start(PlanId::of(&plan), Shard::WHOLE, 0.5)
        };
        let path = dir.join(format!("bias-{bias}.json"));
        std::fs::write(&path, checkpoint.to_bytes()).unwrap();
        queens()
            .args([&n.to_string(), "--count", "--threads", "2", "--checkpoint"])
            .arg(&path)
            .assert()
            .success()
            .stdout(format!("{}\n", common::A000170[n] + 3 * bias))
            .stderr(format!(
                "queens-simd: resuming from checkpoint {}: 0 of {} subproblems done, and 3 begun ({done} of {of} row sets)\n",
                path.display(),
                plan.len()
            ));
        let finished =
            Checkpoint::parse(&std::fs::read(&path).unwrap(), &mut Default::default()).unwrap();
        assert!(finished.in_flight.is_empty());
        assert_eq!(finished.tally.len(), plan.len());
    }
}

/// The smallest N that `auto` counts with a join kernel, as the library
/// says (the portable `join` runs everywhere, so every CPU agrees).
fn auto_join_from() -> usize {
    (0..=queens_simd::MAX_N)
        .find(|&n| queens_simd::dispatch::plan_method(Kernel::Auto, n) == Ok(Method::Join))
        .expect("auto counts the largest boards with a join kernel")
}

/// `auto` shards with the join plan where it counts with a join kernel,
/// and with the symmetric plan below.
#[test]
fn auto_shards_with_the_plan_of_the_kernel_it_counts_with() {
    let join_from = auto_join_from();
    let json = stdout_of(&["14", "--count", "--format", "json"]);
    assert!(json.contains("\"kernel\":\"join"), "{json}");
    for (n, method) in [(join_from, "join"), (join_from - 1, "symmetric")] {
        let shard = stdout_of(&[&n.to_string(), "--count", "--shard", "0/1", "--quiet"]);
        let record: serde_json::Value = serde_json::from_str(&shard).unwrap();
        assert_eq!(record["method"], method, "{shard}");
        assert_eq!(record["count"], common::A000170[n].to_string(), "{shard}");
        let kernel = record["kernel"].as_str().unwrap();
        assert_eq!(
            Method::of(kernel.parse().unwrap()).map(|m| m.to_string()),
            Some(method.to_owned()),
            "{shard}"
        );
    }
}

#[test]
fn merge_refuses_records_of_two_methods() {
    let dir = common::scratch("cli-two-methods");
    let record = |kernel: &str, shard: &str| {
        let path = dir.join(format!("{kernel}-{}.json", shard.replace('/', "of")));
        let json = stdout_of(&["13", "--count", "--kernel", kernel, "--shard", shard]);
        std::fs::write(&path, json).unwrap();
        path
    };
    let symmetric = record("symmetric", "0/2");
    let join = record("join", "1/2");
    for files in [[&symmetric, &join], [&join, &symmetric]] {
        let err = common::refusal(
            std::iter::once("merge".as_ref()).chain(files.iter().map(|f| f.as_os_str())),
        );
        assert!(
            err.contains("symmetric plan") && err.contains("join plan"),
            "{err}"
        );
        assert!(err.contains(&files[0].display().to_string()), "{err}");
        assert!(err.contains(&files[1].display().to_string()), "{err}");
        assert!(err.contains("do not merge"), "{err}");
    }
    // Each with its own other half merges.
    let symmetric_rest = record("symmetric", "1/2");
    common::merge(&[symmetric, symmetric_rest])
        .success()
        .stdout("73712\n");
    let join_rest = record("join", "0/2");
    common::merge(&[join, join_rest])
        .success()
        .stdout("73712\n");
}

/// Records and checkpoints of versions 2 and 3 (as those versions wrote
/// them: they say nothing of who counted, or when) are refused with one
/// line by `merge`, by `status` and by a count that would resume from one,
/// which leaves the file as it was.
#[test]
fn older_versions_are_refused_in_one_line() {
    let corpus = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .join("fuzz/corpus/records");
    let dir = common::scratch("cli-old-versions");
    for version in [2, 3] {
        let record = corpus.join(format!("v{version}-shard-12-0of1.json"));
        let text = std::fs::read_to_string(&record).unwrap();
        assert!(text.contains(&format!("\"version\": {version},")), "{text}");
        let why = "which does not say who counted or when; this version reads only version 4";
        common::merge(std::slice::from_ref(&record))
            .code(2)
            .stdout("")
            .stderr(format!(
                "queens-simd: error: {} is a version {version} queens-simd shard record, {why}: count it again\n",
                record.display()
            ));
        let folder = dir.join(format!("v{version}"));
        std::fs::create_dir_all(&folder).unwrap();
        let checkpoint = folder.join("ckpt-12.json");
        let before = std::fs::read(corpus.join(format!("v{version}-ckpt-12.json"))).unwrap();
        std::fs::write(&checkpoint, &before).unwrap();
        let said = format!(
            "{} is a version {version} queens-simd checkpoint, {why}: remove it and count again",
            checkpoint.display()
        );
        let err = common::refusal(["status".as_ref(), folder.as_os_str()]);
        assert_eq!(
            err,
            format!(
                "queens-simd: error: {} holds no valid record or checkpoint: 1 file refused, the first: {said}\n",
                folder.display()
            )
        );
        let err = common::refusal([
            "12",
            "--count",
            "--kernel",
            "symmetric",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ]);
        assert_eq!(err, format!("queens-simd: error: checkpoint {said}\n"));
        assert_eq!(std::fs::read(&checkpoint).unwrap(), before);
    }
}

#[test]
fn max_memory_limits_join_counts() {
    // N = 16 needs about 70 MiB: every spelling of a limit must read as
    // the size it says, or be refused.
    let n = if cfg!(debug_assertions) { 14 } else { 16 };
    let expected = format!("{}\n", common::A000170[n]);
    let n = n.to_string();
    // `auto` counts N = 14 and up with a join kernel.
    let err = common::refusal([n.as_str(), "--count", "--max-memory", "1M"]);
    assert!(
        predicate::str::is_match(
            r"^queens-simd: error: counting N = \d+ with join[a-z0-9-]* on \d+ threads? needs about [0-9.]+ MiB, more than the --max-memory limit of 1\.0 MiB; (a shard needs as much, so no shard count fits either|\d+ threads? fits? \(--threads \d+\))\n$"
        )
        .unwrap()
        .eval(&err),
        "{err}"
    );
    for limit in ["1G", "1g", "1GiB", "1073741824", "0.5gib"] {
        assert_eq!(
            stdout_of(&[&n, "--count", "--max-memory", limit]),
            expected,
            "{limit}"
        );
    }
    // Every way to count with a join kernel is checked: a shard, a
    // checkpoint (refused before it is written), a named kernel on one
    // thread below N = 12.
    let dir = common::scratch("cli-max-memory");
    let checkpoint = dir.join("count.json");
    for args in [
        vec!["14", "--count", "--shard", "0/2", "--max-memory", "1K"],
        vec![
            "14",
            "--count",
            "--checkpoint",
            checkpoint.to_str().unwrap(),
            "--max-memory",
            "1K",
        ],
        vec!["10", "--count", "--kernel", "join", "--max-memory", "1K"],
        vec![
            "14",
            "--count",
            "--kernel",
            "join",
            "--threads",
            "3",
            "--max-memory",
            "1K",
        ],
    ] {
        let err = common::refusal(&args);
        assert!(
            err.contains("needs about") && err.contains("1.0 KiB"),
            "{args:?}: {err}"
        );
    }
    assert!(!checkpoint.exists());
    // Malformed sizes, and a limit no join kernel would honour.
    for (args, why) in [
        (
            vec!["14", "--count", "--max-memory", "lots"],
            "--max-memory must be",
        ),
        (
            vec!["14", "--count", "--max-memory", "1GB"],
            "--max-memory must be",
        ),
        (
            vec!["14", "--count", "--max-memory", "-1G"],
            "--max-memory must be",
        ),
        (
            vec!["14", "--count", "--max-memory", "0"],
            "more than 0 bytes",
        ),
        (
            vec!["14", "--count", "--max-memory", "99999999T"],
            "more than 2^64 bytes",
        ),
        (vec!["14", "--count", "--max-memory"], "a value is required"),
        (
            vec!["14", "--max-memory", "1G"],
            "--max-memory goes with --count",
        ),
        (
            vec!["14", "--count", "--kernel", "sse41", "--max-memory", "1G"],
            "counted whole with sse41 here",
        ),
        (
            vec!["8", "--count", "--max-memory", "1G"],
            "--max-memory limits counts through a plan or with a join kernel",
        ),
        (
            vec!["14", "--count", "--unique", "--max-memory", "1G"],
            "--unique",
        ),
        (
            vec!["merge", "a.json", "--max-memory", "1G"],
            "--max-memory goes with --recount",
        ),
    ] {
        let err = common::refusal(&args);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

/// A sample's report has no `inf` or `NaN` (one draw, which has no spread;
/// a board with no solutions, whose error is 0 / 0; no pair found), and
/// one row set is "1 row set".
#[test]
fn a_sample_report_reads_without_inf_or_nan() {
    let cases: [(&[&str], &str); 2] = [
        (
            &["14", "--count", "--sample", "1", "--seed", "3"],
            "N = 14: 1 row set drawn with --seed 3",
        ),
        (
            &["2", "--count", "--sample", "2", "--kernel", "join"],
            "solutions:   0.0000e0 ± 0.0%",
        ),
    ];
    for (args, says) in cases {
        let report = common::stdout_of(args);
        assert!(report.contains(says), "{args:?}: {report}");
        for word in ["inf", "NaN", "1 row sets", "1 timings"] {
            assert!(!report.contains(word), "{args:?} says {word}: {report}");
        }
    }
}

/// A negative number where a whole number is asked is refused as out of
/// range, naming the flag, not as "unexpected argument '-1'".
#[test]
fn negative_numbers_are_refused_as_out_of_range() {
    for (args, why) in [
        (
            &["14", "--count", "--sample", "2", "--seed", "-1"][..],
            "--seed must be from 0",
        ),
        (
            &["14", "--count", "--sample", "-1"][..],
            "--sample must be from 1",
        ),
        (&["--verify", "--max-n", "-1"][..], "--max-n must be from 0"),
        (
            &["merge", "a.json", "--recount", "-1"][..],
            "--recount must be from 1",
        ),
    ] {
        let line = common::refusal(args);
        assert!(line.contains(why), "{args:?}: {line}");
    }
}

/// `--sample` of a count that is no join count is refused for that
/// reason, before the memory check could give another (it once said that
/// N = 13 needed more memory than 1 MiB, and spoke of threads, shards and
/// checkpoints for `--kernel sse41`).
#[test]
fn a_sample_of_no_join_count_says_so_first() {
    for (args, why) in [
        (
            &["13", "--count", "--sample", "3", "--max-memory", "1M"][..],
            "--sample projects a join count, but N = 13 is counted here through the symmetric plan",
        ),
        (
            &["14", "--count", "--sample", "3", "--kernel", "sse41"][..],
            "--sample projects a join count, but kernel 'sse41' counts whole boards",
        ),
    ] {
        let line = common::refusal(args);
        assert!(line.contains(why), "{args:?}: {line}");
    }
}

/// Issue 47: clap's suggestions (a similar argument, value or subcommand)
/// and the kernels close to a mistyped name stay on the one line of the
/// error, exit status 2.
#[test]
fn suggestions_stay_on_the_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["8", "--thread", "2"],
            "unexpected argument '--thread' found (a similar argument exists: '--threads'; see --help)",
        ),
        (
            &["8", "--formt", "json"],
            "(a similar argument exists: '--format'; see --help)",
        ),
        (&["8", "--format", "jsn"], "a similar value exists: 'json'"),
        (
            &["merg", "a.json"],
            "'merg' is neither N nor a subcommand (a similar subcommand exists: 'merge'; see --help)",
        ),
        (
            &["--kernel", "avx3"],
            "unknown kernel 'avx3' (did you mean 'avx'? --kernels lists them all)",
        ),
        (
            &["8", "--kernel", "avx2"],
            "(did you mean 'lanes-avx2' or 'join-avx2'? --kernels lists them all)",
        ),
        (&["8", "--kernel", "symetric"], "(did you mean 'symmetric'?"),
    ];
    for (args, message) in cases {
        let err = common::refusal(*args);
        assert!(
            err.contains(message),
            "{args:?}: expected {message:?} in {err}"
        );
        // clap's tip for a value that starts with '--' does not apply.
        assert!(!err.contains("to pass"), "{args:?}: {err}");
    }
    // Nothing close: the whole list, as before.
    let err = common::refusal(["--kernel", "nope"]);
    for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
        assert!(err.contains(&format!(" {kernel}")), "{kernel}: {err}");
    }
    assert!(!err.contains("did you mean"), "{err}");
    // A real N and a real subcommand are not second-guessed.
    assert!(!common::refusal(["8", "--bogus"]).contains("subcommand"));
    assert!(!common::refusal(["merge", "--bogus", "a.json"]).contains("neither"));
}

/// `--kernels --format json`: one object with the text's facts.
#[test]
fn kernels_as_json_says_what_the_text_says() {
    let text = stdout_of(&["--kernels"]);
    let line = stdout_of(&["--kernels", "--format", "json"]);
    assert_eq!(line.lines().count(), 1, "{line}");
    let json: serde_json::Value = serde_json::from_str(&line).unwrap();
    let kernels = json["kernels"].as_array().unwrap();
    let names: Vec<&str> = kernels
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(names, all);
    for row in kernels {
        let name = row["name"].as_str().unwrap();
        let kernel: Kernel = name.parse().unwrap();
        // The text's columns: name, available, sizes.
        let text_row: Vec<&str> = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap()
            .split_whitespace()
            .collect();
        let available = row["available"].as_bool().unwrap();
        assert_eq!(text_row[1], if available { "yes" } else { "no" }, "{name}");
        assert_eq!(available, kernel.is_available(), "{name}");
        let sizes = format!("{}-{}", row["min_n"], row["max_n"]);
        assert_eq!(text_row[2], sizes, "{name}");
        assert_eq!(
            row["method"].as_str(),
            Method::of(kernel).map(|m| m.name()),
            "{name}"
        );
        assert_eq!(row["counts_only"], !kernel.enumerates(), "{name}");
        assert_eq!(
            row["unavailable_because"].as_str(),
            kernel.unavailable_because(),
            "{name}"
        );
    }
    // A kernel of plain Rust needs no CPU feature; the AVX2 join needs AVX2.
    let needs = |name: &str| -> Vec<String> {
        let row = kernels.iter().find(|k| k["name"] == name).unwrap();
        serde_json::from_value(row["cpu_features"].clone()).unwrap()
    };
    assert!(needs("portable").is_empty());
    assert_eq!(needs("join-avx2"), ["avx2"]);
    // What `auto` picks, rebuilt into the text's words, is the text's line.
    for (label, field) in [
        ("auto picks", "count"),
        ("auto enumerates with", "enumerate"),
        ("auto finds fundamental solutions with", "fundamental"),
    ] {
        let ranges: Vec<String> = json["auto"][field]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let (first, last) = (&r["first_n"], &r["last_n"]);
                let sizes = if first == last {
                    format!("N {first}")
                } else {
                    format!("N {first}-{last}")
                };
                format!("{} for {sizes}", r["kernel"].as_str().unwrap())
            })
            .collect();
        let line = format!("{label}: {}", ranges.join(", "));
        assert!(text.lines().any(|l| l == line), "{line}\n{text}");
    }
    let plan = json["auto"]["plan"].as_array().unwrap();
    assert_eq!(plan.first().unwrap()["first_n"], 0);
    assert_eq!(plan.last().unwrap()["last_n"], queens_simd::MAX_N);
    for range in plan {
        let n = range["first_n"].as_u64().unwrap() as usize;
        let method = queens_simd::dispatch::plan_method(Kernel::Auto, n).unwrap();
        assert_eq!(range["method"], method.name(), "{range}");
    }
    let splitting: Vec<String> = serde_json::from_value(json["splitting"].clone()).unwrap();
    assert!(
        text.contains(&format!(
            "counts on threads, in shards and with checkpoints: {} (",
            splitting.join(", ")
        )),
        "{text}"
    );
    match json["asm"].as_str() {
        Some(asm) => assert!(text.contains(&format!("asm picks: {asm}\n")), "{text}"),
        None => assert!(text.contains("asm picks: none ("), "{text}"),
    }
}

/// `--verify --format json`: one object, each N's checks as the text's
/// cells, the counts of A000170, and the verdict.
#[test]
fn verify_as_json_says_what_the_text_says() {
    let max_n = 10;
    let args = ["--verify", "--max-n", "10"];
    let text = stdout_of(&args);
    let line = stdout_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(line.lines().count(), 1, "{line}");
    let json: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(json["max_n"], max_n);
    assert_eq!(json["agree"], true);
    assert_eq!(json["mismatches"], serde_json::json!([]));
    assert!(json["stopped"].is_null());
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), max_n + 1);
    let header: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
    let word = |result: &str| match result {
        "ok" => "ok",
        "count" => "count",
        "mismatch" => "MISMATCH",
        "unsupported" => "-",
        "unavailable" => "n/a",
        other => panic!("{other}"),
    };
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(row["n"], n);
        assert_eq!(row["solutions"].as_u64(), Some(common::A000170[n] as u64));
        assert_eq!(row["agree"], true);
        // The same cells as the text's row, subject by subject.
        let text_row: Vec<&str> = text
            .lines()
            .nth(n + 1)
            .unwrap()
            .split_whitespace()
            .collect();
        assert_eq!(text_row[0], n.to_string());
        assert_eq!(text_row[1], row["solutions"].to_string());
        assert_eq!(text_row[2], row["classes"].to_string());
        let checks = row["checks"].as_array().unwrap();
        assert_eq!(checks.len(), header.len() - 3);
        for (at, check) in checks.iter().enumerate() {
            assert_eq!(check["subject"], header[at + 3]);
            assert_eq!(word(check["result"].as_str().unwrap()), text_row[at + 3]);
        }
    }
    // Other formats list solutions; --verify lists none.
    let err = common::refusal(["--verify", "--format", "columns"]);
    assert!(err.contains("only --format json does"), "{err}");
}
