//! Cross-checked campaigns: `merge` accepts two records of one shard when
//! every count agrees (and counts the shard once), stops when they
//! disagree or a recount proves a record wrong (exit status 3, the JSON
//! object printed all the same), counts a record read twice (a link, a
//! copy) once as a duplicate, prints one JSON object with `--format json`,
//! and recounts a sample of join pieces by a plain search with
//! `--recount-by search`.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{A000170, kernels_under_test, queens, scratch, stdout_of};
use predicates::prelude::*;
use queens_simd::Kernel;
use queens_simd::kernel::Method;
use queens_simd_cli::records::{Plans, ShardRecord, Tally};

/// N of the join records: the smallest N that `auto` counts with a join
/// kernel, a fraction of a second for the whole board.
const N: usize = 14;

/// `queens-simd N --count --kernel KERNEL --shard I/M`, written to `dir`.
fn record(dir: &Path, kernel: &str, shard: &str) -> PathBuf {
    let json = stdout_of(&[
        &N.to_string(),
        "--count",
        "--kernel",
        kernel,
        "--shard",
        shard,
    ]);
    let path = dir.join(format!("{kernel}-{}.json", shard.replace('/', "-of-")));
    fs::write(&path, json).unwrap();
    path
}

/// A folder in `dir` for a second run's records (`again`), made if need be.
fn again(dir: &Path) -> PathBuf {
    let again = dir.join("again");
    fs::create_dir_all(&again).unwrap();
    again
}

/// The three shards of N by the portable join.
fn three_shards(dir: &Path) -> Vec<PathBuf> {
    (0..3)
        .map(|i| record(dir, "join", &format!("{i}/3")))
        .collect()
}

/// The join kernels this CPU runs besides the portable `join` (a kernel it
/// does not run is skipped as every test skips it, a failure under
/// `QUEENS_SIMD_REQUIRE_ALL=1` unless allowed).
fn other_join_kernels() -> Vec<Kernel> {
    kernels_under_test()
        .into_iter()
        .filter(|k| k.method() == Some(Method::Join) && *k != Kernel::Join)
        .collect()
}

/// `queens-simd merge FILES ARGS`.
fn merge(files: &[PathBuf], args: &[&str]) -> assert_cmd::assert::Assert {
    queens().arg("merge").args(files).args(args).assert()
}

/// The stderr of a run that fails with `code`, checked to be one line
/// starting `queens-simd: error: ` with nothing on stdout.
fn one_line_error(assert: assert_cmd::assert::Assert, code: i32) -> String {
    let out = assert.code(code).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("queens-simd: error: "), "{err}");
    err
}

/// The error line of a recount that fails with `code`: the last line on
/// stderr, after what the recount said it would do (and what the
/// cross-checks found, if any); nothing on stdout.
fn recount_error(assert: assert_cmd::assert::Assert, code: i32) -> String {
    let out = assert.code(code).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    let [before @ .., recounting, error] = &lines[..] else {
        panic!("{err}")
    };
    assert!(
        before.iter().all(|l| l.contains("counted twice")) && before.len() <= 1,
        "{err}"
    );
    assert!(recounting.starts_with("queens-simd: recounting "), "{err}");
    assert!(error.starts_with("queens-simd: error: "), "{err}");
    format!("{error}\n")
}

fn read(path: &Path) -> ShardRecord {
    ShardRecord::parse(&fs::read(path).unwrap(), &mut Plans::default()).unwrap()
}

/// Writes `record` to `path` with `index`'s count changed by `change` and
/// its total with it, sealed with a fresh checksum: a forgery only a
/// cross-check or a recount can catch.
fn forge(mut record: ShardRecord, index: usize, change: i128, path: &Path) {
    let mut tally = Tally::empty(record.plan.subproblems);
    for (at, count) in record.tally.iter() {
        let count = if at == index {
            count.checked_add_signed(change).unwrap()
        } else {
            count
        };
        assert!(tally.insert(at, count));
    }
    record.count = tally.total().unwrap();
    record.tally = tally;
    fs::write(path, record.to_bytes()).unwrap();
    // It passes every check of its own.
    read(path);
}

