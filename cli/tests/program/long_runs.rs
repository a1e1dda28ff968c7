//! The command line's long-run features: threads, shards and `merge`,
//! checkpoints that survive a kill, and a progress bar only on a terminal.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::{A000170, binary, merge, queens, scratch, shard_files, stdout_of};
use predicates::prelude::*;

fn max_n() -> usize {
    if cfg!(debug_assertions) { 12 } else { 16 }
}

#[test]
fn one_and_two_threads_count_the_same() {
    for n in [0, 1, 4, 8, 10, 11, 12, 13, 14, 15, 16] {
        if n > max_n() {
            continue;
        }
        let expected = format!("{}\n", A000170[n]);
        for threads in ["1", "2"] {
            let got = stdout_of(&[&n.to_string(), "--count", "--threads", threads]);
            assert_eq!(got, expected, "N = {n}, --threads {threads}");
        }
    }
}

/// N = 18 as `auto` counts it by default (a join kernel from N = 14, on
/// every core): a few seconds.
#[test]
fn eighteen_counts_right() {
    if cfg!(debug_assertions) {
        return;
    }
    assert_eq!(stdout_of(&["18", "--count"]), format!("{}\n", A000170[18]));
}

#[test]
fn bad_thread_requests_are_refused() {
    for bad in ["0", "-1", "two", "100000"] {
        queens()
            .args(["12", "--count", "--threads", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--threads must be"));
    }
    queens()
        .args(["12", "--count", "--kernel", "sse41", "--threads", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("solves whole boards only"));
    queens().args(["12", "--threads", "2"]).assert().code(2);
    queens()
        .args(["12", "--count", "--unique", "--threads", "2"])
        .assert()
        .code(2);
}

#[test]
fn shards_merged_equal_the_single_run() {
    let dir = scratch("shards");
    // (4, 6): each of N = 4's six subproblems a shard of its own.
    for (n, m) in [(4, 6), (8, 3), (13, 1), (13, 4), (14, 7)] {
        let files = shard_files(&dir, n, m);
        merge(&files).success().stdout(format!("{}\n", A000170[n]));
        // In any order.
        let reversed: Vec<PathBuf> = files.iter().rev().cloned().collect();
        merge(&reversed)
            .success()
            .stdout(format!("{}\n", A000170[n]));
    }
}

#[test]
fn a_missing_or_repeated_shard_is_refused() {
    let dir = scratch("bad-shards");
    let files = shard_files(&dir, 12, 3);
    merge(&files[..2]).code(2).stdout("").stderr(
        predicate::str::contains("are in no file")
            .and(predicate::str::contains("shard 2/3 is missing")),
    );
    let twice = [
        files[0].clone(),
        files[1].clone(),
        files[2].clone(),
        files[1].clone(),
    ];
    // A shard named twice is one count, counted once (cli/tests/program/merge.rs).
    merge(&twice)
        .success()
        .stdout("14200\n")
        .stderr(predicate::str::contains("is named twice: counted once"));
    // Shards of another N, a file that is not a record, a missing file.
    let other = shard_files(&scratch("other-shards"), 13, 3);
    merge(&[files[0].clone(), files[1].clone(), other[2].clone()])
        .code(2)
        .stderr(predicate::str::contains("is for N = 13"));
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"count\": 3").unwrap();
    merge(&[junk])
        .code(2)
        .stderr(predicate::str::contains("not a JSON record"));
    merge(&[dir.join("absent.json")])
        .code(2)
        .stderr(predicate::str::contains("cannot read"));
    // An edited record no longer matches its checksum (cli/tests/program/hostile_files.rs
    // tries many more edits).
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let edited = text.replacen("\"subproblems\": ", "\"subproblems\": 1", 1);
    std::fs::write(&files[0], edited).unwrap();
    merge(&files)
        .code(2)
        .stderr(predicate::str::contains("does not match its checksum"));
    queens().arg("merge").assert().code(2);
    queens()
        .args(["12", "merge"])
        .arg(&files[1])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("merge takes shard records, not N"));
    queens()
        .args(["merge", "--count"])
        .arg(&files[1])
        .assert()
        .code(2);
}

#[test]
fn bad_shards_are_refused() {
    for bad in ["3/3", "0/0", "1", "a/b", "-1/2"] {
        queens()
            .args(["12", "--count", "--shard", bad])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("invalid shard"));
    }
    queens().args(["12", "--shard", "0/2"]).assert().code(2);
    // More shards than subproblems: some would count nothing, refused
    // before anything is written, by the rule of `script --shards`.
    let dir = scratch("empty-shards");
    for (n, shard, says) in [
        (
            "8",
            "0/999999",
            "--shard 0/999999 would leave some shards nothing to count: N = 8's symmetric plan has 18 subproblems; at most 18 shards",
        ),
        (
            "8",
            "18/19",
            "N = 8's symmetric plan has 18 subproblems; at most 18 shards",
        ),
        (
            "2",
            "1/2",
            "N = 2's symmetric plan has 1 subproblem; at most 1 shard",
        ),
        (
            "3",
            "0/2",
            "N = 3's join plan has 0 subproblems; at most 1 shard",
        ),
    ] {
        queens()
            .current_dir(&dir)
            .args([
                n,
                "--count",
                "--kernel",
                if n == "3" { "join" } else { "auto" },
            ])
            .args([
                "--shard",
                shard,
                "--output",
                "r.json",
                "--checkpoint",
                "c.json",
            ])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "{n} {shard}");
    }
    // The last shard that has work, and the whole of an empty plan, count.
    let last = stdout_of(&["8", "--count", "--shard", "17/18"]);
    assert!(last.contains("\"subproblems\": 1,"), "{last}");
    let empty = stdout_of(&["3", "--count", "--kernel", "join", "--shard", "0/1"]);
    assert!(empty.contains("\"count\": \"0\""), "{empty}");
    queens()
        .args(["12", "--count", "--shard", "0/2", "--kernel", "portable"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("solves whole boards only"));
}

