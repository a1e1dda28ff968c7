//! `queens-simd status DIR`: a campaign's folder at a glance, midway, at the
//! end, and among hostile files.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::{A000170, queens, stdout_of};
use queens_simd::plan::Shard;
use queens_simd::{Count, Kernel, dispatch};
use queens_simd_cli::records::{Checkpoint, Origin, PlanId, Plans, ShardRecord, Tally, unix_now};

/// `queens-simd 14 --count --shard I/M`, written to `DIR/records/shard-I.json`.
fn record(dir: &Path, i: usize, m: usize) -> PathBuf {
    let records = dir.join("records");
    fs::create_dir_all(&records).unwrap();
    let path = records.join(format!("shard-{i}.json"));
    fs::write(
        &path,
        stdout_of(&["14", "--count", "--shard", &format!("{i}/{m}")]),
    )
    .unwrap();
    path
}

fn read_record(path: &Path) -> ShardRecord {
    ShardRecord::parse(&fs::read(path).unwrap(), &mut Plans::default()).unwrap()
}

/// A checkpoint of shard `i/m` of N = 14 with its first `done` subproblems
/// counted, written through the library to `DIR/checkpoints/ckpt-I.json`
/// by attempt 2 of a count on node7, Slurm job 1234_5 (5 core-seconds, a
/// checkpoint every half second), whose last heartbeat, and the file's
/// date, were `age` ago.
fn checkpoint(dir: &Path, i: usize, m: usize, done: usize, age: Duration) -> Checkpoint {
    let plan = dispatch::plan_for(Kernel::Auto, 14).unwrap();
    let shard = Shard::new(i, m).unwrap();
    let mut tally = Tally::empty(plan.len());
    for index in plan.shard(shard).into_iter().take(done) {
        let count = dispatch::count_subproblem(Kernel::Auto, plan.get(index).unwrap()).unwrap();
        assert!(tally.insert(index, count));
    }
    let checkpoint = Checkpoint {
        count: tally.total().unwrap(),
        tally,
        in_flight: Default::default(),
        seconds: 2.5,
        origin: Origin {
            host: Some("node7".into()),
            job: Some("1234".into()),
            task: Some("5".into()),
        },
        attempt: 2,
        heartbeat: unix_now() - age.as_secs(),
        core_seconds: 5.0,
        ..Checkpoint::start(PlanId::of(&plan), shard, 0.5)
    };
    write_checkpoint(dir, &checkpoint, age)
}

/// `checkpoint` written to `DIR/checkpoints/ckpt-I.json`, the file dated
/// `age` ago.
fn write_checkpoint(dir: &Path, checkpoint: &Checkpoint, age: Duration) -> Checkpoint {
    let folder = dir.join("checkpoints");
    fs::create_dir_all(&folder).unwrap();
    let path = folder.join(format!("ckpt-{}.json", checkpoint.shard.index()));
    fs::write(&path, checkpoint.to_bytes()).unwrap();
    let file = fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - age).unwrap();
    checkpoint.clone()
}

