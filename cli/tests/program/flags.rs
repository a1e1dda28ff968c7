//! Every combination of flags is honoured or refused with one line: none is
//! silently dropped. The tables below are the contract; the matrices try
//! every flag against every mode.

use crate::common;

use common::queens;
use predicates::prelude::*;
use queens_simd_cli::records::{Checkpoint, PlanId};

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
    &["--check"],
];

/// `flag` as [`SOLVE_FLAGS`] gives it, with its value.
fn given(flag: &str) -> &'static [&'static str] {
    SOLVE_FLAGS.iter().find(|f| f[0] == flag).unwrap()
}

#[test]
fn kernels_takes_nothing_else() {
    // --format json (issue 47) is the one flag it takes.
    let others = SOLVE_FLAGS.iter().filter(|f| f[0] != "--format");
    for flag in others.chain(&[&["--verify"][..], &["20"]]) {
        let mut args = vec!["--kernels"];
        args.extend_from_slice(flag);
        refused(&args, "--kernels takes no");
    }
    for format in ["board", "columns", "hex"] {
        refused(
            &["--kernels", "--format", format],
            &format!("--format {format} does not apply to --kernels; only --format json does"),
        );
        refused(
            &["--verify", "--max-n", "3", "--format", format],
            &format!("--format {format} does not apply to --verify; only --format json does"),
        );
    }
    queens()
        .args(["--kernels", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("{\"kernels\":[{\"name\":"));
}

#[test]
fn verify_takes_max_n_only() {
    let others = SOLVE_FLAGS
        .iter()
        .filter(|f| !["--max-n", "--format"].contains(&f[0]));
    for flag in others {
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
    queens()
        .args(["--verify", "--max-n", "3", "--format", "json"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with(",\"agree\":true}\n"));
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
    refused(
        &["merge", "a.json", "--recount-by", "search"],
        "--recount-by goes with --recount",
    );
    refused(
        &["merge", "a.json", "--format", "board"],
        "invalid value 'board' for '--format <FORMAT>'",
    );
    refused(
        &[
            "merge",
            "a.json",
            "--recount",
            "2",
            "--recount-by",
            "search",
            "--max-memory",
            "1G",
        ],
        "--recount-by search allocates nothing",
    );
}

#[test]
fn status_takes_its_own_options_only() {
    for flag in SOLVE_FLAGS {
        let mut args: Vec<&str> = flag.to_vec();
        args.extend(["status", "campaign"]);
        refused(&args, "does not apply to status");
    }
    refused(
        &["12", "status", "campaign"],
        "status takes a campaign's folder, not N",
    );
    for (words, why) in [
        (&["--count"][..], "unexpected argument '--count'"),
        (&["--recount", "2"], "unexpected argument '--recount'"),
        (&["--threads", "2"], "unexpected argument '--threads'"),
        (&["--fresh", "-1"], "--fresh must be a number of seconds"),
        (&["--fresh", "nan"], "--fresh must be a number of seconds"),
        (&["--fresh", "1e9"], "--fresh must be a number of seconds"),
        (&["--format", "board"], "invalid value 'board'"),
        (&["other"], "unexpected argument 'other'"),
    ] {
        let args = [&["status", "campaign"][..], words].concat();
        refused(&args, why);
    }
    refused(&["status"], "required");
    // Each of its options changes what it prints: none is dropped.
    let dir = common::scratch("flags-status");
    common::shard_files(&dir, 8, 2);
    let dir = dir.to_str().unwrap();
    let plain = common::stdout_of(&["status", dir]);
    let json = common::stdout_of(&["status", dir, "--format", "json"]);
    assert_eq!(
        common::stdout_of(&["status", dir, "--format", "text"]),
        plain
    );
    assert!(
        plain.starts_with("campaign ") && json.starts_with('{'),
        "{plain}{json}"
    );
    // A checkpoint of shard 0/2 with one subproblem counted, beating now.
    let plan =
        queens_simd::plan::Plan::with_method(queens_simd::kernel::Method::Symmetric, 8).unwrap();
    let shard = queens_simd::plan::Shard::new(0, 2).unwrap();
    let first = plan.shard(shard)[0];
    let mut begun = Checkpoint::start(PlanId::of(&plan), shard, 0.5);
    let count = queens_simd::dispatch::count_subproblem(
        queens_simd::Kernel::Auto,
        plan.get(first).unwrap(),
    )
    .unwrap();
    begun.tally.insert(first, count);
    begun.count = count;
    let checkpoint = std::path::Path::new(dir).join("c.json");
    std::fs::write(&checkpoint, begun.to_bytes()).unwrap();
    std::fs::remove_file(std::path::Path::new(dir).join("shard-0-of-2.json")).unwrap();
    let fresh = common::stdout_of(&["status", dir]);
    let stale = common::stdout_of(&["status", dir, "--fresh", "0"]);
    assert!(fresh.contains("1 running, 0 stalled"), "{fresh}");
    assert!(stale.contains("0 running, 1 stalled"), "{stale}");
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
        let row_sets = if draws == "1" { "row set" } else { "row sets" };
        assert!(
            lines[0].starts_with(&format!(
                "N = {n}: {draws} {row_sets} drawn with --seed {seed}, each counted by join"
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
        let verdict = if draws == 1 {
            "the 1 row set agrees: ".to_owned()
        } else {
            format!("all {draws} agree: ")
        };
        assert!(lines[draws + 1].starts_with(&verdict), "{text}");
    }
    // N = 25's band: three queens, in columns 11 to 13.
    let text = common::stdout_of(&["25", "--count", "--sample", "1", "--check", "--seed", "7"]);
    assert!(
        text.contains(", 11) (") && text.contains(", 13)]"),
        "{text}"
    );
}

/// `--sample K --check --format json`: one JSON object of every row set
/// checked, its two counts and whether they agree (issue 46: it printed
/// the text and exited 0).
#[test]
fn a_checked_sample_prints_json_when_asked() {
    let args = [
        "14", "--count", "--sample", "4", "--check", "--seed", "1", "--format", "json",
    ];
    let json: serde_json::Value = serde_json::from_str(&common::stdout_of(&args)).unwrap();
    let text = common::stdout_of(&args[..7]);
    assert_eq!(json["n"], 14);
    assert_eq!(
        (json["draws"].clone(), json["seed_text"].clone()),
        (4.into(), "1".into())
    );
    let row_sets = json["row_sets"].as_array().unwrap();
    assert_eq!(row_sets.len(), 4);
    let mut total = 0;
    for (row_set, line) in row_sets.iter().zip(text.lines().skip(1)) {
        assert_eq!(row_set["join_text"], row_set["search_text"], "{row_set}");
        assert_eq!(row_set["agree"], true);
        let rows: Vec<String> = row_set["west_rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.to_string())
            .collect();
        // The same row sets as the text, in the same order.
        let search = row_set["search"].as_u64().unwrap();
        assert!(
            line.contains(&format!(
                "west rows {}: join {search}, search {search}",
                rows.join(" ")
            )),
            "{line}"
        );
        total += search;
    }
    assert_eq!(json["solutions_text"], total.to_string());
    assert_eq!(json["agree"], true);
    assert!(
        text.ends_with(&format!("all 4 agree: {total} solutions in all\n")),
        "{text}"
    );
}

/// One flag of the pair sweep: its words, the flags it needs to mean
/// anything (added after the pair where missing), and how to see it
/// honoured.
struct Flag {
    words: &'static [&'static str],
    needs: &'static [&'static [&'static str]],
    seen: Seen,
}

/// How a flag that was accepted shows that it was honoured.
enum Seen {
    /// The output (status, stdout, stderr, the checkpoint file) differs
    /// from the same command without the flag.
    Removed,
    /// The output differs from the same command with this value instead.
    Value(&'static str),
    /// Nothing printed shows it (threads, a progress bar that is never
    /// drawn off a terminal, the interval of checkpoint writes, the
    /// kernel of a count printed as text): the tests of each flag hold it
    /// to its effect; here it is only refused or not.
    Unseen,
}

const CHECKPOINT: &str = "pairs-checkpoint.json";

const OUTPUT: &str = "pairs-output.txt";

const PAIR_FLAGS: &[Flag] = &[
    Flag {
        words: &["--count"],
        needs: &[],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--unique"],
        needs: &[],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--format", "json"],
        needs: &[],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--kernel", "join"],
        needs: &[],
        seen: Seen::Unseen,
    },
    Flag {
        words: &["--kernels"],
        needs: &[],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--verify"],
        needs: &[&["--max-n", "3"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--max-n", "4"],
        needs: &[&["--verify"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--threads", "2"],
        needs: &[&["--count"]],
        seen: Seen::Unseen,
    },
    Flag {
        words: &["--shard", "0/1"],
        needs: &[&["--count"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--checkpoint", CHECKPOINT],
        needs: &[&["--count"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--checkpoint-interval", "1"],
        needs: &[&["--count"], &["--checkpoint", CHECKPOINT]],
        seen: Seen::Unseen,
    },
    Flag {
        words: &["--quiet"],
        needs: &[&["--count"]],
        seen: Seen::Unseen,
    },
    Flag {
        words: &["--max-memory", "1G"],
        needs: &[&["--count"]],
        seen: Seen::Value("1"),
    },
    Flag {
        words: &["--time"],
        needs: &[],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--sample", "3"],
        needs: &[&["--count"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--seed", "1"],
        needs: &[&["--count"], &["--sample", "3"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--check"],
        needs: &[&["--count"], &["--sample", "3"], &["--seed", "1"]],
        seen: Seen::Removed,
    },
    Flag {
        words: &["--output", OUTPUT],
        needs: &[],
        seen: Seen::Removed,
    },
    // N = 14's join plan: another fingerprint refuses the count.
    Flag {
        words: &["--expect-plan", "f1b36211944b410c"],
        needs: &[&["--count"]],
        seen: Seen::Value("0123456789abcdef"),
    },
    // Seen only where another run holds the lock (cli/tests/program/script.rs).
    Flag {
        words: &["--skip-if-locked"],
        needs: &[&["--count"], &["--checkpoint", CHECKPOINT]],
        seen: Seen::Unseen,
    },
];

/// Floats in `text` as `#` (times, and projections from them), digits
/// too where `all_digits`: what changes from run to run.
fn steady(text: &[u8], all_digits: bool) -> String {
    let text = String::from_utf8_lossy(text);
    let mut steady = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_digit() {
            steady.push(c);
            continue;
        }
        let mut number = c.to_string();
        while let Some(&next) = chars.peek() {
            let point = next == '.' && !number.contains('.');
            let exponent = number.contains('.')
                && (next == 'e' || number.ends_with('e') && (next == '-' || next == '+'));
            if !(next.is_ascii_digit() || point || exponent) {
                break;
            }
            number.push(next);
            chars.next();
        }
        let float = number.contains('.');
        steady.push_str(if all_digits || float { "#" } else { &number });
    }
    steady
}

/// Every pair of flags, on N = 6 and on a count of N = 14 (where
/// `--sample` applies), each with the flags it needs: the pair is refused
/// with status 2 and one line, or each flag of it is honoured ([`Seen`]).
/// A flag accepted and dropped leaves the output as it is without it.
#[test]
fn no_pair_of_flags_is_silently_dropped() {
    // Every flag of the command line is in the sweep: a new one must be
    // added to it.
    use clap::CommandFactory;
    for argument in queens_simd_cli::args::Args::command().get_arguments() {
        if let Some(long) = argument
            .get_long()
            .filter(|l| !["help", "version"].contains(l))
        {
            let flag = format!("--{long}");
            assert!(
                PAIR_FLAGS.iter().any(|f| f.words[0] == flag),
                "{flag} is not in PAIR_FLAGS"
            );
        }
    }
    let mut shown = Shown::new(common::scratch("flag-pairs"));
    let mut pairs = Vec::new();
    for (n, base) in [("6", &[][..]), ("14", &["--count"][..])] {
        // With --count always given, it is not one of the pair: without
        // it, N = 14 would list 365,596 solutions.
        let flags: Vec<&Flag> = PAIR_FLAGS
            .iter()
            .filter(|f| !base.contains(&f.words[0]))
            .collect();
        for (at, a) in flags.iter().enumerate() {
            for b in &flags[at + 1..] {
                pairs.push((pair_words(n, base, a, b), [*a, *b]));
            }
        }
    }
    // Every pair, then the commands that judging the pairs that ran
    // compares them with, then the judging, which finds them all run.
    shown.run_all(pairs.iter().map(|(words, _)| words.clone()));
    let compared: Vec<Vec<&str>> = pairs
        .iter()
        .filter(|(words, _)| shown.get(words).0 == Some(0))
        .flat_map(|(words, pair)| without_each(words, *pair))
        .map(|(_, other)| other)
        .collect();
    shown.run_all(compared);
    let mut verdicts = Verdicts::default();
    for (words, pair) in &pairs {
        let out = shown.get(words);
        verdicts.judge(words, *pair, (out.0, &out.2), &out, |w| shown.get(w));
    }
    // Issue 47: --format json applies to the tables of --kernels and
    // --verify; the sweep ran those pairs (the same words, so they do not
    // run again) and found them honoured.
    let json_tables = [
        &["--format", "json", "--kernels"][..],
        &["--format", "json", "--verify", "--max-n", "3"],
        &["--format", "json", "--max-n", "4", "--verify"],
    ]
    .map(<[&str]>::to_vec);
    shown.run_all(json_tables.clone());
    for words in &json_tables {
        assert_eq!(shown.get(words).0, Some(0), "{words:?}");
    }
    let Verdicts { honoured, dropped } = verdicts;
    assert!(dropped.is_empty(), "accepted and dropped: {dropped:#?}");
    // The sweep tries what it says: most pairs that make sense run.
    assert!(honoured >= 60, "only {honoured} pairs were honoured");
}

/// What the pair sweeps found: the pairs run, and each flag accepted and
/// dropped (the output the same without it).
#[derive(Default)]
struct Verdicts {
    honoured: usize,
    dropped: Vec<String>,
}

impl Verdicts {
    /// Judges the run of a pair's `words`, whose exit status and stderr
    /// are `shown` and whole output `out`: refused with status 2 and one
    /// line, or run with status 0 and each flag of the pair seen ([`Seen`]),
    /// which `run` (the same command without it) tells.
    fn judge<T: PartialEq + std::fmt::Debug>(
        &mut self,
        words: &[&str],
        pair: [&Flag; 2],
        shown: (Option<i32>, &str),
        out: &T,
        mut run: impl FnMut(&[&str]) -> T,
    ) {
        let (status, stderr) = shown;
        if status == Some(2) {
            assert_eq!(stderr.lines().count(), 1, "{words:?}: {stderr}");
            return;
        }
        assert_eq!(status, Some(0), "{words:?}: {out:?}");
        self.honoured += 1;
        for (flag, other) in without_each(words, pair) {
            if run(&other) == *out {
                self.dropped.push(format!("{flag} in {words:?}"));
            }
        }
    }
}

/// The commands a pair's run `words` is compared with: for each flag of
/// the pair whose effect shows ([`Seen`]), the same command without it, or
/// with its other value.
fn without_each<'a>(words: &[&'a str], pair: [&Flag; 2]) -> Vec<(&'static str, Vec<&'a str>)> {
    pair.iter()
        .filter_map(|flag| {
            let other = match flag.seen {
                Seen::Removed => without(words, flag.words[0], None),
                Seen::Value(value) => without(words, flag.words[0], Some(value)),
                Seen::Unseen => return None,
            };
            Some((flag.words[0], other))
        })
        .collect()
}

/// What a command of the pair sweep showed: its status, stdout, stderr,
/// whether it wrote the checkpoint, and what it wrote to `--output`'s file.
type Outcome = (Option<i32>, String, String, bool, String);

/// The pair sweep's commands and what each showed, each command run once.
/// They run [`Shown::WIDTH`] at a time, each worker in a folder of its own
/// (the commands name the same checkpoint and output files).
struct Shown {
    dir: std::path::PathBuf,
    seen: std::collections::HashMap<Vec<String>, Outcome>,
}

impl Shown {
    /// More workers than a 2-core machine has cores: a `--time` run takes
    /// its 1.5 s of the clock however busy the CPU is, and the sweep has
    /// fifteen of them.
    const WIDTH: usize = 8;

    fn new(dir: std::path::PathBuf) -> Shown {
        Shown {
            dir,
            seen: Default::default(),
        }
    }

    /// What `words` showed; it must have been run.
    fn get(&self, words: &[&str]) -> Outcome {
        let key: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        self.seen
            .get(&key)
            .unwrap_or_else(|| panic!("{words:?} was not run"))
            .clone()
    }

    /// Runs each of `commands` not run before.
    fn run_all<'a>(&mut self, commands: impl IntoIterator<Item = Vec<&'a str>>) {
        let mut todo: Vec<Vec<String>> = Vec::new();
        for words in commands {
            let key: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            if !self.seen.contains_key(&key) && !todo.contains(&key) {
                todo.push(key);
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let done: Vec<(Vec<String>, Outcome)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..Self::WIDTH)
                .map(|worker| {
                    let (todo, next) = (&todo, &next);
                    let dir = self.dir.join(format!("worker-{worker}"));
                    scope.spawn(move || {
                        std::fs::create_dir_all(&dir).unwrap();
                        let mut done = Vec::new();
                        loop {
                            let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(words) = todo.get(at) else {
                                break done;
                            };
                            done.push((words.clone(), run_in(&dir, words)));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|worker| worker.join().unwrap())
                .collect()
        });
        self.seen.extend(done);
    }
}

/// Runs `words` in `dir`, with no checkpoint or output file left there
/// by an earlier command.
fn run_in(dir: &std::path::Path, words: &[String]) -> Outcome {
    let (checkpoint, output) = (dir.join(CHECKPOINT), dir.join(OUTPUT));
    let _ = std::fs::remove_file(&checkpoint);
    let _ = std::fs::remove_file(&output);
    let mut command = std::process::Command::new(common::binary());
    common::yielding_when_timed(&mut command, words);
    let out = command.current_dir(dir).args(words).output().unwrap();
    (
        out.status.code(),
        steady(&out.stdout, false),
        steady(&out.stderr, true),
        checkpoint.exists(),
        steady(&std::fs::read(&output).unwrap_or_default(), false),
    )
}

/// `N BASE… A B` with what each needs, or without N and BASE for the
/// modes that take none (`--kernels`, `--verify`).
fn pair_words<'a>(n: &'a str, base: &[&'a str], a: &Flag, b: &Flag) -> Vec<&'a str> {
    let modes = [a, b]
        .iter()
        .any(|f| ["--kernels", "--verify"].contains(&f.words[0]));
    let mut words: Vec<&str> = if modes {
        vec![]
    } else {
        [&[n][..], base].concat()
    };
    // The pair first, then what each needs and the command lacks.
    for flag in [a, b] {
        if !words.contains(&flag.words[0]) {
            words.extend_from_slice(flag.words);
        }
    }
    for needed in a.needs.iter().chain(b.needs) {
        if !words.contains(&needed[0]) {
            words.extend_from_slice(needed);
        }
    }
    words
}

/// `words` without `flag` (and its value), or with `value` for it.
fn without<'a>(words: &[&'a str], flag: &'a str, value: Option<&'a str>) -> Vec<&'a str> {
    let at = words.iter().position(|w| *w == flag).unwrap();
    let takes_value = words.get(at + 1).is_some_and(|w| !w.starts_with("--"));
    let mut other = words[..at].to_vec();
    if let Some(value) = value {
        other.extend([flag, value]);
    }
    other.extend_from_slice(&words[at + 1 + usize::from(takes_value)..]);
    other
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
                queens_simd::kernel::Task::Count,
                8
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
    for kernel in queens_simd::kernel::Method::Join.kernels().rev() {
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

/// Each of merge's own flags, as [`PAIR_FLAGS`] gives the others.
const MERGE_PAIR_FLAGS: &[Flag] = &[
    Flag {
        words: &["--recount", "2"],
        needs: &[],
        seen: Seen::Value("3"),
    },
    Flag {
        words: &["--seed", "3"],
        needs: &[&["--recount", "2"]],
        seen: Seen::Value("4"),
    },
    Flag {
        words: &["--threads", "2"],
        needs: &[&["--recount", "2"]],
        seen: Seen::Unseen,
    },
    Flag {
        words: &["--max-memory", "1G"],
        needs: &[&["--recount", "2"]],
        seen: Seen::Value("1"),
    },
    Flag {
        words: &["--recount-by", "search"],
        needs: &[&["--recount", "2"]],
        seen: Seen::Value("plan"),
    },
    Flag {
        words: &["--format", "json"],
        needs: &[],
        seen: Seen::Value("text"),
    },
];

/// Every pair of merge's own flags on the two shards of N = 14's join
/// plan, each with the flags it needs: refused with status 2 and one line,
/// or each flag of it honoured ([`Seen`]), as for the other flags.
#[test]
fn no_pair_of_merge_flags_is_silently_dropped() {
    use clap::CommandFactory;
    let command = queens_simd_cli::args::Args::command();
    let merge = command.find_subcommand("merge").unwrap();
    for argument in merge.get_arguments() {
        if let Some(long) = argument.get_long().filter(|l| *l != "help") {
            let flag = format!("--{long}");
            assert!(
                MERGE_PAIR_FLAGS.iter().any(|f| f.words[0] == flag),
                "{flag} is not in MERGE_PAIR_FLAGS"
            );
        }
    }
    let dir = common::scratch("merge-flag-pairs");
    for i in 0..2 {
        let json = common::stdout_of(&["14", "--count", "--shard", &format!("{i}/2")]);
        std::fs::write(dir.join(format!("s{i}.json")), json).unwrap();
    }
    let run = |words: &[&str]| -> (Option<i32>, String, String) {
        let out = queens()
            .current_dir(&dir)
            .args(["merge", "s0.json", "s1.json"])
            .args(words)
            .output()
            .unwrap();
        // A seed drawn afresh is no difference.
        let fresh = !words.contains(&"--seed");
        (
            out.status.code(),
            without_fresh_seed(&out.stdout, fresh),
            without_fresh_seed(&out.stderr, fresh),
        )
    };
    let mut verdicts = Verdicts::default();
    for (at, a) in MERGE_PAIR_FLAGS.iter().enumerate() {
        for b in &MERGE_PAIR_FLAGS[at + 1..] {
            let mut words: Vec<&str> = Vec::new();
            for needed in [a.words, b.words]
                .into_iter()
                .chain(a.needs.iter().copied())
                .chain(b.needs.iter().copied())
            {
                if !words.contains(&needed[0]) {
                    words.extend_from_slice(needed);
                }
            }
            let out = run(&words);
            verdicts.judge(&words, [a, b], (out.0, &out.2), &out, &run);
        }
    }
    let Verdicts { honoured, dropped } = verdicts;
    assert!(dropped.is_empty(), "accepted and dropped: {dropped:#?}");
    assert!(honoured >= 10, "only {honoured} pairs were honoured");
}

/// `text` with the digits of a seed that merge drew itself (`--seed N` on
/// stderr, `"seed":N` and `"seed_text":"N"` in JSON) as `#`, where `fresh`.
fn without_fresh_seed(text: &[u8], fresh: bool) -> String {
    let mut text = String::from_utf8_lossy(text).into_owned();
    if !fresh {
        return text;
    }
    for before in ["--seed ", "\"seed\":", "\"seed_text\":\""] {
        let mut from = 0;
        while let Some(at) = text[from..].find(before) {
            let start = from + at + before.len();
            let digits = text[start..].bytes().take_while(u8::is_ascii_digit).count();
            text.replace_range(start..start + digits, "#");
            from = start + 1;
        }
    }
    text
}
