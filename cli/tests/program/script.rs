//! `queens-simd script`: the batch scripts a campaign runs, derived from N,
//! the shard count and the node's shape. The committed examples are what
//! the command writes; each script is valid shell; every flag that does not
//! apply is refused. (CI's `.ci/batch-engines` runs them on a one-node
//! Slurm and with GNU parallel.)

use crate::common;

use std::process::Command;

use common::{binary, queens, refusal, refusal_in, scratch, stdout_of};

/// The command line an example's third line names (`#   queens-simd …`).
fn command_of(script: &str) -> Vec<String> {
    let line = script.lines().nth(2).expect("a script has a header");
    let words = line
        .strip_prefix("#   queens-simd ")
        .unwrap_or_else(|| panic!("the third line names no command: {line}"));
    words
        .split(' ')
        .map(|w| w.trim_matches('\'').to_owned())
        .collect()
}

#[test]
fn the_examples_are_what_the_command_writes() {
    for example in [
        "examples/batch/slurm-array.sh",
        "examples/batch/gnu-parallel.sh",
    ] {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join(example);
        let committed = std::fs::read_to_string(&path).unwrap();
        let words = command_of(&committed);
        let written = stdout_of(&words.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(
            written,
            committed,
            "{example} is not what `queens-simd {}` writes now: write it again",
            words.join(" ")
        );
    }
}

/// `bash -n` (or `sh -n`) accepts the script.
fn parses(shell: &str, script: &str) {
    let dir = scratch(&format!("script-parses-{shell}"));
    let path = dir.join("script.sh");
    std::fs::write(&path, script).unwrap();
    let status = Command::new(shell).arg("-n").arg(&path).status().unwrap();
    assert!(status.success(), "{shell} -n refuses:\n{script}");
}

#[test]
fn every_script_is_valid_shell() {
    for words in [
        &["script", "slurm", "14", "--shards", "4"][..],
        &[
            "script",
            "slurm",
            "24",
            "--shards",
            "3000",
            "--cores",
            "64",
            "--cross-check",
            "30",
        ],
        &[
            "script",
            "slurm",
            "20",
            "--shards",
            "7",
            "--max-running",
            "2",
            "--kernel",
            "join",
        ],
        &[
            "script",
            "slurm",
            "12",
            "--shards",
            "9",
            "--kernel",
            "symmetric-bmi",
            "--cross-check",
            "1",
        ],
    ] {
        parses("bash", &stdout_of(words));
    }
    for words in [
        &["script", "parallel", "14", "--shards", "4"][..],
        &[
            "script",
            "parallel",
            "20",
            "--shards",
            "16",
            "--hosts",
            "2/a,b@c:22,:",
            "--cross-check",
            "3",
        ],
    ] {
        parses("sh", &stdout_of(words));
    }
}

/// The value of `#SBATCH --NAME=` in `script`.
fn directive(script: &str, name: &str) -> String {
    let prefix = format!("#SBATCH --{name}=");
    script
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {prefix} in\n{script}"))
        .to_owned()
}

#[test]
fn the_array_stays_under_max_array_size() {
    let script = |shards: &str, extra: &[&str]| {
        let mut words = vec!["script", "slurm", "24", "--shards", shards];
        words.extend_from_slice(extra);
        stdout_of(&words)
    };
    // One count per task while they fit; past it, two or three a task.
    let s = script("1001", &[]);
    assert_eq!(directive(&s, "array"), "0-1000");
    assert!(s.contains("per_task=1 "));
    let s = script("1002", &[]);
    assert_eq!(directive(&s, "array"), "0-500");
    assert!(s.contains("per_task=2 "));
    let s = script("2048", &["--cross-check", "5", "--seed", "1"]);
    assert_eq!(directive(&s, "array"), "0-684");
    assert!(s.contains("per_task=3 "));
    let s = script("100", &["--max-array-size", "10", "--max-running", "4"]);
    assert_eq!(directive(&s, "array"), "0-9%4");
}

#[test]
fn threads_memory_and_time_are_derived() {
    // Without --memory: every core, the estimate and a margin.
    let s = stdout_of(&["script", "slurm", "14", "--shards", "4", "--cores", "2"]);
    assert_eq!(directive(&s, "cpus-per-task"), "2");
    assert_eq!(directive(&s, "time"), "12:00:00");
    assert_eq!(directive(&s, "signal"), "B:USR1@600");
    // With --memory: the threads that fit (N = 14: one thread about 25
    // MiB, two about 33), and all of it asked for.
    let s = stdout_of(&[
        "script", "slurm", "14", "--shards", "4", "--cores", "2", "--memory", "26M",
    ]);
    assert_eq!(directive(&s, "cpus-per-task"), "1");
    assert_eq!(directive(&s, "mem"), "26M");
    let s = stdout_of(&["script", "slurm", "14", "--shards", "4", "--time", "2"]);
    assert_eq!(directive(&s, "time"), "00:02:00");
    assert_eq!(directive(&s, "signal"), "B:USR1@60");
    let s = stdout_of(&["script", "slurm", "14", "--shards", "4", "--time", "1-00"]);
    assert_eq!(directive(&s, "time"), "1-00:00:00");
}

#[test]
fn cross_checks_are_chosen_by_the_seed_and_kernel() {
    let words = [
        "script",
        "slurm",
        "16",
        "--shards",
        "40",
        "--cross-check",
        "3",
        "--seed",
        "9",
    ];
    let a = stdout_of(&words);
    assert_eq!(a, stdout_of(&words), "the same seed writes the same script");
    assert!(a.contains("cross_kernel=join-avx2"));
    assert_eq!(directive(&a, "array"), "0-42");
    let chosen = a.lines().find(|l| l.starts_with("cross_shards=(")).unwrap();
    assert_eq!(chosen.split(' ').count(), 3, "{chosen}");
    // Without a seed one is drawn, and written in the script.
    let fresh = stdout_of(&words[..7]);
    assert!(fresh.contains(" --seed "), "{fresh}");
    // The default second kernel is never the first.
    let s = stdout_of(&[
        "script",
        "slurm",
        "16",
        "--shards",
        "4",
        "--kernel",
        "join-avx2",
        "--cross-check",
        "1",
    ]);
    assert!(s.contains("cross_kernel=join\n"), "{s}");
}

#[test]
fn what_does_not_apply_is_refused_in_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["script", "slurm", "24", "--shards", "0"],
            "--shards must be from 1",
        ),
        (
            &["script", "slurm", "14", "--shards", "100000"],
            "--shards 100000 would leave some shards nothing to count: N = 14's join plan has 241 subproblems; at most 241 shards",
        ),
        (&["script", "slurm", "33", "--shards", "4"], "33"),
        (
            &[
                "script", "slurm", "14", "--shards", "4", "--kernel", "sse41",
            ],
            "sse41",
        ),
        (
            &["script", "slurm", "14", "--shards", "4", "--hosts", "a"],
            "--hosts does not apply to script slurm",
        ),
        (
            &["script", "parallel", "14", "--shards", "4", "--time", "5"],
            "--time does not apply to script parallel",
        ),
        (
            &[
                "script",
                "parallel",
                "14",
                "--shards",
                "4",
                "--max-running",
                "5",
            ],
            "--max-running does not apply",
        ),
        (
            &["script", "slurm", "14", "--shards", "4", "--seed", "1"],
            "--seed goes with --cross-check",
        ),
        (
            &[
                "script",
                "slurm",
                "14",
                "--shards",
                "4",
                "--cross-kernel",
                "join",
            ],
            "--cross-kernel goes with --cross-check",
        ),
        (
            &[
                "script",
                "slurm",
                "14",
                "--shards",
                "4",
                "--cross-check",
                "5",
            ],
            "more shards than the 4 there are",
        ),
        (
            &[
                "script",
                "slurm",
                "14",
                "--shards",
                "4",
                "--cross-check",
                "1",
                "--cross-kernel",
                "symmetric",
            ],
            "does not count join plans",
        ),
        (
            &["script", "slurm", "14", "--shards", "4", "--time", "1"],
            "from 00:02:00 to 365 days",
        ),
        (
            &[
                "script", "slurm", "14", "--shards", "4", "--time", "1:2:3:4",
            ],
            "is not a Slurm time limit",
        ),
        (
            &["script", "slurm", "14", "--shards", "4", "--memory", "1M"],
            "on 1 thread needs about",
        ),
        (
            &[
                "script",
                "parallel",
                "14",
                "--shards",
                "4",
                "--hosts",
                "a;rm -rf ~",
            ],
            "is not a list of hosts",
        ),
        (
            &[
                "script",
                "slurm",
                "14",
                "--shards",
                "4",
                "--max-array-size",
                "0",
            ],
            "--max-array-size must be from 1",
        ),
        (
            &["14", "script", "slurm", "14", "--shards", "4"],
            "(see --help)",
        ),
        (
            &["--count", "script", "slurm", "14", "--shards", "4"],
            "--count does not apply to script",
        ),
        (&["script", "slurm", "14"], "--shards"),
        (&["script", "pbs", "14", "--shards", "4"], "pbs"),
    ];
    for (words, says) in cases {
        let line = refusal(*words);
        assert!(line.contains(says), "{words:?}: {line}");
    }
}