/// `status ARGS…`: its stdout, which must be all it prints, with status 0.
fn status(args: &[&str]) -> String {
    let out = queens()
        .arg("status")
        .args(args)
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn json(dir: &Path) -> serde_json::Value {
    let text = status(&[dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The line of `text` that starts with `start`.
fn line<'a>(text: &'a str, start: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no '{start}' line in:\n{text}"))
}

#[test]
fn a_campaign_midway() {
    let dir = common::scratch("campaign-midway");
    let records: Vec<ShardRecord> = (0..2).map(|i| read_record(&record(&dir, i, 6))).collect();
    let running = checkpoint(&dir, 2, 6, 3, Duration::from_secs(5));
    let stalled = checkpoint(&dir, 3, 6, 1, Duration::from_secs(7200));
    // Left by runs, and not the campaign's: skipped without a word.
    fs::write(dir.join("checkpoints/ckpt-2.json.lock"), "").unwrap();
    fs::write(dir.join("records/shard-4.json.part"), "{\"format\": ").unwrap();
    fs::write(dir.join("checkpoints/.ckpt-2.json.x1y2.tmp"), "{").unwrap();
    fs::create_dir_all(dir.join("logs")).unwrap();
    fs::write(dir.join("logs/slurm-1_4.out"), "killed").unwrap();

    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 2 done, 1 running, 1 stalled, 2 missing"
    );
    assert!(line(&text, "campaign ").ends_with("6 shards; 4 files read, 0 refused"));
    let plan = dispatch::plan_for(Kernel::Auto, 14).unwrap();
    let size = |i| plan.shard(Shard::new(i, 6).unwrap()).len();
    assert_eq!(
        line(&text, "running: "),
        format!("running: 2/6 (3 of {} subproblems)", size(2))
    );
    assert_eq!(
        line(&text, "stalled: "),
        format!(
            "stalled: 3/6 (1 of {} subproblems), last beat 2.0 hours ago on node7, Slurm job 1234_5, attempt 2",
            size(3)
        )
    );
    assert_eq!(line(&text, "missing: "), "missing: 4/6, 5/6");
    let solutions: Count = records.iter().map(|r| r.count).sum();
    let partial = running.count + stalled.count;
    assert_eq!(
        line(&text, "solutions: "),
        format!("solutions: {solutions} in 2 records, and {partial} so far in 2 checkpoints")
    );
    let done = records.iter().map(|r| r.tally.len()).sum::<usize>() + 3 + 1;
    assert!(
        line(&text, "subproblems: ")
            .starts_with(&format!("subproblems: {done} of {} done (", plan.len())),
        "{text}"
    );
    assert!(!text.contains("refused: "), "{text}");
    assert!(!text.contains("unknown"), "{text}");

    // The same numbers as JSON.
    let read = json(&dir);
    for (key, value) in [
        ("done", 2),
        ("running", 1),
        ("stalled", 1),
        ("missing", 2),
        ("disputed", 0),
        ("shards", 6),
        ("n", 14),
        ("subproblems_done", done),
        ("subproblems_in_plan", plan.len()),
    ] {
        assert_eq!(read[key], value, "{key} in {read}");
    }
    assert_eq!(read["solutions_text"], solutions.to_string());
    assert_eq!(read["checkpoint_solutions_text"], partial.to_string());
    assert_eq!(read["missing_first"], serde_json::json!(["4/6", "5/6"]));
    assert_eq!(read["running_first"][0]["shard"], "2/6");
    assert_eq!(read["stalled_first"][0]["subproblems_done"], 1);
    assert!(read["core_hours_left"].as_f64().unwrap() > 0.0, "{read}");
    assert!(read["eta_seconds"].as_f64().unwrap() > 0.0, "{read}");
    assert_eq!(read["refused"], serde_json::json!([]));

    assert_eq!(read["stalled_first"][0]["host"], "node7");
    assert_eq!(read["stalled_first"][0]["slurm_job"], "1234");
    assert_eq!(read["stalled_first"][0]["slurm_array_task"], "5");
    assert_eq!(read["stalled_first"][0]["attempt"], 2);
    let since = read["stalled_first"][0]["seconds_since_heartbeat"]
        .as_f64()
        .unwrap();
    assert!((7200.0..7260.0).contains(&since), "{read}");
    // The core-hours spent are the records' and the checkpoints', 5
    // core-seconds each.
    let records_core: f64 = records.iter().map(|r| r.core_seconds).sum();
    let spent = read["core_hours_spent"].as_f64().unwrap();
    assert!(
        ((records_core + 10.0) / 3600.0 / spent - 1.0).abs() < 1e-9,
        "{read}"
    );
    assert_eq!(read["checkpoint_core_hours"], 10.0 / 3600.0);

    // --fresh decides what is running.
    let text = status(&[dir.to_str().unwrap(), "--fresh", "86400"]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 2 done, 2 running, 0 stalled, 2 missing"
    );
    let text = status(&[dir.to_str().unwrap(), "--fresh", "1"]);
    assert!(line(&text, "shards: ").ends_with("0 running, 2 stalled, 2 missing"));
}

/// A copy, a hard link and a symbolic link of records are the counts they
/// duplicate, by the rule `merge` follows too: each reported once as a
/// duplicate, none a cross-check, none adding to the core-hours or moving
/// the ETA.
#[cfg(unix)]
#[test]
fn copies_and_links_of_a_record_are_one_count() {
    let dir = common::scratch("campaign-duplicates");
    let records: Vec<PathBuf> = [0, 1, 3].iter().map(|&i| record(&dir, i, 6)).collect();
    // Counted hours ago, so that the ETA is minutes, not a blink; the
    // campaign began with shard 0's record, which a copy dated now must
    // not move.
    for (path, hours) in records.iter().zip([3, 2, 2]) {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - Duration::from_secs(hours * 3600))
            .unwrap();
    }
    let without = status(&[dir.to_str().unwrap()]);
    let json_without = json(&dir);
    // The copy is dated now, and first by path: the one that counts.
    let copy = dir.join("a-copy-0.json");
    fs::copy(&records[0], &copy).unwrap();
    let hard = dir.join("records/hard-1.json");
    fs::hard_link(&records[1], &hard).unwrap();
    let soft = dir.join("records/soft-3.json");
    std::os::unix::fs::symlink("shard-3.json", &soft).unwrap();
    let text = status(&[dir.to_str().unwrap()]);
    assert!(
        line(&text, "campaign ").ends_with("; 3 files read and 3 duplicates, 0 refused"),
        "{text}"
    );
    let shown = |p: &Path| p.display().to_string();
    let duplicates: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("duplicate: "))
        .collect();
    let said = |path: &Path, how: &str, of: &Path| {
        format!(
            "duplicate: {} {how} {}: counted once",
            shown(path),
            shown(of)
        )
    };
    assert_eq!(
        duplicates,
        [
            said(&records[0], "holds the same record as", &copy),
            said(&records[1], "is the same file as", &hard),
            said(&soft, "is the same file as", &records[2]),
        ]
    );
    assert!(!text.contains("cross-checked"), "{text}");
    for start in ["shards: ", "solutions: ", "core-hours: ", "eta: "] {
        assert_eq!(line(&text, start), line(&without, start), "{text}");
    }
    let read = json(&dir);
    assert_eq!(read["cross_checked"], 0);
    assert_eq!(read["files"], 3);
    assert_eq!(read["record_files"], 3);
    assert_eq!(read["core_hours_spent"], json_without["core_hours_spent"]);
    let eta = |v: &serde_json::Value| v["eta_seconds"].as_f64().unwrap();
    assert!(
        (eta(&read) / eta(&json_without) - 1.0).abs() < 1e-3,
        "{read}"
    );
    let hows: Vec<&str> = read["duplicates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["how"].as_str().unwrap())
        .collect();
    assert_eq!(hows, ["copy", "same file", "same file"]);
    assert_eq!(read["duplicates"][0]["file"], shown(&records[0]));
    assert_eq!(read["duplicates"][0]["same_as"], shown(&copy));

    // merge, given the folder's files in the same order and the missing
    // shards, counts them by the same rule, in the same words.
    let rest = common::scratch("campaign-duplicates-rest");
    let mut files = vec![copy.clone(), hard.clone(), records[0].clone()];
    files.extend([records[1].clone(), records[2].clone(), soft.clone()]);
    files.extend([2, 4, 5].iter().map(|&i| record(&rest, i, 6)));
    let said: String = duplicates
        .iter()
        .map(|l| format!("queens-simd: {}\n", l.strip_prefix("duplicate: ").unwrap()))
        .collect();
    queens()
        .arg("merge")
        .args(&files)
        .assert()
        .success()
        .stdout(format!("{}\n", A000170[14]))
        .stderr(said);
}

/// A heartbeat ahead of this machine's clock tells nothing of its count's
/// age: its shard is stalled, not running for ever, and the report says
/// why; one a few seconds ahead (clocks of a cluster's nodes differ) is
/// fresh.
#[test]
fn a_checkpoint_dated_in_the_future_is_not_running() {
    let dir = common::scratch("campaign-future");
    record(&dir, 0, 3);
    let ahead = |i: usize, done: usize, by: u64| {
        let beating = checkpoint(&dir, i, 3, done, Duration::ZERO);
        let ahead = Checkpoint {
            heartbeat: unix_now() + by,
            ..beating
        };
        write_checkpoint(&dir, &ahead, Duration::ZERO);
        dir.join(format!("checkpoints/ckpt-{i}.json"))
    };
    let future = ahead(1, 2, 3600);
    ahead(2, 1, 5);
    for fresh in ["0", "3600", "default"] {
        let fresh_flag = ["--fresh", fresh];
        let flags = if fresh == "default" {
            &[][..]
        } else {
            &fresh_flag[..]
        };
        let args = [&[dir.to_str().unwrap()][..], flags].concat();
        let text = status(&args);
        assert_eq!(
            line(&text, "shards: "),
            "shards: 1 done, 1 running, 1 stalled, 0 missing",
            "--fresh {fresh}: {text}"
        );
        assert!(
            line(&text, "running: ").starts_with("running: 2/3 ("),
            "{text}"
        );
        assert!(
            line(&text, "stalled: ").starts_with("stalled: 1/3 ("),
            "{text}"
        );
        assert_eq!(
            line(&text, "dated in the future: "),
            format!(
                "dated in the future: 1/3, {} is dated 60 min ahead of this machine's clock, so its age is unknown (counted as stalled)",
                future.display()
            )
        );
    }
    let read = json(&dir);
    assert_eq!(
        (read["running"].clone(), read["stalled"].clone()),
        (1.into(), 1.into())
    );
    assert_eq!(read["future_dated"], 1);
    let dated = &read["future_dated_first"][0];
    assert_eq!(dated["shard"], "1/3");
    assert_eq!(dated["file"], future.to_str().unwrap());
    let seconds = dated["seconds_ahead"].as_f64().unwrap();
    assert!((3500.0..=3600.0).contains(&seconds), "{read}");
    // Ahead by less than CLOCK_SKEW, it beat just now.
    assert_eq!(read["running_first"][0]["seconds_since_heartbeat"], 0.0);
}

/// A count is running only while its heartbeat is fresh: within three of
/// its checkpoint intervals, and never less than two minutes. One killed
/// five minutes ago (kill -9, scancel, a task waiting out Slurm's requeue
/// delay) is stalled, though its file is recent, and the report says when
/// and where it last beat; a record or checkpoint whose names hold a
/// control character is refused, never printed.
#[test]
fn a_count_is_running_only_while_its_heartbeat_is_fresh() {
    let dir = common::scratch("campaign-heartbeat");
    record(&dir, 0, 4);
    let killed = checkpoint(&dir, 1, 4, 2, Duration::from_secs(300));
    // Beat ten minutes ago, but saves every five minutes.
    let slow = checkpoint(&dir, 2, 4, 1, Duration::from_secs(600));
    let slow = Checkpoint {
        interval: 300.0,
        ..slow
    };
    write_checkpoint(&dir, &slow, Duration::from_secs(600));
    // A minute and a half ago, every half second: the floor keeps it
    // running (the clocks of a cluster's nodes differ).
    let recent = checkpoint(&dir, 3, 4, 1, Duration::from_secs(90));
    let hostile = Checkpoint {
        origin: Origin {
            host: Some("node\u{1b}]0;owned\u{7}".into()),
            ..Origin::default()
        },
        ..recent.clone()
    };
    let path = dir.join("hostile.json");
    fs::write(&path, hostile.to_bytes()).unwrap();
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 1 done, 2 running, 1 stalled, 0 missing"
    );
    let plan = dispatch::plan_for(Kernel::Auto, 14).unwrap();
    let size = |c: &Checkpoint| plan.shard(c.shard).len();
    assert_eq!(
        line(&text, "running: "),
        format!(
            "running: 2/4 (1 of {} subproblems), 3/4 (1 of {} subproblems)",
            size(&slow),
            size(&recent)
        )
    );
    assert_eq!(
        line(&text, "stalled: "),
        format!(
            "stalled: 1/4 (2 of {} subproblems), last beat 5 min ago on node7, Slurm job 1234_5, attempt 2",
            size(&killed)
        )
    );
    assert_eq!(
        line(&text, "refused: "),
        format!(
            "refused: {} has a \"host\" with a control character: \"node\\u{{1b}}]0;owned\\u{{7}}\"",
            path.display()
        )
    );
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
}

