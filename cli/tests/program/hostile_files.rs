//! Shard records and checkpoints that were edited, damaged, forged or are
//! not files at all: each is refused with one line naming the file and
//! what is wrong (exit 2, nothing on stdout; 3 for a forgery a recount
//! proves wrong), never added up, never waited on, never followed into
//! someone else's file.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use std::time::{Duration, Instant};

use common::{A000170, binary, merge, queens, scratch, shard_files, stdout_of};
use predicates::prelude::*;
use queens_simd::Count;
use queens_simd::plan::Shard;
use queens_simd_cli::records::{Checkpoint, Plans, ShardRecord, Tally};

/// Counts every shard `i/m` of N's join plan (with the portable join) into
/// a record file in `dir`, and returns the files.
fn join_shard_files(dir: &Path, n: usize, m: usize) -> Vec<PathBuf> {
    (0..m)
        .map(|i| {
            let shard = format!("{i}/{m}");
            let json = stdout_of(&[
                &n.to_string(),
                "--count",
                "--kernel",
                "join",
                "--shard",
                &shard,
            ]);
            let path = dir.join(format!("join-{i}-of-{m}.json"));
            fs::write(&path, json).unwrap();
            path
        })
        .collect()
}

fn read_record(path: &Path) -> ShardRecord {
    ShardRecord::parse(&fs::read(path).unwrap(), &mut Plans::default()).unwrap()
}

/// Rewrites the record at `path` after `edit`, with a checksum that matches
/// its new contents: a forgery only the arithmetic or a recount can catch.
fn forge(path: &Path, edit: impl FnOnce(&mut ShardRecord)) {
    let mut record = read_record(path);
    edit(&mut record);
    fs::write(path, record.to_bytes()).unwrap();
}