#[test]
fn agreeing_records_of_one_shard_are_a_cross_check_and_count_once() {
    let dir = scratch("merge-cross-check");
    let mut files = three_shards(&dir);
    let total = format!("{}\n", A000170[N]);
    // No duplicate: the total alone, nothing on stderr.
    merge(&files, &[])
        .success()
        .stdout(total.clone())
        .stderr("");
    // Shard 1/3 again, by every other join kernel here; by the portable
    // join a second time where there is none (another run, another time).
    let others = other_join_kernels();
    let mut kernels: Vec<&str> = vec!["join"];
    if others.is_empty() {
        // A new run: another record (its seconds differ), the same counts.
        files.push(record(&again(&dir), "join", "1/3"));
    }
    for kernel in &others {
        files.push(record(&dir, kernel.name(), "1/3"));
        kernels.push(kernel.name());
    }
    kernels.sort_unstable();
    let copies = files.len() - 2;
    let times = if copies == 2 {
        "twice".to_owned()
    } else {
        format!("up to {copies} times")
    };
    let by = match kernels.split_last() {
        Some((last, [])) => format!("by {last} each time"),
        Some((last, rest)) => format!("by {} and {last}", rest.join(", ")),
        None => unreachable!(),
    };
    let said = format!(
        "queens-simd: of the 3 shards, 1 was counted {times}, {by}, and the counts agree\n"
    );
    merge(&files, &[])
        .success()
        .stdout(total.clone())
        .stderr(said);
    // Every shard twice: each counted once in the total.
    let mut all = files.clone();
    let second = again(&dir);
    all.extend([
        record(&second, "join", "0/3"),
        record(&second, "join", "2/3"),
    ]);
    merge(&all, &[])
        .success()
        .stdout(total)
        .stderr(predicate::str::starts_with(
            "queens-simd: of the 3 shards, 3 were counted",
        ));
}

#[test]
fn records_of_one_shard_that_disagree_are_refused_with_status_3() {
    let dir = scratch("merge-disagree");
    let files = three_shards(&dir);
    let honest = read(&files[1]);
    let (index, count) = honest.tally.iter().nth(2).unwrap();
    let forged = dir.join("forged-1-of-3.json");
    forge(honest, index, 2, &forged);
    let with = [files.clone(), vec![forged.clone()]].concat();
    let err = one_line_error(merge(&with, &[]), 3);
    let expected = format!(
        "queens-simd: error: {} (join) and {} (join) both count shard 1/3 of N = {N}, and disagree: subproblem {index} has {count} solutions in the first and {} in the second\n",
        files[1].display(),
        forged.display(),
        count + 2
    );
    assert_eq!(err, expected);
    // Read in the other order, the forgery is named first.
    let reversed = [vec![forged.clone()], files.clone()].concat();
    let err = one_line_error(merge(&reversed, &[]), 3);
    assert!(
        err.contains(&format!(
            "{} solutions in the first and {count} in",
            count + 2
        )),
        "{err}"
    );
    // As JSON: the object all the same, the disagreement named, and the
    // one line on stderr.
    let out = merge(&with, &["--format", "json"])
        .code(3)
        .stderr(expected.clone())
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["agree"], false, "{json}");
    assert!(
        json["count"].is_null() && json["count_text"].is_null(),
        "{json}"
    );
    assert_eq!(json["records"], 4);
    assert_eq!(json["cross_checked"], 1);
    let disagreement = &json["disagreement"];
    assert_eq!(disagreement["shard"], "1/3");
    assert_eq!(disagreement["subproblem"], index);
    assert!(disagreement["recount"].is_null(), "{json}");
    let said: Vec<(String, String)> = disagreement["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap().to_owned(),
                r["count_text"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        said,
        [
            (files[1].display().to_string(), count.to_string()),
            (forged.display().to_string(), (count + 2).to_string())
        ]
    );
    // A file wrong in itself is named first, wherever it is.
    let damaged = dir.join("damaged.json");
    let text = fs::read_to_string(&files[2]).unwrap();
    fs::write(
        &damaged,
        text.replacen("\"count\": \"", "\"count\": \"1", 1),
    )
    .unwrap();
    let err = one_line_error(merge(&[with, vec![damaged.clone()]].concat(), &[]), 2);
    assert!(err.contains("does not match its checksum"), "{err}");
}