/// A checkpoint that holds every subproblem of its shard, with no record
/// (the record's disk was full, or it was deleted, or never kept), is a
/// finished count, not a running one; a rerun writes the record.
#[test]
fn a_finished_count_without_its_record_is_named() {
    let dir = common::scratch("campaign-unrecorded");
    record(&dir, 0, 3);
    record(&dir, 1, 3);
    fs::create_dir_all(dir.join("checkpoints")).unwrap();
    let path = dir.join("checkpoints/ckpt-2.json");
    let count = ["14", "--count", "--shard", "2/3", "--checkpoint"];
    queens().args(count).arg(&path).assert().success();
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 2 done, 1 finished with no record, 0 running, 0 stalled, 0 missing"
    );
    assert_eq!(
        line(&text, "finished, record missing: "),
        "finished, record missing: 2/3: rerun the shard to write it"
    );
    assert!(!text.contains("running: "), "{text}");
    let read = json(&dir);
    assert_eq!(read["unrecorded"], 1);
    let named = &read["unrecorded_first"][0];
    assert_eq!(named["shard"], "2/3");
    assert_eq!(named["subproblems_done"], named["subproblems"]);
    // The rerun only writes the record.
    let out = queens().args(count).arg(&path).assert().success();
    let rerun = out.get_output().stdout.clone();
    fs::write(dir.join("records/shard-2.json"), &rerun).unwrap();
    let record = ShardRecord::parse(&rerun, &mut Plans::default()).unwrap();
    assert_eq!(record.attempts, 2);
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 3 done, 0 running, 0 stalled, 0 missing"
    );
}