const SCRIPT_14: [&str; 5] = ["script", "slurm", "14", "--shards", "4"];

/// `--cross-kernel auto` was refused as one that "does not count join
/// plans", though auto is the shards' own kernel: it is no kernel of its
/// own, and each node would pick one when it runs.
#[test]
fn cross_kernel_auto_is_refused_for_what_it_is() {
    let script = SCRIPT_14;
    for extra in [&[][..], &["--kernel", "symmetric"]] {
        let mut words = script.to_vec();
        words.extend_from_slice(extra);
        words.extend_from_slice(&["--cross-check", "1", "--cross-kernel", "auto"]);
        let line = refusal(&words);
        assert!(line.contains("--cross-kernel auto "), "{line}");
        assert!(line.contains("; name one of "), "{line}");
        assert!(!line.contains("does not count"), "{line}");
    }
    let line = refusal(
        script
            .iter()
            .chain(&["--cross-check", "1", "--cross-kernel", "auto"]),
    );
    assert!(
        line.contains(
            "--cross-kernel auto leaves the kernel to each node, which may pick the shards' own"
        ),
        "{line}"
    );
}

/// A `--time` out of range is said as typed, and as it is read only where
/// that differs ("--time 00:00:30 is 00:00:30" was said).
#[test]
fn a_time_out_of_range_is_said_once() {
    let script = SCRIPT_14;
    for (time, says) in [
        (
            "00:00:30",
            "--time 00:00:30 is too short: a campaign's tasks take from 00:02:00 to 365 days",
        ),
        ("1", "--time 1 (00:01:00) is too short: "),
        ("366-0", "--time 366-0 (366-00:00:00) is too long: "),
    ] {
        let line = refusal(script.iter().chain(&["--time", time]));
        assert!(line.contains(says), "{time}: {line}");
    }
}