/// A record read again, by its own path, another path to its file or a
/// copy, is one count: merged once, said once on stderr and in the JSON,
/// never a cross-check (the rule `status` follows).
#[cfg(unix)]
#[test]
fn a_record_read_twice_or_copied_is_one_count() {
    use std::os::unix::ffi::OsStrExt;

    let dir = scratch("merge-twice");
    let files = three_shards(&dir);
    let total = format!("{}\n", A000170[N]);
    let shown = |p: &Path| p.display().to_string();
    let said = |extra: &[PathBuf], lines: String| {
        merge(&[files.clone(), extra.to_vec()].concat(), &[])
            .success()
            .stdout(total.clone())
            .stderr(lines);
    };
    said(
        std::slice::from_ref(&files[1]),
        format!(
            "queens-simd: {} is named twice: counted once\n",
            shown(&files[1])
        ),
    );
    // Through other paths to the same file: dotted, a hard and a
    // symbolic link.
    let dotted = dir.join(".").join("join-1-of-3.json");
    let hard = dir.join("hard-link.json");
    fs::hard_link(&files[1], &hard).unwrap();
    let soft = dir.join("soft-link.json");
    std::os::unix::fs::symlink(&files[2], &soft).unwrap();
    for (other, of) in [(&dotted, &files[1]), (&hard, &files[1]), (&soft, &files[2])] {
        said(
            std::slice::from_ref(other),
            format!(
                "queens-simd: {} is the same file as {}: counted once\n",
                shown(other),
                shown(of)
            ),
        );
    }
    // A copy, named as a shell reaches it.
    let copy = dir.join(std::ffi::OsStr::from_bytes(b"nu-bad\xff\x01\".json"));
    fs::copy(&files[0], &copy).unwrap();
    let quoted = format!("$'{}/nu-bad\\xff\\x01\".json'", dir.display());
    said(
        std::slice::from_ref(&copy),
        format!(
            "queens-simd: {quoted} holds the same record as {}: counted once\n",
            shown(&files[0])
        ),
    );
    let reached = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("cmp -- {quoted} {}", shown(&files[0])))
        .status()
        .unwrap();
    assert!(reached.success());
    // All of them, as JSON: named in the order read, none a cross-check.
    let every = [
        files.clone(),
        vec![copy, hard, soft, dotted, files[1].clone(), files[2].clone()],
    ]
    .concat();
    let out = merge(&every, &["--format", "json"])
        .success()
        .stderr(predicate::str::ends_with(
            "queens-simd: and 1 more duplicate, each counted once\n",
        ))
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["count_text"], A000170[N].to_string());
    assert_eq!(
        (json["records"].clone(), json["cross_checked"].clone()),
        (3.into(), 0.into())
    );
    assert_eq!(json["agree"], true);
    let duplicates = json["duplicates"].as_array().unwrap();
    let hows: Vec<&str> = duplicates
        .iter()
        .map(|d| d["how"].as_str().unwrap())
        .collect();
    assert_eq!(
        hows,
        [
            "copy",
            "same file",
            "same file",
            "same file",
            "named twice",
            "named twice"
        ]
    );
    assert_eq!(duplicates[0]["file"], quoted);
    assert_eq!(duplicates[0]["same_as"], shown(&files[0]));
}

#[test]
fn records_of_different_shardings_that_overlap_are_refused_as_before() {
    let dir = scratch("merge-overlap");
    let files = three_shards(&dir);
    let quarter = record(&dir, "join", "0/4");
    let err = one_line_error(
        merge(&[files.clone(), vec![quarter.clone()]].concat(), &[]),
        2,
    );
    assert!(err.contains("is counted twice: by "), "{err}");
    assert!(err.contains("(shard 0/3) and by "), "{err}");
    assert!(
        err.contains(&format!("{} (shard 0/4)", quarter.display())),
        "{err}"
    );
}