/// A count's checkpoint and record say who counted and when: the host,
/// Slurm's job and array task, the attempt (one more at each resume), the
/// heartbeat, the interval and the core-seconds of all the attempts. A
/// Slurm variable that is no short text is left out.
#[test]
fn records_and_checkpoints_say_who_counted_and_when() {
    let dir = common::scratch("campaign-who");
    let path = dir.join("ckpt.json");
    let run = |interval: &str, env: &[(&str, &str)]| {
        let mut command = queens();
        command.args(["14", "--count", "--shard", "1/3", "--threads", "2"]);
        command.args(["--checkpoint-interval", interval, "--checkpoint"]);
        command.arg(&path);
        for name in ["SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID"] {
            command.env_remove(name);
        }
        command.envs(env.iter().copied());
        let before = unix_now();
        let out = command.assert().success().get_output().stdout.clone();
        let record = ShardRecord::parse(&out, &mut Plans::default()).unwrap();
        let checkpoint = Checkpoint::parse(&fs::read(&path).unwrap(), &mut Plans::default());
        let checkpoint = checkpoint.unwrap();
        assert!((before..=unix_now()).contains(&checkpoint.heartbeat));
        assert!(checkpoint.pid != 0 && checkpoint.pid != std::process::id());
        assert_eq!(checkpoint.origin, record.origin);
        assert_eq!(checkpoint.attempt, record.attempts);
        assert_eq!(checkpoint.core_seconds, record.core_seconds);
        assert!(record.core_seconds >= record.seconds, "{record:?}");
        (record, checkpoint)
    };
    let slurm = [
        ("SLURM_JOB_ID", "4328"),
        ("SLURM_ARRAY_JOB_ID", "4321"),
        ("SLURM_ARRAY_TASK_ID", "7"),
    ];
    let (first, checkpoint) = run("0.5", &slurm);
    let here = Origin::of_this_process().host;
    assert_eq!(
        first.origin,
        Origin {
            host: here.clone(),
            job: Some("4321".into()),
            task: Some("7".into()),
        }
    );
    assert_eq!((first.attempts, checkpoint.interval), (1, 0.5));
    // Resumed by another job, without an array: its next attempt.
    let long = "9".repeat(100);
    let odd = [("SLURM_JOB_ID", "12\n34"), ("SLURM_ARRAY_TASK_ID", &long)];
    let (second, checkpoint) = run("2", &odd);
    assert_eq!(
        second.origin,
        Origin {
            host: here,
            ..Origin::default()
        }
    );
    assert_eq!((second.attempts, checkpoint.interval), (2, 2.0));
    assert!(second.core_seconds > first.core_seconds, "{second:?}");
    let (third, _) = run("2", &[("SLURM_JOB_ID", "99")]);
    assert_eq!(
        (third.attempts, third.origin.job.as_deref()),
        (3, Some("99"))
    );
}