/// One is singular in what a script says and in its refusals: "1 shards",
/// "1 array tasks", "the 1 subproblems", "at most 1 shards" and "1 bytes"
/// were written.
#[test]
fn one_of_anything_is_singular() {
    let plural_one = |text: &str| {
        [
            "shards",
            "subproblems",
            "counts",
            "array tasks",
            "threads",
            "bytes",
        ]
        .iter()
        .find_map(|noun| {
            let bad = format!(" 1 {noun}");
            text.match_indices(&bad)
                .any(|(at, _)| !text[..at].ends_with(|c: char| c.is_ascii_digit() || c == '.'))
                .then_some(bad)
        })
    };
    let slurm = stdout_of(&["script", "slurm", "14", "--shards", "1"]);
    let crossed = stdout_of(&[
        "script",
        "slurm",
        "14",
        "--shards",
        "1",
        "--cross-check",
        "1",
        "--seed",
        "1",
    ]);
    let parallel = stdout_of(&[
        "script",
        "parallel",
        "14",
        "--shards",
        "1",
        "--cross-check",
        "1",
        "--seed",
        "1",
    ]);
    for (script, says) in [
        (&slurm, "# Q(14) in 1 shard as a Slurm array job"),
        (&slurm, "241 subproblems in 1 shard.\n"),
        (&slurm, "# 1 count in 1 array task, 1 count per task.\n"),
        (
            &crossed,
            "# 1 of them, chosen with --seed 1, is counted a second time",
        ),
        (&parallel, "241 subproblems in 1 shard, one job each"),
        (
            &parallel,
            "# 1 shard, chosen with --seed 1, is counted a second time",
        ),
    ] {
        assert!(script.contains(says), "{says}:\n{script}");
        assert_eq!(plural_one(script), None, "{script}");
    }
    for (words, says) in [
        (
            &["script", "slurm", "0", "--shards", "10"][..],
            "N = 0's symmetric plan has 1 subproblem; at most 1 shard\n",
        ),
        (
            &["script", "slurm", "14", "--shards", "4", "--memory", "1"],
            "more than --memory 1 byte;",
        ),
        (
            &[
                "script",
                "slurm",
                "14",
                "--shards",
                "1",
                "--cross-check",
                "2",
            ],
            "asks for more shards than the 1 there is\n",
        ),
        (
            &["20", "--count", "--kernel", "join", "--max-memory", "1"],
            "more than the --max-memory limit of 1 byte;",
        ),
    ] {
        let line = refusal(words);
        assert!(line.contains(says), "{words:?}: {line}");
        assert_eq!(plural_one(&line), None, "{line}");
    }
}