/// Replaces `from` with `to` in the text of `path`, once.
fn edit_text(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} in {text}");
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The checksum as the module documents it: SHA-256 of the compact JSON
/// without the checksum key, keys in the order written (what
/// `jq -cj 'del(.checksum)'` prints). Computed here from the text, not by
/// the library, to hold the library to its documentation.
fn documented_checksum(pretty: &str) -> String {
    use sha2::{Digest, Sha256};
    let fields: Vec<String> = pretty
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("\"checksum\"") && *l != "{" && *l != "}")
        .map(|l| l.trim_end_matches(',').replacen("\": ", "\":", 1))
        .collect();
    let compact = format!("{{{}}}", fields.join(","));
    let digest = Sha256::digest(compact.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// Rewrites the checksum of the file at `path` to match its text.
fn rechecksum(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    let line = text.lines().find(|l| l.contains("\"checksum\"")).unwrap();
    let fixed = format!("  \"checksum\": \"{}\"", documented_checksum(&text));
    fs::write(path, text.replace(line, &fixed)).unwrap();
}

/// `merge` refuses: exit 2, no total, one line naming `file` and `why`.
fn merge_refuses(files: &[PathBuf], file: &Path, why: &str) {
    let err = common::refusal(
        std::iter::once("merge".as_ref()).chain(files.iter().map(|f| f.as_os_str())),
    );
    assert!(
        err.contains(&file.display().to_string()),
        "{file:?} in {err}"
    );
    assert!(err.contains(why), "{why:?} in {err}");
}

/// Changes the count of `record`'s first subproblem by `change`, and its
/// total by as much: a forgery whose arithmetic holds.
fn change_first_count(record: &mut ShardRecord, change: impl Fn(Count) -> Count) {
    let (first, _) = record.tally.iter().next().unwrap();
    let mut tally = Tally::empty(record.plan.subproblems);
    for (index, count) in record.tally.iter() {
        tally.insert(index, if index == first { change(count) } else { count });
    }
    record.tally = tally;
    record.count = record.tally.total().unwrap_or(Count::MAX);
}

#[test]
fn the_checksum_is_the_documented_one() {
    let dir = scratch("checksum");
    for file in shard_files(&dir, 12, 2) {
        let text = fs::read_to_string(&file).unwrap();
        assert!(text.contains(&documented_checksum(&text)), "{text}");
    }
}

#[test]
fn an_edited_count_is_refused() {
    let dir = scratch("edited-count");
    let files = shard_files(&dir, 12, 3);
    merge(&files).success().stdout("14200\n");
    let original = fs::read(&files[1]).unwrap();
    let record = read_record(&files[1]);
    let honest = record.count.to_string();
    let wrong = (record.count + 8).to_string();

    // Edited by hand: the checksum no longer matches.
    edit_text(
        &files[1],
        &format!("\"count\": \"{honest}\""),
        &format!("\"count\": \"{wrong}\""),
    );
    merge_refuses(&files, &files[1], "does not match its checksum");
    // With the checksum redone: the subproblems no longer add up.
    rechecksum(&files[1]);
    merge_refuses(
        &files,
        &files[1],
        &format!("says its count is {wrong}, but its"),
    );
    // One subproblem's count and the total edited together, checksum redone:
    // consistent, so only a recount can tell.
    fs::write(&files[1], &original).unwrap();
    forge(&files[1], |r| change_first_count(r, |c| c + 8));
    merge(&files).success().stdout("14208\n");
    queens()
        .arg("merge")
        .args(&files)
        .args(["--recount", "1000", "--seed", "1"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(
            predicate::str::contains(files[1].display().to_string())
                .and(predicate::str::contains("recounted here with --seed 1")),
        );
    // Not a multiple of what its kind counts per board.
    fs::write(&files[1], &original).unwrap();
    forge(&files[1], |r| change_first_count(r, |c| c + 1));
    merge_refuses(&files, &files[1], "is always a multiple of");
}

#[test]
fn recount_passes_honest_records_and_prints_its_seed() {
    let dir = scratch("recount");
    let files = shard_files(&dir, 13, 4);
    queens()
        .arg("merge")
        .args(&files)
        .args(["--recount", "5", "--threads", "1"])
        .assert()
        .success()
        .stdout("73712\n")
        .stderr(
            predicate::str::is_match(
                r"^queens-simd: recounting 5 of the \d+ subproblems, chosen with --seed \d+\nqueens-simd: the 5 recounted subproblems agree with the records\n$",
            )
            .unwrap(),
        );
}

#[test]
fn counts_that_would_wrap_are_refused() {
    let dir = scratch("wrap");
    let files = shard_files(&dir, 12, 2);
    for file in &files {
        forge(file, |r| change_first_count(r, |_| Count::MAX - 7));
    }
    // Each alone is refused already: its sum overflows, or is more than
    // 12! arrangements.
    merge(&files).code(2).stdout("");
    edit_text(&files[0], "\"count\": \"", "\"count\": \"1");
    rechecksum(&files[0]);
    merge(&files).code(2).stdout("");
}

#[test]
fn a_record_must_cover_its_shard_exactly() {
    let dir = scratch("coverage");
    let files = shard_files(&dir, 12, 3);
    // Covers nothing but still claims its count.
    let mut empty = read_record(&files[2]);
    empty.tally = Tally::empty(empty.plan.subproblems);
    fs::write(&files[2], empty.to_bytes()).unwrap();
    merge_refuses(&files, &files[2], "subproblems' counts add up to 0");
    // Covers nothing and claims nothing.
    empty.count = 0;
    fs::write(&files[2], empty.to_bytes()).unwrap();
    merge_refuses(&files, &files[2], "covers 0 of the");
    // Claims shard 0/3 but covers shard 1/3's subproblems.
    let files = shard_files(&dir, 12, 3);
    forge(&files[1], |r| r.shard = Shard::new(0, 3).unwrap());
    merge_refuses(&files, &files[1], "which is not in shard 0/3");
}

#[test]
fn a_file_wrong_in_itself_is_named_before_an_overlap() {
    // merge adds each record up as it reads it, and keeps no more counts
    // once two records overlap, but reads every file first: a damaged
    // file is named whatever its place, an overlap only if none is (and
    // a file named twice, one count, merges).
    let dir = scratch("overlap-then-damage");
    let files = shard_files(&dir, 12, 3);
    let twice = [&files[0], &files[1], &files[0], &files[2]].map(PathBuf::clone);
    merge(&twice)
        .success()
        .stdout("14200\n")
        .stderr(predicate::str::contains("is named twice: counted once"));
    let other = shard_files(&scratch("overlap-then-damage-4"), 12, 4);
    let overlap = [&files[0], &files[1], &other[0], &files[2]].map(PathBuf::clone);
    merge_refuses(&overlap, &other[0], "is counted twice");
    merge_refuses(&overlap, &other[0], "(shard 0/4)");
    edit_text(&files[2], "\"count\": \"", "\"count\": \"1");
    merge_refuses(&twice, &files[2], "does not match its checksum");
    merge_refuses(&overlap, &files[2], "does not match its checksum");
}

#[test]
fn a_shard_of_a_huge_split_is_refused_quickly() {
    // A consistent record of shard 0/100000000000 (it covers one
    // subproblem): merge names what is missing without listing 10^11
    // shards.
    let dir = scratch("huge-split");
    let files = shard_files(&dir, 12, 1);
    let plan =
        queens_simd::plan::Plan::with_method(queens_simd::kernel::Method::Symmetric, 12).unwrap();
    let shard = Shard::new(0, 100_000_000_000).unwrap();
    forge(&files[0], |r| {
        let mut tally = Tally::empty(r.plan.subproblems);
        for index in plan.shard(shard) {
            tally.insert(index, r.tally.get(index).unwrap());
        }
        r.count = tally.total().unwrap();
        r.tally = tally;
        r.shard = shard;
    });
    let started = Instant::now();
    let out = merge(&files).code(2).stdout("").get_output().clone();
    assert!(started.elapsed() < Duration::from_secs(10));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.len() < 400, "{err}");
    assert!(err.contains("645 of the 646 subproblems"), "{err}");
    assert!(err.contains("and 640 more are missing"), "{err}");
}

#[test]
fn malformed_records_are_refused() {
    let dir = scratch("malformed");
    let files = shard_files(&dir, 12, 2);
    let original = fs::read_to_string(&files[0]).unwrap();
    let cases: &[(&str, &str, &str)] = &[
        // (from, to, why)
        (
            "\"kernel\"",
            "\"count\": \"5\",\n  \"kernel\"",
            "duplicate field `count`",
        ),
        (
            "\"kernel\"",
            "\"extra\": 1,\n  \"kernel\"",
            "unknown field `extra`",
        ),
        ("\"version\": 4", "\"version\": 1", "version 1"),
        (
            "\"version\": 4",
            "\"version\": 3",
            "is a version 3 queens-simd shard record, which does not say who counted or when; this version reads only version 4: count it again",
        ),
        (
            "\"version\": 4",
            "\"version\": 2",
            "is a version 2 queens-simd shard record",
        ),
        ("\"version\": 4", "\"version\": 5", "of version 5"),
        ("\"version\": 4", "\"version\": 0", "of version 0"),
        (
            "\"version\": 4",
            "\"version\": \"4\"",
            "whose \"version\" is the text \"4\", where a record has a whole number",
        ),
        (
            "\"version\": 4",
            "\"version\": null",
            "with no whole-number \"version\"",
        ),
        ("\"n\": 12", "\"n\": \"12\"", "invalid type"),
        ("\"n\": 12", "\"n\": 12.0", "invalid type"),
        ("\"n\": 12", "\"n\": -12", "invalid value"),
        ("\"threads\"", "\"threads_\"", "unknown field `threads_`"),
        (
            "queens-simd shard",
            "queens-simd checkpoint",
            "is a queens-simd checkpoint, not a queens-simd shard record",
        ),
        (
            "\"format\"",
            "\"formats\"",
            "is not a queens-simd shard record",
        ),
    ];
    for (from, to, why) in cases {
        fs::write(&files[0], &original).unwrap();
        edit_text(&files[0], from, to);
        merge_refuses(&files, &files[0], why);
    }
    // A missing key: the checksum, or the kernel.
    let checksum_line = original.lines().find(|l| l.contains("checksum")).unwrap();
    let without = original.replace(&format!(",\n{checksum_line}"), "");
    fs::write(&files[0], without).unwrap();
    merge_refuses(&files, &files[0], "has no checksum");
    let kernel_line = original.lines().find(|l| l.contains("\"kernel\"")).unwrap();
    fs::write(&files[0], original.replace(&format!("{kernel_line}\n"), "")).unwrap();
    merge_refuses(&files, &files[0], "missing field `kernel`");
    // Not JSON at all, or JSON nested past any sane depth.
    for junk in [
        &b""[..],
        b"\xff\xfe{\x00",
        b"{\"count\": 3",
        b"null",
        b"[1, 2, 3]",
        &[b'['; 200_000],
    ] {
        fs::write(&files[0], junk).unwrap();
        merge_refuses(&files, &files[0], "is not a");
    }
}

#[test]
fn records_of_two_plans_do_not_mix() {
    let dir = scratch("two-plans");
    let twelve = shard_files(&dir, 12, 2);
    let thirteen = shard_files(&scratch("two-plans-13"), 13, 2);
    merge_refuses(
        &[twelve[0].clone(), thirteen[1].clone()],
        &thirteen[1],
        "is for N = 13",
    );
    // A fingerprint edited (checksum redone).
    let fingerprint = read_record(&twelve[1]).plan.fingerprint;
    let other: String = fingerprint.chars().rev().collect();
    edit_text(&twelve[1], &fingerprint, &other);
    rechecksum(&twelve[1]);
    merge_refuses(&twelve, &twelve[1], "but this version splits it as");
}

#[cfg(unix)]
#[test]
fn only_regular_files_of_sane_size_are_read() {
    let dir = scratch("not-files");
    let files = shard_files(&dir, 12, 1);
    let fifo = dir.join("fifo.json");
    assert!(
        Process::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let big = dir.join("big.json");
    fs::File::create(&big).unwrap().set_len(100 << 20).unwrap();
    let link_to_zero = dir.join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &link_to_zero).unwrap();
    let link_to_record = dir.join("link.json");
    std::os::unix::fs::symlink(&files[0], &link_to_record).unwrap();
    merge(&[link_to_record]).success().stdout("14200\n");
    for (path, why) in [
        (PathBuf::from("/dev/zero"), "not a regular file (a device)"),
        (link_to_zero, "not a regular file (a device)"),
        (fifo.clone(), "not a regular file (a FIFO)"),
        (dir.clone(), "not a regular file (a directory)"),
        (big, "over the 16777216 a record can have"),
        (dir.join("absent.json"), "cannot read"),
    ] {
        let started = Instant::now();
        merge_refuses(std::slice::from_ref(&path), &path, why);
        assert!(started.elapsed() < Duration::from_secs(10), "{path:?}");
    }
    // The same for a checkpoint.
    for path in [PathBuf::from("/dev/zero"), fifo] {
        queens()
            .args(["12", "--count", "--checkpoint"])
            .arg(&path)
            .timeout(Duration::from_secs(20))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("not a regular file"));
    }
}

/// A checkpoint of N = 12 written by a finished count.
fn finished_checkpoint(dir: &Path) -> PathBuf {
    let path = dir.join("count.json");
    queens()
        .args(["12", "--count", "--checkpoint"])
        .arg(&path)
        .assert()
        .success()
        .stdout("14200\n");
    path
}

#[test]
fn an_edited_checkpoint_is_refused() {
    let dir = scratch("edited-checkpoint");
    let path = finished_checkpoint(&dir);
    let original = fs::read_to_string(&path).unwrap();
    // The count edited to 1: the issue's case.
    edit_text(&path, "\"count\": \"14200\"", "\"count\": \"1\"");
    let resume = || {
        queens()
            .args(["12", "--count", "--checkpoint"])
            .arg(&path)
            .assert()
    };
    resume()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("does not match its checksum"));
    rechecksum(&path);
    resume()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("says its count is 1, but its 646"));
    // Nothing was overwritten by the refused runs.
    assert!(
        fs::read_to_string(&path)
            .unwrap()
            .contains("\"count\": \"1\"")
    );
    fs::write(&path, &original).unwrap();
    resume().success().stdout("14200\n");

    // Subproblems outside its shard.
    let mut checkpoint = Checkpoint::parse(original.as_bytes(), &mut Plans::default()).unwrap();
    let plan =
        queens_simd::plan::Plan::with_method(queens_simd::kernel::Method::Symmetric, 12).unwrap();
    checkpoint.shard = Shard::new(1, 2).unwrap();
    fs::write(&path, checkpoint.to_bytes()).unwrap();
    let outside = plan.shard(Shard::new(0, 2).unwrap());
    queens()
        .args(["12", "--count", "--shard", "1/2", "--checkpoint"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "counts subproblem {}, which is not in shard 1/2",
            outside.iter().min().unwrap()
        )));
}