#[test]
fn the_end_adds_up_to_the_count() {
    let dir = common::scratch("campaign-end");
    let files: Vec<PathBuf> = (0..4).map(|i| record(&dir, i, 4)).collect();
    // A finished shard's checkpoint stays: its record wins.
    checkpoint(&dir, 1, 4, 2, Duration::ZERO);
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 4 done, 0 running, 0 stalled, 0 missing"
    );
    let q14 = A000170[14];
    assert_eq!(
        line(&text, "solutions: "),
        format!("solutions: {q14} in 4 records, and 0 so far in 0 checkpoints")
    );
    assert!(line(&text, "subproblems: ").ends_with("done (100.0%), 100.0% of the plan's estimate"));
    assert!(line(&text, "core-hours: ").ends_with("; about 0.000 left"));
    assert_eq!(line(&text, "eta: "), "eta: none: every shard is done");
    let read = json(&dir);
    assert_eq!(read["solutions_text"], q14.to_string());
    assert_eq!(read["solutions"], q14 as u64);
    assert_eq!(read["core_hours_left"], 0.0);
    assert_eq!(read["eta_seconds"], 0.0);

    // A cross-check: shard 2 counted again (a copy would be a duplicate).
    fs::create_dir_all(dir.join("check")).unwrap();
    fs::write(
        dir.join("check/shard-2.check.json"),
        stdout_of(&["14", "--count", "--shard", "2/4"]),
    )
    .unwrap();
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 4 done, 0 running, 0 stalled, 0 missing"
    );
    assert_eq!(
        line(&text, "cross-checked: "),
        "cross-checked: 1 shard, whose records agree"
    );
    assert!(line(&text, "solutions: ").starts_with(&format!("solutions: {q14} in 4 records")));
    assert!(line(&text, "core-hours: ").contains(" spent in 5 records"));

    // A record of shard 3 whose arithmetic holds and whose counts differ:
    // the shard is disputed, neither record counts.
    let mut forged = read_record(&files[3]);
    let (index, count) = forged.tally.iter().next().unwrap();
    let mut tally = Tally::empty(forged.plan.subproblems);
    for (i, c) in forged.tally.iter() {
        assert!(tally.insert(i, if i == index { c + 1 } else { c }));
    }
    forged.tally = tally;
    forged.count += 1;
    fs::write(dir.join("check/shard-3.check.json"), forged.to_bytes()).unwrap();
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 3 done, 1 disputed, 0 running, 0 stalled, 0 missing"
    );
    let honest = read_record(&files[3]).count;
    assert_eq!(
        line(&text, "disputed: "),
        format!(
            "disputed: shard 3/4: {} says {} solutions, {} says {honest}",
            dir.join("check/shard-3.check.json").display(),
            forged.count,
            files[3].display()
        )
    );
    assert_eq!(
        line(&text, "solutions: "),
        format!(
            "solutions: {} in 3 records, and 0 so far in 0 checkpoints",
            q14 - honest
        )
    );
    assert!(!text.contains("eta: none"), "{text}");
    let read = json(&dir);
    assert_eq!(
        (read["done"].clone(), read["disputed"].clone()),
        (3.into(), 1.into())
    );
    assert_eq!(count + 1, forged.tally.get(index).unwrap());
}