#[test]
fn format_json_is_one_object_with_the_count_as_text() {
    let dir = scratch("merge-json");
    let mut files = three_shards(&dir);
    let plain = stdout_of(&[
        "merge",
        files[0].to_str().unwrap(),
        files[1].to_str().unwrap(),
        files[2].to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(plain.lines().count(), 1, "{plain}");
    let json: serde_json::Value = serde_json::from_str(&plain).unwrap();
    let first: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&files[0]).unwrap()).unwrap();
    assert_eq!(json["n"], N);
    assert_eq!(json["plan"], first["plan"]);
    assert_eq!(json["method"], "join");
    assert_eq!(json["subproblems"], first["subproblems_in_plan"]);
    assert_eq!(json["shards"], 3);
    assert_eq!(json["records"], 3);
    assert_eq!(json["count"], u64::try_from(A000170[N]).unwrap());
    assert_eq!(json["count_text"], A000170[N].to_string());
    assert_eq!(json["cross_checked"], 0);
    assert_eq!(json["cross_check_kernels"], serde_json::json!([]));
    assert_eq!(json["duplicates"], serde_json::json!([]));
    assert_eq!(json["agree"], true);
    assert!(json.get("recounted").is_none(), "{json}");
    assert!(json.get("disagreement").is_none(), "{json}");
    // A cross-check and a recount.
    files.push(record(&again(&dir), "join", "2/3"));
    let out = merge(
        &files,
        &[
            "--format",
            "json",
            "--recount",
            "3",
            "--seed",
            "18446744073709551615",
        ],
    )
    .success()
    .stderr(predicate::str::contains("recounting 3 of the"))
    .get_output()
    .stdout
    .clone();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(json["records"], 4);
    assert_eq!(json["shards"], 3);
    assert_eq!(json["cross_checked"], 1);
    assert_eq!(json["cross_check_kernels"], serde_json::json!(["join"]));
    assert_eq!(json["recounted"], 3);
    assert_eq!(json["recount_by"], "plan");
    assert_eq!(json["seed"], u64::MAX);
    assert_eq!(json["seed_text"], u64::MAX.to_string());
    assert_eq!(json["agree"], true);
    // Errors stay one line on stderr.
    let err = one_line_error(merge(&files[..2], &["--format", "json"]), 2);
    assert!(err.contains("are in no file"), "{err}");
}