/// Reads a checkpoint's `subproblems_done`, if the file is there.
fn done_in(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let record: serde_json::Value =
        serde_json::from_str(&text).expect("a checkpoint is always whole JSON");
    record["subproblems_done"].as_u64()
}

/// Starts a count of `n` with `kernel` on one thread and a checkpoint,
/// kills it once the checkpoint holds some subproblems, and resumes it (on
/// two threads: the count does not care) to the right total.
fn kill_and_resume(name: &str, n: usize, kernel: &str, interval: &str) {
    let dir = scratch(name);
    let checkpoint = dir.join("count.json");
    let args = [
        n.to_string(),
        "--count".into(),
        "--kernel".into(),
        kernel.into(),
        "--checkpoint-interval".into(),
        interval.into(),
        "--threads".into(),
        "1".into(),
        "--checkpoint".into(),
        checkpoint.display().to_string(),
    ];
    let mut child = Process::new(binary())
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let done_before_kill = loop {
        if let Some(done) = done_in(&checkpoint).filter(|&d| d > 0) {
            break done;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoint written"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "{kernel}: finished before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed");
    let plan = queens_simd::dispatch::plan_for(kernel.parse().unwrap(), n).unwrap();
    let total = plan.len() as u64;
    let left = done_in(&checkpoint).unwrap();
    assert!(
        left >= done_before_kill && left < total,
        "{kernel}: {left} of {total} done when killed"
    );
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    assert!(
        text.contains(&format!("\"method\": \"{}\"", plan.method())),
        "{text}"
    );

    let mut resumed = args.to_vec();
    resumed[7] = "2".into();
    queens()
        .args(&resumed)
        .assert()
        .success()
        .stdout(format!("{}\n", A000170[n]))
        .stderr(predicate::str::contains("subproblems done"));
    assert_eq!(done_in(&checkpoint), Some(total));
    // A finished checkpoint answers at once.
    queens()
        .args(&resumed)
        .assert()
        .success()
        .stdout(format!("{}\n", A000170[n]));
}

#[test]
fn a_killed_count_resumes_to_the_right_total() {
    // N = 17 on one thread takes ten seconds with a symmetric kernel
    // (minutes in a debug build), N = 16 one or two: either is long enough
    // to be killed part-way, checkpointed every 0.1 s at N = 16. N = 17
    // with the long tests (CI).
    let (n, interval) = match (cfg!(debug_assertions), common::long_tests()) {
        (true, _) => (15, "0.5"),
        (false, false) => (16, "0.1"),
        (false, true) => (17, "0.5"),
    };
    kill_and_resume("checkpoint", n, "symmetric", interval);
}

#[test]
fn a_killed_join_count_resumes_to_the_right_total() {
    // The join kernels are faster: N = 18 on one thread, 2 s with
    // join-avx512 (6 s with join), checkpointed every 0.1 s.
    let n = if cfg!(debug_assertions) { 15 } else { 18 };
    kill_and_resume("checkpoint-join", n, "auto", "0.1");
}

#[test]
fn a_checkpoint_of_another_count_is_refused_and_kept() {
    let dir = scratch("checkpoint-other");
    let checkpoint = dir.join("count.json");
    let path = checkpoint.to_str().unwrap();
    queens()
        .args(["12", "--count", "--checkpoint", path])
        .assert()
        .success()
        .stdout("14200\n");
    let before = std::fs::read_to_string(&checkpoint).unwrap();
    queens()
        .args(["13", "--count", "--checkpoint", path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is for N = 12"));
    queens()
        .args(["12", "--count", "--shard", "1/2", "--checkpoint", path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is for shard 0/1, not 1/2"));
    assert_eq!(std::fs::read_to_string(&checkpoint).unwrap(), before);
    std::fs::write(
        &checkpoint,
        "{\"format\": \"queens-simd checkpoint\", \"vers",
    )
    .unwrap();
    queens()
        .args(["12", "--count", "--checkpoint", path])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a JSON checkpoint"));
}

#[test]
fn a_checkpoint_that_cannot_be_written_fails_at_once() {
    let dir = scratch("checkpoint-unwritable");
    let path = dir.join("no-such-directory").join("count.json");
    queens()
        .args(["12", "--count", "--checkpoint", path.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("cannot be created: "))
        .stderr(predicate::str::contains(
            "folder [..]no-such-directory does not exist"
                .replace("[..]", &format!("{}/", dir.display())),
        ));
    // Nothing was created on the way.
    assert!(!dir.join("no-such-directory").exists());
    // A directory where the checkpoint should be: it cannot be replaced.
    let taken = dir.join("taken.json");
    std::fs::create_dir(&taken).unwrap();
    queens()
        .args(["12", "--count", "--checkpoint", taken.to_str().unwrap()])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("not a regular file (a directory)"));
}

#[test]
fn a_shard_can_be_checkpointed_too() {
    let dir = scratch("shard-checkpoint");
    let checkpoint = dir.join("shard.json");
    let path = checkpoint.to_str().unwrap();
    let first = stdout_of(&["13", "--count", "--shard", "1/2", "--checkpoint", path]);
    let again = stdout_of(&["13", "--count", "--shard", "1/2", "--checkpoint", path]);
    let count =
        |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap()["count"].clone();
    assert_eq!(count(&first), count(&again));
    let other = dir.join("other.json");
    std::fs::write(&other, stdout_of(&["13", "--count", "--shard", "0/2"])).unwrap();
    let mine = dir.join("mine.json");
    std::fs::write(&mine, again).unwrap();
    merge(&[mine, other]).success().stdout("73712\n");
}

#[test]
fn the_progress_bar_shows_on_a_terminal_only() {
    // Piped: nothing on stderr.
    queens()
        .args(["15", "--count"])
        .assert()
        .success()
        .stderr("");
    // On a terminal (util-linux's `script` gives the command a pty).
    // (util-linux's)
    let Some(script) = common::tool("script") else {
        return;
    };
    // A count through a plan, with each kind of kernel: a symmetric one,
    // and the join kernel `auto` counts N = 17 with. The bar is drawn as
    // it is made and as pieces finish: counts of 0.1 and 0.4 s (on one
    // thread with join-avx512) draw it about 20 times, so the larger
    // counts this took (2 s each) added only CPU.
    let on_terminal = |args: &str| {
        let command = format!("{} {args}", binary().display());
        let out = Process::new(&script)
            .args(["-qec", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let join_n = if cfg!(debug_assertions) { 15 } else { 17 };
    for (args, count) in [
        ("15 --count --kernel symmetric".to_owned(), A000170[15]),
        (format!("{join_n} --count --threads 1"), A000170[join_n]),
    ] {
        let shown = on_terminal(&args);
        assert!(
            shown.contains("subproblems") && shown.contains("ETA"),
            "{args}: {shown}"
        );
        assert!(shown.contains(&count.to_string()), "{args}: {shown}");
        let quiet = on_terminal(&format!("{args} --quiet"));
        assert!(!quiet.contains("subproblems"), "{args}: {quiet}");
        assert!(quiet.contains(&count.to_string()), "{args}: {quiet}");
    }
}