/// A folder whose name holds a space and a quote, with a link to this
/// build's binary in it: `QUEENS_SIMD` for a script.
fn binary_behind_a_space(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(name);
    let odd = dir.join("bin dir/it's");
    std::fs::create_dir_all(&odd).unwrap();
    let link = odd.join("queens-simd");
    std::os::unix::fs::symlink(binary(), &link).unwrap();
    (dir, link)
}

/// The GNU parallel script, run for real on this machine (`--hosts 1/:`)
/// with `QUEENS_SIMD` in a folder whose name holds a space and a quote:
/// each job's command is a shell's, so the path is quoted for it (it was
/// pasted bare, and every job failed).
#[test]
fn the_parallel_script_runs_a_binary_whose_path_holds_a_space() {
    if common::tool("parallel").is_none() {
        return;
    }
    let (dir, link) = binary_behind_a_space("script-parallel-space");
    script_in(
        &dir,
        "q8.sh",
        &["script", "parallel", "8", "--shards", "2", "--hosts", "1/:"],
    );
    let out = Command::new("sh")
        .arg("q8.sh")
        .current_dir(&dir)
        .env("QUEENS_SIMD", &link)
        .env_remove("HOSTS")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "92\n", "{stderr}");
}

/// The Slurm script quotes `$bin` wherever it runs it: its two array
/// tasks, run by hand as sbatch would, count N = 8 with a binary whose
/// path holds a space and a quote.
#[test]
fn the_slurm_script_runs_a_binary_whose_path_holds_a_space() {
    let (dir, link) = binary_behind_a_space("script-slurm-space");
    script_in(&dir, "q8.sh", &["script", "slurm", "8", "--shards", "2"]);
    for task in ["0", "1"] {
        let out = Command::new("bash")
            .arg("q8.sh")
            .current_dir(&dir)
            .env("QUEENS_SIMD", &link)
            .env("SLURM_ARRAY_TASK_ID", task)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "task {task}: {stderr}");
    }
    let records = [
        dir.join("records/shard-0.json"),
        dir.join("records/shard-1.json"),
    ];
    common::merge(&records).success().stdout("92\n");
}

/// A check that `script` shares with a count or `merge` names the flag
/// typed, not its namesake's (`--memory 0` was "--max-memory must be more
/// than 0 bytes", `--cores 0` "--threads must be from 1 to 4096").
/// (The unit tests of cli/src/args.rs run every shared check through
/// every flag.)
#[test]
fn script_messages_name_the_flags_as_typed() {
    for (flag, value, says, not) in [
        (
            "--memory",
            "0",
            "--memory must be more than 0 bytes",
            "--max-memory",
        ),
        (
            "--memory",
            "99999999T",
            "--memory '99999999T' is more than 2^64 bytes",
            "--max-memory",
        ),
        (
            "--memory",
            "1GB",
            "--memory must be a number of bytes",
            "--max-memory",
        ),
        (
            "--cores",
            "0",
            "--cores must be from 1 to 4096",
            "--threads",
        ),
    ] {
        let line = refusal(["script", "slurm", "20", "--shards", "4", flag, value]);
        assert!(line.contains(says), "{flag} {value}: {line}");
        assert!(!line.contains(not), "{flag} {value}: {line}");
    }
}

