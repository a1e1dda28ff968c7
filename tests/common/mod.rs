//! The one oracle every test shares: published counts, never computed by the
//! code under test, and the kernel selection for a test run.
#![allow(dead_code)]

use queens_simd::Kernel;
use queens_simd::kernel::Method;

#[cfg(unix)]
pub mod child;
pub mod counting;
#[cfg(target_os = "linux")]
pub mod limits;
mod oracle;
// Each test file uses the part it needs.
#[allow(unused_imports)]
pub use oracle::{A000170, A002562};

/// Largest N whose count the tests check: the big ones only in release
/// builds, so that a debug `cargo test` stays quick, and N = 15 (a second
/// or two a kernel that searches every solution) only with the long tests
/// ([`long_tests`], CI).
pub fn max_count_n() -> usize {
    match (cfg!(debug_assertions), long_tests()) {
        (true, _) => 12,
        (false, false) => 14,
        (false, true) => 15,
    }
}

/// Largest N whose count the tests check for `kernel`: one more than
/// [`max_count_n`] (N = 16 with the long tests, in release builds) for the
/// kernels that search by symmetry class (the symmetric and lane kernels),
/// which take about a second there where the others take ten or more, and
/// two more (N = 17) for the join kernels, which take one to three seconds.
pub fn max_count_n_for(kernel: Kernel) -> usize {
    match kernel {
        k if k.method() == Some(Method::Symmetric) && !cfg!(debug_assertions) => max_count_n() + 1,
        k if k.method() == Some(Method::Join) && !cfg!(debug_assertions) => max_count_n() + 2,
        _ => max_count_n(),
    }
}

/// Largest N whose full solution set the tests compare across kernels.
pub const fn max_set_n() -> usize {
    if cfg!(debug_assertions) { 10 } else { 12 }
}

/// The kernels a test run covers: every concrete kernel, or only the one
/// named by `QUEENS_SIMD_KERNEL` (e.g. `QUEENS_SIMD_KERNEL=portable`).
/// A kernel this CPU cannot run is reported as skipped; with
/// `QUEENS_SIMD_REQUIRE_ALL=1` (set in CI) a skip is a failure, unless
/// the kernel is named in `QUEENS_SIMD_ALLOW_MISSING` (see
/// [`allowed_missing`]).
pub fn kernels_under_test() -> Vec<Kernel> {
    let selected: Vec<Kernel> = match std::env::var("QUEENS_SIMD_KERNEL") {
        Ok(name) => vec![
            name.parse()
                .unwrap_or_else(|e| panic!("QUEENS_SIMD_KERNEL: {e}")),
        ],
        Err(_) => Kernel::ALL.to_vec(),
    };
    selected
        .into_iter()
        .filter(|kernel| {
            if kernel.is_available() {
                return true;
            }
            skip_unavailable(*kernel);
            false
        })
        .collect()
}

/// The kernels under test that list solutions as well as count them (all
/// but the join kernels, which only count).
pub fn listing_kernels_under_test() -> Vec<Kernel> {
    kernels_under_test()
        .into_iter()
        .filter(|kernel| kernel.enumerates())
        .collect()
}

/// Whether `kernel` may be missing even with `QUEENS_SIMD_REQUIRE_ALL=1`:
/// named in `QUEENS_SIMD_ALLOW_MISSING` (comma-separated kernel names).
/// CI names `join-avx512` there only when `/proc/cpuinfo` shows the CPU
/// lacks AVX-512 F or VPOPCNTDQ, and `join-avx512bw` only when it lacks
/// AVX-512 F or BW, which no emulator here can stand in for; on a CPU that
/// has them the kernel must run.
pub fn allowed_missing(kernel: Kernel) -> bool {
    std::env::var("QUEENS_SIMD_ALLOW_MISSING")
        .is_ok_and(|names| names.split(',').any(|name| name.trim() == kernel.name()))
}

/// Says that a test skips `kernel`, which this CPU does not run; panics
/// instead when CI requires every kernel (`QUEENS_SIMD_REQUIRE_ALL=1`) and
/// `QUEENS_SIMD_ALLOW_MISSING` does not name it.
pub fn skip_unavailable(kernel: Kernel) {
    assert!(
        !require_all() || allowed_missing(kernel),
        "kernel {kernel} is not available here and QUEENS_SIMD_REQUIRE_ALL=1 \
         (and QUEENS_SIMD_ALLOW_MISSING does not name it)"
    );
    eprintln!("SKIPPED: kernel {kernel} is not available on this CPU");
}

/// Whether this run must cover everything (`QUEENS_SIMD_REQUIRE_ALL=1`, set
/// in CI): a kernel or tool that is missing fails instead of skipping.
pub fn require_all() -> bool {
    std::env::var("QUEENS_SIMD_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Whether the long sweeps run in full (`QUEENS_SIMD_LONG_TESTS=1`, set in
/// CI by `.ci/run`). Without it each sweep runs a smaller sample of the same
/// cases (every kernel, path and kind of outcome still reached; fewer
/// limits, or one N less), so that `cargo test --release` takes minutes on
/// two cores; CI runs every case. DEVELOPERS.md lists what each sweep
/// leaves to CI.
pub fn long_tests() -> bool {
    std::env::var("QUEENS_SIMD_LONG_TESTS").is_ok_and(|v| v == "1")
}

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

/// The `queens-simd` binary of this build, ready for arguments.
pub fn queens() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("queens-simd").unwrap()
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