/// A checkpoint that fails its checks is called a checkpoint, by
/// `--checkpoint`, `merge` and `status` alike; a shard record's refusals
/// keep their words.
#[test]
fn a_refused_checkpoint_is_called_a_checkpoint() {
    let dir = scratch("checkpoint-words");
    let checkpoint = finished_checkpoint(&dir);
    let resume = |path: &Path| {
        common::refusal([
            "12".as_ref(),
            "--count".as_ref(),
            "--checkpoint".as_ref(),
            path.as_os_str(),
        ])
    };
    let truncated = dir.join("z.json");
    fs::write(&truncated, "{").unwrap();
    assert_eq!(
        resume(&truncated),
        format!(
            "queens-simd: error: checkpoint {} is not a JSON checkpoint: EOF while parsing an object at line 1 column 1\n",
            truncated.display()
        )
    );
    let record = shard_files(&dir, 12, 1).remove(0);
    assert!(
        resume(&record).ends_with(" is a queens-simd shard record, not a queens-simd checkpoint\n")
    );
    edit_text(&checkpoint, "\"version\": 4", "\"version\": 9");
    assert!(resume(&checkpoint).ends_with(
        " is a queens-simd checkpoint of version 9; this version reads only version 4\n"
    ));
    // Given to merge as a record, it is a checkpoint.
    edit_text(&checkpoint, "\"version\": 9", "\"version\": 4");
    merge_refuses(
        std::slice::from_ref(&checkpoint),
        &checkpoint,
        "is a queens-simd checkpoint, not a queens-simd shard record",
    );
    // In a campaign's folder.
    edit_text(&checkpoint, "\"version\": 4", "\"version\": 9");
    let report = stdout_of(&["status", dir.to_str().unwrap()]);
    assert!(
        report.contains(&format!(
            "refused: {} is a queens-simd checkpoint of version 9;",
            checkpoint.display()
        )),
        "{report}"
    );
    assert!(
        report.contains(&format!(
            "refused: {} is not a JSON record: EOF",
            truncated.display()
        )),
        "{report}"
    );
    // Too large to be one: a checkpoint to resume from is called so, a
    // file of a folder either.
    let huge = dir.join("huge.json");
    fs::File::create(&huge)
        .unwrap()
        .set_len(queens_simd_cli::files::MAX_RECORD_BYTES + 1)
        .unwrap();
    assert!(
        resume(&huge).ends_with(" bytes or more, over the 16777216 a checkpoint can have\n"),
        "{}",
        resume(&huge)
    );
    let report = stdout_of(&["status", dir.to_str().unwrap()]);
    assert!(
        report.contains(" bytes or more, over the 16777216 a record or checkpoint can have"),
        "{report}"
    );
}