#[test]
fn a_result_in_a_file_is_whole_or_absent() {
    let dir = scratch("script-output");
    let record = dir.join("shard-1.json");
    // A count that succeeds: the record, as stdout would have it, and no
    // temporary file beside it.
    queens()
        .current_dir(&dir)
        .args([
            "14",
            "--count",
            "--shard",
            "1/4",
            "--output",
            "shard-1.json",
        ])
        .assert()
        .success()
        .stdout("");
    let written = std::fs::read_to_string(&record).unwrap();
    let printed = stdout_of(&["14", "--count", "--shard", "1/4"]);
    assert_eq!(steady(&written), steady(&printed));
    let names = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(), ["shard-1.json"]);
    // A count that fails (its memory refused) leaves the file as it was,
    // and nothing else.
    std::fs::write(&record, "not ours to lose").unwrap();
    queens()
        .current_dir(&dir)
        .args([
            "20",
            "--count",
            "--shard",
            "1/4",
            "--max-memory",
            "1M",
            "--output",
            "shard-1.json",
        ])
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        "not ours to lose"
    );
    assert_eq!(names(), ["shard-1.json"]);
    // Paths that cannot take a file are refused before any count.
    for (path, says) in [
        ("missing/x.json", "folder missing does not exist"),
        ("./", "names a directory"),
        ("/dev/null", "is not a regular file (a device)"),
    ] {
        let line = refusal(["14", "--count", "--output", path]);
        assert!(line.contains(says), "{path}: {line}");
    }
    let line = refusal([
        "14",
        "--count",
        "--checkpoint",
        "c.json",
        "--output",
        "c.json",
    ]);
    assert!(line.contains("name the same file"), "{line}");
    let line = refusal(["--kernels", "--output", "k.txt"]);
    assert!(line.contains("--output"), "{line}");
}

/// A record without what changes from run to run: its seconds, and so its
/// checksum.
fn steady(record: &str) -> serde_json::Value {
    let mut value: serde_json::Value = serde_json::from_str(record).unwrap();
    let object = value.as_object_mut().unwrap();
    // What differs between two runs of one count: its times.
    for key in ["seconds", "core_seconds", "checksum"] {
        object.remove(key).unwrap();
    }
    value
}