#[cfg(unix)]
#[test]
fn hostile_files_are_reported_as_merge_reports_them() {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::symlink;

    let dir = common::scratch("campaign-hostile");
    let good = record(&dir, 0, 2);
    record(&dir, 1, 2);
    let bad = dir.join("bad");
    fs::create_dir_all(&bad).unwrap();
    let text = fs::read_to_string(&good).unwrap();
    fs::write(
        bad.join("edited.json"),
        text.replacen("\"count\": \"", "\"count\": \"1", 1),
    )
    .unwrap();
    fs::write(bad.join("truncated.json"), &text[..text.len() / 2]).unwrap();
    fs::File::create(bad.join("huge.json"))
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    let fifo = bad.join("fifo.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    symlink(bad.join("loop-b.json"), bad.join("loop-a.json")).unwrap();
    symlink(bad.join("loop-a.json"), bad.join("loop-b.json")).unwrap();
    fs::create_dir_all(bad.join("folder.json")).unwrap();
    let odd = bad.join(std::ffi::OsStr::from_bytes(b"odd-\xff\nname.json"));
    fs::write(&odd, &text[..10]).unwrap();
    fs::write(
        bad.join("other-n.json"),
        stdout_of(&["12", "--count", "--shard", "0/2"]),
    )
    .unwrap();
    // A link to the folder above: a loop, never followed.
    symlink(&dir, bad.join("up")).unwrap();

    let out = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&out, "shards: "),
        "shards: 2 done, 0 running, 0 stalled, 0 missing"
    );
    assert!(
        line(&out, "campaign ").ends_with("2 files read, 9 refused"),
        "{out}"
    );
    let refused: Vec<&str> = out.lines().filter(|l| l.starts_with("refused: ")).collect();
    assert_eq!(refused.len(), 9, "{out}");
    let said = |name: &str, why: &str| {
        assert!(
            refused.iter().any(|l| l.contains(name) && l.contains(why)),
            "{name}: {why} in {out}"
        );
    };
    said("edited.json", "does not match its checksum");
    said("truncated.json", "is not a JSON record: EOF");
    said(
        "huge.json",
        "over the 16777216 a record or checkpoint can have",
    );
    said("fifo.json", "is not a regular file (a FIFO)");
    said("loop-a.json", "cannot read");
    said("loop-b.json", "cannot read");
    said("folder.json", "is not a regular file (a directory)");
    said("odd-\\xff\\nname.json'", "is not a JSON record");
    said("other-n.json", "is for N = 12");
    let read = json(&dir);
    assert_eq!(read["refused"].as_array().unwrap().len(), 9);
    assert_eq!(read["done"], 2);
    assert_eq!(read["solutions_text"], A000170[14].to_string());

    // The text names ten, and says how many more.
    for i in 0..5 {
        fs::write(bad.join(format!("empty-{i}.json")), "").unwrap();
    }
    let out = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("refused: ")).count(),
        11
    );
    assert_eq!(line(&out, "refused: and"), "refused: and 4 more");
    assert_eq!(json(&dir)["refused"].as_array().unwrap().len(), 14);
}