#[cfg(unix)]
#[test]
fn links_planted_beside_a_checkpoint_are_not_followed() {
    use std::os::unix::fs::symlink;
    let dir = scratch("planted-links");
    let victim = dir.join("victim.txt");
    fs::write(&victim, "precious\n").unwrap();
    let checkpoint = dir.join("count.json");
    // The issue's case: a link at FILE.tmp.
    let tmp = dir.join("count.json.tmp");
    symlink(&victim, &tmp).unwrap();
    queens()
        .args(["12", "--count", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success()
        .stdout("14200\n");
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(fs::symlink_metadata(&tmp).unwrap().file_type().is_symlink());
    // No temporary file is left behind.
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".tmp") && name != "count.json.tmp")
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // A link at the lock file is refused, not followed.
    let lock = dir.join("other.json.lock");
    symlink(&victim, &lock).unwrap();
    queens()
        .args(["12", "--count", "--checkpoint"])
        .arg(dir.join("other.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "other.json.lock is a symbolic link",
        ))
        .stderr(predicate::str::contains("symbolic links (os error").not());
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");

    // A link at the checkpoint itself is refused, not followed, and left
    // as it was.
    let linked = dir.join("linked.json");
    symlink(&victim, &linked).unwrap();
    queens()
        .args(["12", "--count", "--checkpoint"])
        .arg(&linked)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("linked.json is a symbolic link"));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(!dir.join("linked.json.lock").exists());
}