#[test]
fn a_recount_by_search_agrees_with_honest_records_and_catches_a_forgery() {
    let dir = scratch("merge-search");
    let files = three_shards(&dir);
    let total = format!("{}\n", A000170[N]);
    // Every piece of the plan, by search: the whole board's search, quick
    // at N = 14.
    merge(&files, &["--recount", "100000", "--recount-by", "search"])
        .success()
        .stdout(total.clone())
        .stderr(
            predicate::str::contains("by a plain search, chosen with --seed")
                .and(predicate::str::contains("recounted subproblems agree")),
        );
    // A forged record, sealed: its arithmetic holds, the search finds it.
    let honest = read(&files[0]);
    let (index, count) = honest.tally.iter().nth(1).unwrap();
    forge(honest, index, -1, &files[0]);
    merge(&files, &[])
        .success()
        .stdout(format!("{}\n", A000170[N] - 1));
    let err = recount_error(
        merge(
            &files,
            &[
                "--recount",
                "100000",
                "--recount-by",
                "search",
                "--seed",
                "7",
            ],
        ),
        3,
    );
    assert_eq!(
        err,
        format!(
            "queens-simd: error: {} says subproblem {index} has {} solutions, but it has {count} (recounted here by a plain search with --seed 7)\n",
            files[0].display(),
            count - 1
        )
    );
    // A second record of the shard, forged alike: the cross-check passes,
    // the recount says that both are wrong.
    let twin = record(&again(&dir), "join", "0/3");
    forge(read(&twin), index, -1, &twin);
    let with_twin = [files.clone(), vec![twin]].concat();
    let err = recount_error(
        merge(
            &with_twin,
            &["--recount", "100000", "--recount-by", "search"],
        ),
        3,
    );
    assert!(
        err.ends_with("; the 1 other record of shard 0/3 says the same\n"),
        "{err}"
    );
    // The plan's kernel finds it too.
    let err = recount_error(merge(&files, &["--recount", "100000"]), 3);
    assert!(
        err.contains(&format!("but it has {count} (recounted here with")),
        "{err}"
    );
    // As JSON, by either: the object all the same, the piece named with
    // both records of its shard and the recount's count.
    for by in ["plan", "search"] {
        let args = [
            "--recount",
            "100000",
            "--recount-by",
            by,
            "--seed",
            "7",
            "--format",
            "json",
        ];
        let out = merge(&with_twin, &args)
            .code(3)
            .stderr(predicate::str::contains("queens-simd: error: "))
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(json["agree"], false, "{json}");
        assert!(json["count"].is_null(), "{json}");
        assert_eq!(
            (json["recount_by"].clone(), json["seed"].clone()),
            (by.into(), 7.into())
        );
        let disagreement = &json["disagreement"];
        assert_eq!(disagreement["shard"], "0/3");
        assert_eq!(disagreement["subproblem"], index);
        assert_eq!(disagreement["recount"]["by"], by);
        assert_eq!(disagreement["recount"]["count_text"], count.to_string());
        let records = disagreement["records"].as_array().unwrap();
        assert_eq!(records.len(), 2, "{json}");
        assert_eq!(records[0]["file"], files[0].display().to_string());
        assert_eq!(records[1]["count_text"], (count - 1).to_string());
    }
}

#[test]
fn a_search_recount_of_a_few_pieces_of_n_16_agrees() {
    // A few pieces of N = 16 by search, on the records of the fastest join
    // kernel here: K small keeps it under about a second (printed).
    let dir = scratch("merge-search-16");
    let files: Vec<PathBuf> = (0..2)
        .map(|i| {
            let json = stdout_of(&["16", "--count", "--shard", &format!("{i}/2")]);
            let path = dir.join(format!("shard-{i}.json"));
            fs::write(&path, json).unwrap();
            path
        })
        .collect();
    let start = std::time::Instant::now();
    merge(
        &files,
        &["--recount", "4", "--recount-by", "search", "--seed", "1"],
    )
    .success()
    .stdout(format!("{}\n", A000170[16]))
    .stderr(predicate::str::contains(
        "the 4 recounted subproblems agree",
    ));
    eprintln!("4 pieces of N = 16 by search: {:?}", start.elapsed());
}

#[test]
fn a_recount_by_search_needs_a_join_plan_and_no_memory_limit() {
    let dir = scratch("merge-search-symmetric");
    let files: Vec<PathBuf> = (0..2)
        .map(|i| record(&dir, "symmetric", &format!("{i}/2")))
        .collect();
    let err = one_line_error(
        merge(&files, &["--recount", "2", "--recount-by", "search"]),
        2,
    );
    assert!(
        err.contains("--recount-by search recounts the pieces of a join plan, but these records are of N = 14's symmetric plan"),
        "{err}"
    );
    merge(&files, &["--recount", "2", "--recount-by", "plan"])
        .success()
        .stdout(format!("{}\n", A000170[N]));
    let err = one_line_error(
        merge(
            &files,
            &[
                "--recount",
                "2",
                "--recount-by",
                "search",
                "--max-memory",
                "1G",
            ],
        ),
        2,
    );
    assert!(
        err.contains("--recount-by search allocates nothing"),
        "{err}"
    );
    let err = one_line_error(merge(&files, &["--recount-by", "search"]), 2);
    assert!(err.contains("--recount-by goes with --recount"), "{err}");
}