/// A name with a byte that is not printable is shown as bash's `$'…'`
/// quoting writes it, the same in the text, in the JSON and in merge's
/// refusal, and bash reaches the file through it.
#[cfg(unix)]
#[test]
fn odd_names_are_shown_as_a_shell_takes_them() {
    use std::os::unix::ffi::OsStrExt;

    let dir = common::scratch("campaign-odd-names");
    record(&dir, 0, 2);
    record(&dir, 1, 2);
    let odd = dir.join(std::ffi::OsStr::from_bytes(b"nu-bad\xff\x01\".json"));
    fs::write(&odd, "{").unwrap();
    let shown = format!("$'{}/nu-bad\\xff\\x01\".json'", dir.display());
    let why =
        format!("{shown} is not a JSON record: EOF while parsing an object at line 1 column 1");
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(line(&text, "refused: "), format!("refused: {why}"));
    let read = json(&dir);
    assert_eq!(read["refused"][0]["file"], shown.as_str());
    assert_eq!(read["refused"][0]["why"], why.as_str());
    let err = common::refusal(["merge".as_ref(), odd.as_os_str()]);
    assert_eq!(err, format!("queens-simd: error: {why}\n"));
    let reached = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("cat -- {shown}"))
        .output()
        .unwrap();
    assert_eq!(reached.stdout, b"{", "{reached:?}");
}