/// `queens-simd ARGS` in `dir`: its status, stdout and stderr.
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Process::new(binary())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 54: one rule for every file a count writes. A `--output` or a
/// `--checkpoint` that is a symbolic link is refused (status 2, one line
/// naming it), whatever it points to: a file that is not ours, a
/// checkpoint, nothing. The file it names, the link and the folder stay as
/// they were. A folder reached through a link is not refused.
#[cfg(unix)]
#[test]
fn a_written_path_that_is_a_link_is_refused_and_its_file_untouched() {
    use std::os::unix::fs::symlink;
    let dir = scratch("written-links");
    let victim = dir.join("passwd");
    fs::write(&victim, "root:x:0:0\n").unwrap();
    queens()
        .current_dir(&dir)
        .args(["12", "--count", "--checkpoint", "done.json"])
        .assert()
        .success();
    let done = fs::read(dir.join("done.json")).unwrap();
    symlink(&victim, dir.join("to-victim.json")).unwrap();
    symlink("done.json", dir.join("to-done.json")).unwrap();
    symlink("nowhere.json", dir.join("to-nothing.json")).unwrap();
    let names = || {
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let before = names();
    for link in ["to-victim.json", "to-done.json", "to-nothing.json"] {
        for flag in ["--output", "--checkpoint"] {
            let (status, out, err) = run_in(&dir, &["12", "--count", flag, link]);
            assert_eq!((status, out.as_str()), (2, ""), "{flag} {link}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(&format!("{link} is a symbolic link")), "{err}");
        }
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "root:x:0:0\n");
    assert_eq!(fs::read(dir.join("done.json")).unwrap(), done);
    assert_eq!(names(), before);
    // `/dev/stdout` is a link too: the message says how to get stdout.
    let (status, _, err) = run_in(&dir, &["12", "--count", "--output", "/dev/stdout"]);
    assert_eq!(status, 2, "{err}");
    assert!(
        err.contains("leave out --output to write to stdout"),
        "{err}"
    );
    // Through a linked folder, both are written where they are.
    let real = dir.join("real");
    fs::create_dir(&real).unwrap();
    symlink(&real, dir.join("scratch")).unwrap();
    let (status, out, err) = run_in(
        &dir,
        &[
            "12",
            "--count",
            "--checkpoint",
            "scratch/c.json",
            "--output",
            "scratch/total.txt",
        ],
    );
    assert_eq!((status, out.as_str()), (0, ""), "{err}");
    assert_eq!(
        fs::read_to_string(real.join("total.txt")).unwrap(),
        "14200\n"
    );
    assert!(real.join("c.json").is_file());
}

/// Issue 54: `--output` and `--checkpoint` are compared as files, not as
/// text: `./x.json` and `x.json`, `sub/../x.json`, and a hard link to the
/// checkpoint are each one file, refused before anything is written.
#[cfg(unix)]
#[test]
fn output_and_checkpoint_are_compared_as_files() {
    let dir = scratch("same-file");
    fs::create_dir(dir.join("sub")).unwrap();
    let same = [
        ("x.json", "./x.json"),
        ("x.json", "sub/../x.json"),
        ("./sub/y.json", "sub/y.json"),
    ];
    for (checkpoint, output) in same {
        let args = [
            "12",
            "--count",
            "--checkpoint",
            checkpoint,
            "--output",
            output,
        ];
        let (status, _, err) = run_in(&dir, &args);
        assert_eq!(status, 2, "{args:?}: {err}");
        assert!(err.contains("name the same file"), "{err}");
    }
    assert!(fs::read_dir(&dir).unwrap().count() == 1, "only sub/");
    // A hard link is the same file by its device and inode.
    queens()
        .current_dir(&dir)
        .args(["12", "--count", "--checkpoint", "c.json"])
        .assert()
        .success();
    fs::hard_link(dir.join("c.json"), dir.join("h.json")).unwrap();
    let before = fs::read(dir.join("c.json")).unwrap();
    let args = [
        "12",
        "--count",
        "--checkpoint",
        "c.json",
        "--output",
        "h.json",
    ];
    let (status, _, err) = run_in(&dir, &args);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("name the same file"), "{err}");
    assert_eq!(fs::read(dir.join("h.json")).unwrap(), before);
    // Two files are two files.
    let args = [
        "12",
        "--count",
        "--checkpoint",
        "c.json",
        "--output",
        "t.txt",
    ];
    assert_eq!(run_in(&dir, &args).0, 0);
}

/// Issue 54: a `--output` or checkpoint whose folder is missing, or is a
/// file, or cannot be written, is refused before any count with status 2,
/// naming the file asked for and the folder at fault, never the
/// temporary file's hidden name.
#[cfg(unix)]
#[test]
fn an_output_that_cannot_be_created_names_the_file_asked_for() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("cannot-create");
    fs::write(dir.join("afile"), "").unwrap();
    for (path, why) in [
        ("nodir/x.json", "folder nodir does not exist"),
        ("sub/../y.json", "folder sub does not exist"),
        ("afile/y.json", "afile is not a folder"),
    ] {
        for flag in ["--output", "--checkpoint"] {
            let (status, _, err) = run_in(&dir, &["12", "--count", flag, path]);
            assert_eq!(status, 2, "{flag} {path}: {err}");
            assert!(
                err.contains(&format!("{path} cannot be created: {why}")),
                "{err}"
            );
        }
    }
    // A folder this user cannot write in (as root, the child runs as
    // nobody, whom the folder's mode keeps out).
    let locked = dir.join("locked");
    fs::create_dir(&locked).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o555)).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let mut command = Process::new(binary());
    command
        .current_dir(&dir)
        .args(["12", "--count", "--output", "locked/x.json"]);
    common::child::as_nobody_if_root(&mut command);
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--output locked/x.json cannot be created: Permission denied"),
        "{err}"
    );
    assert!(!err.contains(".tmp") && !err.contains("at path"), "{err}");
    assert_eq!(fs::read_dir(&locked).unwrap().count(), 0);
}

/// Issue 54: a result that cannot be written names where it was going:
/// stdout, or the `--output` file (here past a file-size limit, as on a
/// full disk: status 1, the file left as it was).
#[cfg(unix)]
#[test]
fn a_failed_write_names_where_the_result_was_going() {
    let dir = scratch("failed-write");
    let out = Process::new(binary())
        .args(["12", "--count"])
        .stdout(
            fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write output to stdout: No space left"),
        "{err}"
    );
    fs::write(dir.join("list.txt"), "as it was").unwrap();
    let mut command = Process::new(binary());
    command
        .current_dir(&dir)
        .args(["10", "--format", "columns", "--output", "list.txt"]);
    common::child::with_file_size_limit(&mut command, 1000);
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write output to list.txt: File too large"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(dir.join("list.txt")).unwrap(),
        "as it was"
    );
}

