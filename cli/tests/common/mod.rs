//! The tests' shared support: the library's (the oracle and the kernels
//! under test, in the repository's tests/common) and the program's own
//! (its binary, a scratch directory, what a refusal looks like).
#![allow(dead_code)]

#[cfg(unix)]
pub mod child;
#[path = "../../../tests/common/mod.rs"]
mod library;
pub use library::*;

/// The path of this build's `queens-simd` binary.
pub fn binary() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("queens-simd")
}

/// A fresh, empty directory under the target directory for one test's
/// files (`name` unique across the test files).
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Counts every shard `i/m` of N into a record file in `dir`, checking that
/// each record names its N and shard, and returns the files.
pub fn shard_files(dir: &std::path::Path, n: usize, m: usize) -> Vec<std::path::PathBuf> {
    (0..m)
        .map(|i| {
            let json = stdout_of(&[&n.to_string(), "--count", "--shard", &format!("{i}/{m}")]);
            let record: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(record["shard"], format!("{i}/{m}"));
            assert_eq!(record["n"], n);
            let path = dir.join(format!("shard-{i}-of-{m}.json"));
            std::fs::write(&path, json).unwrap();
            path
        })
        .collect()
}

/// `queens-simd merge FILES`, run.
pub fn merge(files: &[std::path::PathBuf]) -> assert_cmd::assert::Assert {
    queens().arg("merge").args(files).assert()
}

/// The repository's root, where the docs name their files from.
pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// The pages of the docs: README.md and every page in `docs/`, whose
/// examples run (docs_examples.rs) and whose paths resolve (docs_examples/paths.rs).
pub fn pages() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(std::path::Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    std::iter::once("README.md".to_owned())
        .chain(docs)
        .collect()
}

/// The `queens-simd` binary of this build, ready for arguments, run in
/// the repository's root (as `cargo run` there would).
pub fn queens() -> assert_cmd::Command {
    let mut command = assert_cmd::Command::cargo_bin("queens-simd").unwrap();
    command.current_dir(ROOT);
    command
}

/// [`queens`] at the lowest CPU priority, for a run of `--time`
/// ([`yielding_when_timed`]).
#[cfg(unix)]
pub fn queens_yielding() -> assert_cmd::Command {
    let mut command = std::process::Command::new(binary());
    command.current_dir(ROOT);
    lowest_priority(&mut command);
    assert_cmd::Command::from_std(command)
}

/// `command` at the lowest CPU priority (nice 19) where `args`, what it
/// will run `queens-simd` with, hold `--time` (a shell or Python that runs
/// `queens-simd` hands the priority on). A `--time` run solves for 1.5 s
/// of the clock however much of a core it gets, and the tests read the
/// form of its line, never the figure. At the priority of the other
/// tests' children it would take their cores for nothing; at the lowest it
/// takes what they leave.
#[cfg(unix)]
pub fn yielding_when_timed<S: AsRef<str>>(command: &mut std::process::Command, args: &[S]) {
    if args.iter().any(|arg| arg.as_ref() == "--time") {
        lowest_priority(command);
    }
}

#[cfg(unix)]
fn lowest_priority(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure calls only setpriority,
    // which is async-signal-safe, and allocates nothing. Its result is
    // ignored: a child left at its priority runs the same, only sooner.
    unsafe {
        command.pre_exec(|| {
            libc::setpriority(libc::PRIO_PROCESS, 0, 19);
            Ok(())
        });
    }
}

/// What `queens-simd ARGS` prints on stdout, asserting that it succeeds.
pub fn stdout_of(args: &[&str]) -> String {
    let out = queens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// `run` on each of `items`, each on a thread of its own, what each gave
/// in `items`' order. For runs of `--time`, which solves for 1.5 s of the
/// clock however much of a core it gets: side by side they take that once,
/// and less of the cores the other tests share.
pub fn side_by_side<T: Send, R: Send>(items: Vec<T>, run: impl Fn(T) -> R + Sync) -> Vec<R> {
    let run = &run;
    std::thread::scope(|scope| {
        let threads: Vec<_> = items
            .into_iter()
            .map(|item| scope.spawn(move || run(item)))
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().unwrap())
            .collect()
    })
}

/// The program `name` on PATH, or `None` after saying the test using it
/// is skipped (a failure with `QUEENS_SIMD_REQUIRE_ALL=1`).
pub fn tool(name: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(name))
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(!require_all(), "`{name}` is needed for this test");
        eprintln!("SKIPPED: no `{name}` on PATH");
    }
    found
}

/// Runs `queens-simd ARGS` and checks that it is refused as bad input:
/// exit status 2, nothing on stdout, one line on stderr that starts with
/// `queens-simd: error: `. Returns that line.
pub fn refusal<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    refused(queens().args(args))
}

/// [`refusal`], run in `dir`.
pub fn refusal_in<I, S>(dir: &std::path::Path, args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    refused(queens().current_dir(dir).args(args))
}

/// What [`refusal`] checks of a command made ready.
fn refused(command: &mut assert_cmd::Command) -> String {
    let out = command.assert().code(2).stdout("").get_output().clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("queens-simd: error: "), "{err}");
    err
}

/// A count that takes long enough to still be running when a second run
/// starts: N = 15 in debug builds, 17 in release builds, on one thread.
pub fn slow_n() -> usize {
    if cfg!(debug_assertions) { 15 } else { 17 }
}

/// Starts a count of [`slow_n`] on one thread with `--checkpoint held`,
/// waits for its checkpoint, runs `queens-simd N --count --checkpoint
/// second` while it still runs, then kills the first and returns what the
/// second did. Fails if the first ended before the second started.
pub fn second_run_while_first_holds(
    held: &std::path::Path,
    second: &std::path::Path,
) -> std::process::Output {
    use std::time::{Duration, Instant};
    let n = slow_n().to_string();
    let mut first = std::process::Command::new(binary())
        .args([n.as_str(), "--count", "--threads", "1", "--checkpoint"])
        .arg(held)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !held.exists() {
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint");
        assert!(first.try_wait().unwrap().is_none(), "finished too soon");
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = queens()
        .args([n.as_str(), "--count", "--checkpoint"])
        .arg(second)
        .output()
        .unwrap();
    let still_running = first.try_wait().unwrap().is_none();
    first.kill().unwrap();
    let _ = first.wait();
    assert!(
        still_running,
        "the first run ended before the second started"
    );
    out
}