#[test]
fn a_killed_count_leaves_no_record_and_no_temporary_file() {
    let dir = scratch("script-output-killed");
    let mut child = Command::new(binary())
        .current_dir(&dir)
        .args([
            "17",
            "--count",
            "--threads",
            "1",
            "--shard",
            "0/1",
            "--output",
            "r.json",
        ])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// `script ARGS` run in `dir`, its stdout written to `dir/NAME`.
fn script_in(dir: &std::path::Path, name: &str, args: &[&str]) {
    let out = queens()
        .current_dir(dir)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    std::fs::write(dir.join(name), out).unwrap();
}

/// Runs `shell script` in `dir` with this build's binary, as Slurm's task
/// `task` where one is given: its status and stderr.
fn run_script(
    dir: &std::path::Path,
    shell: &str,
    script: &std::path::Path,
    task: Option<&str>,
) -> (Option<i32>, String) {
    let mut command = Command::new(shell);
    command
        .arg(script)
        .current_dir(dir)
        .env("QUEENS_SIMD", binary())
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env("HOSTS", "1/:")
        .stdin(std::process::Stdio::null());
    if let Some(task) = task {
        command.env("SLURM_ARRAY_TASK_ID", task);
    }
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A script is its campaign's: run from another folder (`cd elsewhere &&
/// sbatch ../camp/slurm-array.sh`) it counted there from nothing, though
/// the campaign had the shard in hand. Now it refuses in one line, status
/// 2, and creates nothing there; reached through a link to the folder, it
/// runs (the paths are compared physical).
#[test]
fn a_script_run_from_another_folder_is_refused() {
    let root = scratch("script-folder");
    let (camp, elsewhere) = (root.join("camp"), root.join("elsewhere"));
    std::fs::create_dir_all(&camp).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    script_in(&camp, "s.sh", &["script", "slurm", "8", "--shards", "2"]);
    script_in(
        &camp,
        "p.sh",
        &["script", "parallel", "8", "--shards", "2", "--hosts", "1/:"],
    );
    for (shell, script, task) in [("bash", "s.sh", Some("0")), ("sh", "p.sh", None)] {
        let (status, stderr) = run_script(&elsewhere, shell, &camp.join(script), task);
        assert_eq!(status, Some(2), "{script}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{script}: {stderr}");
        assert!(
            stderr.contains("this script counts the campaign in ")
                && stderr.contains("camp, but runs in "),
            "{script}: {stderr}"
        );
        assert_eq!(names_in(&elsewhere), Vec::<String>::new(), "{script}");
    }
    let link = root.join("link");
    std::os::unix::fs::symlink(&camp, &link).unwrap();
    let (status, stderr) = run_script(&link, "bash", &link.join("s.sh"), Some("1"));
    assert_eq!(status, Some(0), "{stderr}");
    assert!(camp.join("records/shard-1.json").is_file());
    // --folder names the campaign's folder where script does not run there.
    let line = stdout_of(&[
        "script",
        "slurm",
        "8",
        "--shards",
        "2",
        "--folder",
        "/scratch/q8",
    ]);
    assert!(line.contains("\nfolder='/scratch/q8'\n"), "{line}");
    assert!(line.contains(" --folder '/scratch/q8'\n"), "{line}");
}

/// Both scripts give each count the plan's fingerprint (`--expect-plan`),
/// and a count of another plan refuses, status 2, before it locks or
/// writes anything: the Slurm script compared only the `--version` string,
/// which stayed 0.1.0 while the plan changed, and the GNU parallel script
/// checked nothing.
#[test]
fn a_count_of_another_plan_is_refused_before_it_writes() {
    let slurm = stdout_of(&["script", "slurm", "14", "--shards", "4"]);
    let parallel = stdout_of(&["script", "parallel", "14", "--shards", "4"]);
    for script in [&slurm, &parallel] {
        assert!(script.contains("plan=f1b36211944b410c "), "{script}");
        assert!(script.contains("--expect-plan"), "{script}");
        assert!(!script.contains("expected="), "{script}");
    }
    let dir = scratch("script-other-plan");
    let line = refusal_in(
        &dir,
        [
            "14",
            "--count",
            "--shard",
            "0/4",
            "--expect-plan",
            "0123456789abcdef",
            "--checkpoint",
            "c.json",
            "--output",
            "r.json",
        ],
    );
    assert!(
        line.contains("--expect-plan 0123456789abcdef: this queens-simd ")
            && line.contains("counts N = 14 through join plan f1b36211944b410c"),
        "{line}"
    );
    assert_eq!(names_in(&dir), Vec::<String>::new());
    // The Slurm script's task, its plan another than this binary's.
    let other = slurm.replace("plan=f1b36211944b410c ", "plan=0123456789abcdef ");
    let folder = dir.to_str().unwrap();
    let other = other.replace(
        &format!(
            "folder={}",
            shell_quoted(&std::fs::canonicalize(common::ROOT).unwrap())
        ),
        &format!("folder='{folder}'"),
    );
    std::fs::write(dir.join("s.sh"), other).unwrap();
    let (status, stderr) = run_script(&dir, "bash", &dir.join("s.sh"), Some("0"));
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("--expect-plan 0123456789abcdef"),
        "{stderr}"
    );
    assert_eq!(names_in(&dir.join("checkpoints")), Vec::<String>::new());
    assert_eq!(names_in(&dir.join("records")), Vec::<String>::new());
    assert!(
        line_refused(&["14", "--count", "--expect-plan", "xyz"]).contains("16 hexadecimal digits")
    );
}

/// `path` single-quoted as the scripts write it.
fn shell_quoted(path: &std::path::Path) -> String {
    format!("'{}'", path.to_str().unwrap().replace('\'', r"'\''"))
}

fn line_refused(args: &[&str]) -> String {
    refusal(args)
}

/// A shard whose checkpoint another run holds (a second submission of
/// the array, two parallel runs) is skipped in one line naming the
/// checkpoint, status 0 and no record: its task was FAILED. Without
/// `--skip-if-locked` a count still refuses it.
#[test]
fn a_shard_locked_by_another_run_is_skipped() {
    let dir = scratch("script-locked");
    script_in(&dir, "s.sh", &["script", "slurm", "8", "--shards", "2"]);
    std::fs::create_dir_all(dir.join("checkpoints")).unwrap();
    let held = std::fs::File::create(dir.join("checkpoints/shard-0.json.lock")).unwrap();
    held.lock().unwrap();
    let (status, stderr) = run_script(&dir, "bash", &dir.join("s.sh"), Some("0"));
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("checkpoint checkpoints/shard-0.json is in use by another run")
            && stderr.contains("skipped (--skip-if-locked)"),
        "{stderr}"
    );
    assert_eq!(names_in(&dir.join("records")), Vec::<String>::new());
    let line = refusal_in(
        &dir,
        [
            "8",
            "--count",
            "--shard",
            "0/2",
            "--checkpoint",
            "checkpoints/shard-0.json",
        ],
    );
    assert!(line.contains("wait for it to finish"), "{line}");
    drop(held);
    let line = refusal(["8", "--count", "--skip-if-locked"]);
    assert!(
        line.contains("--skip-if-locked goes with --checkpoint"),
        "{line}"
    );
}