#[cfg(unix)]
#[test]
fn a_finished_count_survives_a_failed_last_write() {
    let dir = scratch("disk-full");
    let checkpoint = dir.join("count.json");
    // Files this process writes may grow to 1500 bytes: enough for the
    // first checkpoint of N = 12 (nothing done yet), too little for the
    // last (646 counts). Writing past it fails with EFBIG, as on a full
    // disk, once SIGXFSZ is ignored.
    let limit = 1500;
    let mut command = Process::new(binary());
    command
        .args(["12", "--count", "--checkpoint"])
        .arg(&checkpoint);
    common::child::with_file_size_limit(&mut command, limit);
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // The total stands; status 1 says that the checkpoint is behind.
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "14200\n");
    assert!(
        err.contains("the count is finished, but checkpoint") && err.contains("could not be saved"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // The first checkpoint is there and whole; no temporary file is left.
    let first = fs::read(&checkpoint).unwrap();
    assert!((first.len() as u64) < limit);
    let earlier = Checkpoint::parse(&first, &mut Plans::default()).unwrap();
    assert!(earlier.tally.is_empty());
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    // Resuming from it gives the right count.
    queens()
        .args(["12", "--count", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success()
        .stdout("14200\n");
}

/// A disk that fills as a count ends loses no counting: the total is on
/// stderr, in the line that says the result could not be written, with
/// whether the checkpoint holds it all; when it does, running the same
/// command again only writes the result.
#[cfg(unix)]
#[test]
fn a_full_disk_at_the_end_keeps_the_count() {
    let dir = scratch("disk-full-end");
    let expected = read_record(&shard_files(&dir, 12, 2)[0]).count;
    let checkpoint = dir.join("count.json");
    let record = dir.join("shard-0.json");
    // Room for the first checkpoint (nothing done), not for the last, nor
    // for the record.
    let mut command = Process::new(binary());
    command
        .args(["12", "--count", "--shard", "0/2", "--checkpoint"])
        .arg(&checkpoint)
        .arg("--output")
        .arg(&record);
    common::child::with_file_size_limit(&mut command, 1000);
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!record.exists());
    assert!(
        err.ends_with(&format!(
            "; the count is finished: shard 0/2 of N = 12 has {expected} solutions, but checkpoint {} could not be saved either\n",
            checkpoint.display()
        )),
        "{err}"
    );
    // Where the checkpoint is saved and the result is not (stdout on a
    // full disk), the rerun resumes from all of it.
    fs::remove_file(&checkpoint).unwrap();
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Process::new(binary())
        .args(["12", "--count", "--shard", "0/2", "--checkpoint"])
        .arg(&checkpoint)
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "queens-simd: error: cannot write output to stdout: No space left on device (os error 28); the count is finished: shard 0/2 of N = 12 has {expected} solutions, all in checkpoint {}: run the same command again to write the result\n",
            checkpoint.display()
        )
    );
    let rerun = queens()
        .args(["12", "--count", "--shard", "0/2", "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success()
        .stderr(format!(
            "queens-simd: resuming from checkpoint {}: 323 of 323 subproblems done\n",
            checkpoint.display()
        ))
        .get_output()
        .stdout
        .clone();
    let rerun = ShardRecord::parse(&rerun, &mut Plans::default()).unwrap();
    assert_eq!((rerun.count, rerun.attempts), (expected, 2));
}

#[test]
fn two_runs_on_one_checkpoint_are_kept_apart() {
    let dir = scratch("two-runs");
    let checkpoint = dir.join("count.json");
    let n = common::slow_n();
    let second = common::second_run_while_first_holds(&checkpoint, &checkpoint);
    assert_eq!(second.status.code(), Some(2), "{second:?}");
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("is in use by another run"), "{err}");
    assert!(second.stdout.is_empty());
    // Once the first is gone, the checkpoint is free again.
    let resumed = stdout_of(&[
        &n.to_string(),
        "--count",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]);
    assert_eq!(resumed, format!("{}\n", A000170[n]));
}

#[test]
fn each_checkpoint_is_one_write() {
    let Some(strace) = common::tool("strace") else {
        return;
    };
    let dir = scratch("one-write");
    let checkpoint = dir.join("count.json");
    let log = dir.join("strace.log");
    let out = Process::new(strace)
        .args([
            "-f",
            "-y",
            "-e",
            "trace=write,writev,pwrite64,rename,renameat,renameat2",
            "-o",
        ])
        .arg(&log)
        .arg(binary())
        .args([
            "12",
            "--count",
            "--threads",
            "1",
            "--checkpoint-interval",
            "0",
            "--checkpoint",
        ])
        .arg(&checkpoint)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let log = fs::read_to_string(&log).unwrap();
    let writes = log
        .lines()
        .filter(|l| l.contains("write") && l.contains(".tmp>"))
        .count();
    let renames = log.lines().filter(|l| l.contains("rename")).count();
    assert!(renames > 100, "{renames} checkpoints");
    assert_eq!(writes, renames, "one write per checkpoint");
}

#[cfg(unix)]
#[test]
fn a_path_with_a_newline_is_still_one_line() {
    let dir = scratch("newline");
    let odd = dir.join("two\nlines.json");
    fs::write(&odd, "not a record").unwrap();
    for args in [
        vec!["merge".to_owned(), odd.display().to_string()],
        vec![
            "12".to_owned(),
            "--count".to_owned(),
            "--checkpoint".to_owned(),
            odd.display().to_string(),
        ],
    ] {
        let err = common::refusal(&args);
        assert!(err.contains("two\\nlines.json"), "{err}");
    }
}

/// The `method` field: required, one of the known methods, and the plan's own (a record of one method
/// edited to claim the other names a plan that is not this version's).
#[test]
fn the_method_field_is_checked() {
    let dir = scratch("method-field");
    let files = join_shard_files(&dir, 13, 2);
    merge(&files).success().stdout("73712\n");
    let original = fs::read_to_string(&files[0]).unwrap();
    assert!(original.contains("\"method\": \"join\""), "{original}");
    let method_line = original.lines().find(|l| l.contains("\"method\"")).unwrap();
    let cases: &[(&str, &str, &str)] = &[
        // (from, to, why): each with its checksum redone.
        (
            "\"method\": \"join\"",
            "\"method\": \"joins\"",
            "has method 'joins'; this version knows symmetric and join",
        ),
        ("\"method\": \"join\"", "\"method\": \"\"", "has method ''"),
        (
            "\"method\": \"join\"",
            "\"method\": \"JOIN\"",
            "has method 'JOIN'",
        ),
        ("\"method\": \"join\"", "\"method\": 1", "invalid type"),
        (
            "\"method\": \"join\"",
            "\"method\": null",
            "invalid type: null, expected a string",
        ),
        (
            "\"method\": \"join\"",
            "\"method\": \"symmetric\"",
            "but this version splits it as N = 13 (symmetric plan",
        ),
        (
            "\"method\": \"join\"",
            "\"method\": \"join\",\n  \"method\": \"join\"",
            "duplicate field `method`",
        ),
    ];
    for (from, to, why) in cases {
        fs::write(&files[0], &original).unwrap();
        edit_text(&files[0], from, to);
        rechecksum(&files[0]);
        merge_refuses(&files, &files[0], why);
    }
    // Without the field.
    fs::write(&files[0], original.replace(&format!("{method_line}\n"), "")).unwrap();
    rechecksum(&files[0]);
    merge_refuses(&files, &files[0], "missing field `method`");
    // Unchanged, it still merges.
    fs::write(&files[0], &original).unwrap();
    merge(&files).success().stdout("73712\n");
}

/// A join piece's count is any number, so a forged join record whose
/// arithmetic holds (one piece's count and the total raised by 1) passes
/// every check but a recount, which catches it.
#[test]
fn a_forged_join_record_is_caught_by_a_recount() {
    let dir = scratch("forged-join");
    let files = join_shard_files(&dir, 14, 3);
    merge(&files).success().stdout("365596\n");
    forge(&files[2], |r| change_first_count(r, |c| c + 1));
    merge(&files).success().stdout("365597\n");
    queens()
        .arg("merge")
        .args(&files)
        .args(["--recount", "1000", "--seed", "3"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(
            predicate::str::contains(files[2].display().to_string())
                .and(predicate::str::contains("recounted here with --seed 3")),
        );
    // A join checkpoint edited by hand is refused like a symmetric one.
    let checkpoint = dir.join("count.json");
    let path = checkpoint.to_str().unwrap();
    stdout_of(&["12", "--count", "--kernel", "join", "--checkpoint", path]);
    edit_text(&checkpoint, "\"count\": \"14200\"", "\"count\": \"14201\"");
    rechecksum(&checkpoint);
    queens()
        .args(["12", "--count", "--kernel", "join", "--checkpoint", path])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("says its count is 14201, but its"));
}

/// Every field a record carries is bounded: a record with a valid checksum
/// and an oversized field is refused by name, in one line, exit 2, before
/// merge keeps anything of it; one at the bound still merges.
#[test]
fn oversized_fields_are_refused_even_with_a_valid_checksum() {
    use queens_simd_cli::records::{MAX_CHECKSUM_BYTES, MAX_NAME_BYTES, MAX_TOTAL_DIGITS};
    let dir = scratch("oversized-fields");
    let files = shard_files(&dir, 12, 2);
    let original = fs::read_to_string(&files[0]).unwrap();
    // Forged through the library, checksum and all.
    forge(&files[0], |r| r.kernel = "k".repeat(MAX_NAME_BYTES));
    merge(&files).success().stdout("14200\n");
    forge(&files[0], |r| r.kernel = "k".repeat(MAX_NAME_BYTES + 1));
    merge_refuses(
        &files,
        &files[0],
        "has a \"kernel\" of 65 bytes, more than the 64 a record's kernel may have",
    );
    fs::write(&files[0], &original).unwrap();
    forge(&files[0], |r| r.kernel = "two\nlines".into());
    merge_refuses(
        &files,
        &files[0],
        "has a \"kernel\" with a control character",
    );
    // Edited as text, checksum redone: (from, to, why).
    let zeros = "0".repeat(MAX_NAME_BYTES);
    let fingerprint = read_record(&files[1]).plan.fingerprint;
    let long_plan = fingerprint.repeat(5);
    let long_count = format!("\"count\": \"{}", "1".repeat(MAX_TOTAL_DIGITS));
    let long_method = format!("\"method\": \"{}", "m".repeat(MAX_NAME_BYTES));
    let cases: &[(&str, &str, &str)] = &[
        (
            "\"shard\": \"0/2\"",
            &format!("\"shard\": \"{zeros}0/2\""),
            "has a \"shard\" of 67 bytes",
        ),
        (&fingerprint, &long_plan, "has a \"plan\" of 80 bytes"),
        (
            "\"count\": \"",
            &long_count,
            "more than the 39 digits of the largest 128-bit number",
        ),
        ("\"method\": \"", &long_method, "has a \"method\" of "),
    ];
    for (from, to, why) in cases {
        fs::write(&files[0], &original).unwrap();
        edit_text(&files[0], from, to);
        rechecksum(&files[0]);
        merge_refuses(&files, &files[0], why);
    }
    // The checksum itself, and a format nobody writes (named, shortened).
    fs::write(&files[0], &original).unwrap();
    edit_text(
        &files[0],
        "\"checksum\": \"sha256:",
        &format!("\"checksum\": \"sha256:{}", "0".repeat(MAX_CHECKSUM_BYTES)),
    );
    merge_refuses(
        &files,
        &files[0],
        "has a \"checksum\" of 199 bytes, more than the 128",
    );
    fs::write(&files[0], &original).unwrap();
    edit_text(
        &files[0],
        "\"queens-simd shard\"",
        &format!("\"{}\"", "f".repeat(1 << 20)),
    );
    let err = common::refusal(["merge".as_ref(), files[0].as_os_str()]);
    assert!(
        err.contains(&format!(
            "is a {} record, not a queens-simd shard record",
            "f".repeat(40)
        )),
        "{err}"
    );
    assert!(err.len() < 300, "{err}");
    // More counts than a plan of 646 subproblems can have, checksum redone.
    fs::write(&files[0], &original).unwrap();
    edit_text(
        &files[0],
        "\"counts\": \"",
        &format!("\"counts\": \"{}", "1,".repeat(646 * 17)),
    );
    rechecksum(&files[0]);
    merge_refuses(
        &files,
        &files[0],
        "more than the 21318 that 646 counts of at most 32 hex digits take",
    );
    fs::write(&files[0], &original).unwrap();
    merge(&files).success().stdout("14200\n");
}

/// `queens-simd merge FILES` run under a limit on its address space of
/// [`MERGE_MEMORY_BOUND`] (`ulimit -v`): its exit status and its stderr. A
/// merge that took more would fail to allocate and abort (134). (The peak
/// resident memory `wait4` reports would not do: a child's counts its
/// parent's, this test's, from before the `exec`.)
#[cfg(target_os = "linux")]
fn merge_within_bound(files: &[PathBuf]) -> (i32, String) {
    let out = Process::new("sh")
        .arg("-c")
        .arg("ulimit -v \"$0\" && exec \"$@\"")
        .arg((MERGE_MEMORY_BOUND >> 10).to_string())
        .arg(binary())
        .arg("merge")
        .args(files)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), err)
}