#[test]
fn a_folder_without_a_campaign_is_refused_in_one_line() {
    let dir = common::scratch("campaign-none");
    let err = common::refusal(["status", dir.to_str().unwrap()]);
    assert!(err.contains("holds no *.json file"), "{err}");
    let file = dir.join("shard-0.json");
    fs::write(&file, stdout_of(&["8", "--count", "--shard", "0/1"])).unwrap();
    let err = common::refusal(["status", file.to_str().unwrap()]);
    assert!(err.contains("is not a directory"), "{err}");
    let err = common::refusal(["status", dir.join("nothing").to_str().unwrap()]);
    assert!(err.contains("cannot read"), "{err}");
    // Only files that fail their checks: nothing to report on.
    fs::write(&file, "{}").unwrap();
    let err = common::refusal(["status", dir.to_str().unwrap(), "--format", "json"]);
    assert!(
        err.contains("holds no valid record or checkpoint: 1 file refused, the first: "),
        "{err}"
    );
}

#[test]
fn what_cannot_be_told_yet_is_unknown() {
    let dir = common::scratch("campaign-unknown");
    // A shard just started: nothing counted, nothing to go by.
    checkpoint(&dir, 0, 2, 0, Duration::ZERO);
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        "shards: 0 done, 1 running, 0 stalled, 1 missing"
    );
    assert!(
        line(&text, "core-hours: ")
            .ends_with("; unknown left (no record has counted any of the estimate yet)"),
        "{text}"
    );
    assert_eq!(
        line(&text, "eta: "),
        "eta: unknown (too little is done to tell)"
    );
    let read = json(&dir);
    assert!(
        read["core_hours_left"].is_null() && read["eta_seconds"].is_null(),
        "{read}"
    );
    // Some of it counted: a pace, still no record's core-hours.
    checkpoint(&dir, 0, 2, 4, Duration::ZERO);
    let text = status(&[dir.to_str().unwrap()]);
    assert!(line(&text, "eta: ").starts_with("eta: about "), "{text}");
    assert!(
        line(&text, "core-hours: ").contains("unknown left"),
        "{text}"
    );
    assert!(
        line(&text, "core-hours: ")
            .starts_with("core-hours: 0.001 spent in 0 records and 1 checkpoint (stops included)"),
        "{text}"
    );
}

/// More shards than subproblems: most records are of empty shards, each a
/// valid record, and only the first five missing are named.
#[test]
fn many_shards_most_of_them_empty() {
    let dir = common::scratch("campaign-many");
    let plan = dispatch::plan_for(Kernel::Auto, 8).unwrap();
    let m = 1000;
    let skipped: Vec<usize> = (0..m).filter(|i| i % 97 == 5).collect();
    let mut solutions = 0;
    for i in (0..m).filter(|i| !skipped.contains(i)) {
        let shard = Shard::new(i, m).unwrap();
        let mut tally = Tally::empty(plan.len());
        for index in plan.shard(shard) {
            let count = dispatch::count_subproblem(Kernel::Auto, plan.get(index).unwrap()).unwrap();
            assert!(tally.insert(index, count));
        }
        let record = ShardRecord {
            plan: PlanId::of(&plan),
            shard,
            count: tally.total().unwrap(),
            tally,
            kernel: "auto".into(),
            threads: 1,
            seconds: 0.0,
            origin: Origin::default(),
            attempts: 1,
            core_seconds: 0.0,
        };
        solutions += record.count;
        fs::write(dir.join(format!("{i}.json")), record.to_bytes()).unwrap();
    }
    let text = status(&[dir.to_str().unwrap()]);
    assert_eq!(
        line(&text, "shards: "),
        format!(
            "shards: {} done, 0 running, 0 stalled, {} missing",
            m - skipped.len(),
            skipped.len()
        )
    );
    assert_eq!(
        line(&text, "missing: "),
        format!(
            "missing: 5/{m}, 102/{m}, 199/{m}, 296/{m}, 393/{m}, and {} more",
            skipped.len() - 5
        )
    );
    assert!(line(&text, "solutions: ").starts_with(&format!("solutions: {solutions} in ")));
    let read = json(&dir);
    assert_eq!(read["missing"], skipped.len());
    assert_eq!(read["missing_first"].as_array().unwrap().len(), 5);
}