/// The header says what a task will do: with `--projection`, its
/// core-hours and its time on its threads; without, how to get one; what
/// a stop can lose; USR1 as man sbatch has it (up to 60 s earlier); and a
/// time limit too short to make progress is warned of, on stderr and in
/// the header. A projection of another N or plan is refused.
#[test]
fn the_header_sizes_each_task() {
    let dir = scratch("script-sizing");
    let sample = stdout_of(&[
        "14", "--count", "--sample", "4", "--seed", "1", "--format", "json",
    ]);
    std::fs::write(dir.join("p14.json"), &sample).unwrap();
    let projection = dir.join("p14.json");
    let projection = projection.to_str().unwrap();
    let words = [
        "script", "slurm", "14", "--shards", "4", "--cores", "2", "--time", "1:00:00",
    ];
    let with = stdout_of(&[&words[..], &["--projection", projection]].concat());
    assert!(with.contains("# Each task of 1 count: about "), "{with}");
    assert!(with.contains(" core-hours, "), "{with}");
    // Its time on its threads, as a person reads it (N = 14's: seconds).
    assert!(with.contains(" s on its 2 threads\n"), "{with}");
    assert!(with.contains("--sample 4 --seed 1 by "), "{with}");
    assert!(
        with.contains(&format!(" --projection '{projection}'\n")),
        "{with}"
    );
    let without = stdout_of(&words);
    assert!(
        without.contains("# Core-hours per task: not known here."),
        "{without}"
    );
    for script in [&with, &without] {
        assert!(
            script.contains("(or up to 60 s earlier,\n# as man sbatch says)"),
            "{script}"
        );
        assert!(
            script.contains("one block of row sets per\n# thread, each about 2 s of one core"),
            "{script}"
        );
        assert!(
            script.contains(": 5.0 core-seconds on 2 threads."),
            "{script}"
        );
        assert!(!script.contains("at most half a second old"), "{script}");
        assert!(!script.contains("WARNING"), "{script}");
    }
    let short = queens()
        .args(["script", "slurm", "14", "--shards", "4", "--time", "2"])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(short.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "queens-simd: warning: --time 00:02:00 leaves a task at worst 0 s of counting"
        ) && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(
        String::from_utf8(short.stdout)
            .unwrap()
            .contains("# WARNING: --time 00:02:00 is too short")
    );
    // Another N's projection, another plan's, and no projection at all.
    std::fs::write(
        dir.join("p15.json"),
        stdout_of(&[
            "15", "--count", "--sample", "2", "--seed", "1", "--format", "json",
        ]),
    )
    .unwrap();
    std::fs::write(
        dir.join("other.json"),
        sample.replace(
            "\"plan\":\"f1b36211944b410c\"",
            "\"plan\":\"0123456789abcdef\"",
        ),
    )
    .unwrap();
    std::fs::write(dir.join("junk.json"), "{}").unwrap();
    for (file, says) in [
        ("p15.json", "projects N = 15, not this campaign's N = 14"),
        (
            "other.json",
            "is of plan 0123456789abcdef, not this campaign's plan f1b36211944b410c",
        ),
        (
            "junk.json",
            "is not what `queens-simd 14 --count --sample K --format json` prints",
        ),
        ("missing.json", "--projection: cannot read"),
    ] {
        let path = dir.join(file);
        let line = refusal([
            "script",
            "slurm",
            "14",
            "--shards",
            "4",
            "--projection",
            path.to_str().unwrap(),
        ]);
        assert!(line.contains(says), "{file}: {line}");
    }
}