/// What merge may take whatever the files, as address space: the binary,
/// one file of [`MAX_RECORD_BYTES`] and a copy of its largest field, with
/// room to spare (a 15 MiB kernel name needs between 32 and 48 MiB).
/// Twenty files of which merge kept a kernel name each took 372 MB.
#[cfg(target_os = "linux")]
const MERGE_MEMORY_BOUND: u64 = 8 * MAX_RECORD_BYTES;

#[cfg(target_os = "linux")]
use queens_simd_cli::files::MAX_RECORD_BYTES;

/// Hostile files as large as a record can be, twenty at a time (links to
/// one file): merge refuses or reads them within the memory of one
/// ([`MERGE_MEMORY_BOUND`]), never of all, and a file or a line past the
/// limit is refused without being read.
#[cfg(target_os = "linux")]
#[test]
fn merges_memory_does_not_grow_with_hostile_files() {
    let dir = scratch("hostile-memory");
    let files = shard_files(&dir, 12, 1);
    let honest = fs::read_to_string(&files[0]).unwrap();
    let twenty = |path: &Path| -> Vec<PathBuf> {
        (0..20)
            .map(|i| {
                let link = dir.join(format!(
                    "{i}-{}",
                    path.file_name().unwrap().to_str().unwrap()
                ));
                fs::hard_link(path, &link).unwrap();
                link
            })
            .collect()
    };
    let limit = MAX_RECORD_BYTES as usize;
    // A 15 MiB kernel name with a valid checksum: refused at the first.
    let kernel = dir.join("kernel.json");
    fs::write(&kernel, &honest).unwrap();
    forge(&kernel, |r| r.kernel = "k".repeat(15 << 20));
    let links = twenty(&kernel);
    let (code, err) = merge_within_bound(&links);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("has a \"kernel\" of 15728640 bytes, more than the 64"),
        "{err}"
    );
    // A valid record padded with 15 MiB of spaces (which its checksum
    // does not cover): all twenty read, in the memory of one, and merged
    // as one count (the others are links to its file).
    let padded = dir.join("padded.json");
    let spaces = " ".repeat((15 << 20) - honest.len());
    fs::write(
        &padded,
        honest.replacen("\"kernel\"", &format!("{spaces}\"kernel\""), 1),
    )
    .unwrap();
    merge(std::slice::from_ref(&padded))
        .success()
        .stdout("14200\n");
    let links = twenty(&padded);
    let (code, err) = merge_within_bound(&links);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is the same file as"), "{err}");
    assert!(
        err.ends_with("and 14 more duplicates, each counted once\n"),
        "{err}"
    );
    // A file just under the limit of eight million tiny JSON values: the
    // first look at its format skips them without building them (a
    // `serde_json::Value` of it took 282 MB).
    let values = dir.join("values.json");
    let zeros = "0,".repeat((limit - 16) / 2);
    fs::write(&values, format!("{{\"x\":[{zeros}0]}}")).unwrap();
    assert!(fs::metadata(&values).unwrap().len() <= MAX_RECORD_BYTES);
    let (code, err) = merge_within_bound(&twenty(&values));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not a queens-simd shard record"), "{err}");
    // One line one byte past the limit (a compact record padded inside
    // its kernel name): refused by its size, without being read.
    let line = dir.join("line.json");
    let compact =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&honest).unwrap())
            .unwrap();
    let long = compact.replacen(
        "\"kernel\":\"",
        &format!("\"kernel\":\"{}", "k".repeat(limit + 1 - compact.len())),
        1,
    );
    assert_eq!((long.len(), long.lines().count()), (limit + 1, 1));
    fs::write(&line, long).unwrap();
    let (code, err) = merge_within_bound(&twenty(&line));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("has 16777217 bytes or more, over the 16777216 a record can have"),
        "{err}"
    );
}
