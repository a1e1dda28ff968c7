//! A join count whose memory is refused reports it: `queens_simd::count`
//! returns `Error::OutOfMemory`, where it used to abort the process
//! ("memory allocation of ... bytes failed").
//!
//! The test runs this test binary again, as a child (selected by
//! [`CHILD`]), which lowers its own limit on its address space
//! (`RLIMIT_AS`, as `ulimit -v` does) to a little more than it holds, then
//! counts N = 22 with `auto` (a join kernel): the first tables of
//! quarter-boards do not fit. The limit is set in the child, not in this
//! process, so that an abort kills only the child, and the other tests of
//! this binary keep their memory. Linux only: the child reads what it
//! holds from `/proc/self/status`.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use common::limits::{held_bytes, lower_address_space_limit, spawn_self, wait_for};

use queens_simd::dispatch::Options;
use queens_simd::{Error, Kernel};

/// The variable that makes a run of this binary the child.
const CHILD: &str = "QUEENS_SIMD_MEMORY_LIMITS_CHILD";

/// What the child prints when the count reported the refusal, and when
/// the system would not let it lower its limit.
const REPORTED: &str = "OUT OF MEMORY REPORTED";
const SKIPPED: &str = "SKIPPED";

/// How far past what it holds the child may grow: room for the count's
/// small lists (splits, chunks, row sets: kilobytes) and two threads'
/// stacks, less than the tables of N = 22 (tens of MiB). Anything from
/// 256 KiB to 32 MiB was measured to work.
const HEADROOM: u64 = 8 << 20;

/// A child that has not finished by then ran past its limit (the count of
/// N = 22 takes hours): the limit did not bite.
const CHILD_TIME: Duration = Duration::from_secs(300);

#[test]
fn a_join_count_whose_memory_is_refused_returns_an_error() {
    // One arena for every thread (`spawn_self`): the tables would
    // otherwise grow in a thread's own arena for minutes before they are
    // refused.
    let child = spawn_self(
        "count_under_a_memory_limit",
        &[(CHILD, "1".to_string())],
        true,
    );
    let (status, stdout, stderr) = wait_for(child, CHILD_TIME);
    if stdout.contains(SKIPPED) {
        eprintln!("SKIPPED: {}", after(&stdout, SKIPPED));
        return;
    }
    let status = status.unwrap_or_else(|| {
        panic!(
            "the count under a memory limit ran past {CHILD_TIME:?}: the limit did not \
             bite\n{stdout}\n{stderr}"
        )
    });
    assert!(
        status.success() && stdout.matches(REPORTED).count() == 2,
        "the counts under a memory limit did not report it ({status}):\n{stdout}\n{stderr}"
    );
    for line in stdout.lines().filter(|line| line.contains(REPORTED)) {
        eprintln!("{line}");
    }
}

/// The child's half: under its limit, `count(22)` returns the error, and
/// so does the count of a plan on two threads (whose workers fail, or
/// which counts on the calling thread if the system refuses to start
/// them: their stacks need address space too).
#[test]
fn count_under_a_memory_limit() {
    if std::env::var_os(CHILD).is_none() {
        // Only as the child.
        return;
    }
    let n = 22;
    // The depth of the tables is found (and remembered) and the plan
    // listed before the limit, with the memory they take.
    let estimate = queens_simd::dispatch::memory_estimate(Kernel::Auto, n).unwrap();
    let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n).unwrap();
    let held = held_bytes();
    let limit = held + HEADROOM;
    if let Err(why) = lower_address_space_limit(limit) {
        println!("{SKIPPED}: the address space cannot be limited here: {why}");
        return;
    }
    let counted = queens_simd::count(n);
    let Err(error @ Error::OutOfMemory { .. }) = counted else {
        panic!("count({n}) under a limit of {limit} bytes: {counted:?}");
    };
    println!(
        "{REPORTED}: count({n}) under a limit of {} MiB (held {} MiB, estimate {} MiB): {error:?}: \
         {error}",
        limit >> 20,
        held >> 20,
        estimate >> 20,
    );
    let mut finished = 0;
    let counted = Options::new()
        .with_threads(2)
        .count_reporting(&plan, plan.all(), |_, _| finished += 1);
    let Err(error @ Error::OutOfMemory { .. }) = counted else {
        panic!("the plan of {n} on two threads under a limit of {limit} bytes: {counted:?}");
    };
    println!(
        "{REPORTED} (plan): the plan of {n} on two threads, {finished} subproblems finished: \
         {error:?}"
    );
}

/// The variables that make a run of this binary the child of the sweep:
/// the board, the threads, and the address space it may take past what it
/// holds once its plan is built, in KiB.
const SWEEP_N: &str = "QUEENS_SIMD_SWEEP_N";
const SWEEP_THREADS: &str = "QUEENS_SIMD_SWEEP_THREADS";
const SWEEP_EXTRA_KIB: &str = "QUEENS_SIMD_SWEEP_EXTRA_KIB";

/// What the sweep's child prints: the count, or the error.
const COUNTED: &str = "COUNTED";
const REFUSED: &str = "REFUSED";

/// The boards' counts.
fn solutions(n: usize) -> u64 {
    match n {
        16 => 14_772_512,
        18 => 666_090_624,
        _ => unreachable!("a board of the sweep"),
    }
}

/// A join count under every limit of a sweep ends in its count or in
/// `Error::OutOfMemory`, never in an abort ("memory allocation of 48 bytes
/// failed": a small infallible allocation after the large buffers took
/// the room, about one run in four at N = 18 on two threads) nor a panic.
/// Each child builds its plan, lowers its limit to what it holds plus the
/// sweep's step, and counts. The limits run from nothing past what it
/// holds to past what the count takes, where it must count right; with
/// one arena (as the other test) and with glibc's default of one per
/// thread, whose arenas a thread gets only where the limit leaves 64 MiB.
/// With the long tests (CI) the limits go by 6 MiB at N = 16 and 3 MiB at
/// N = 18; otherwise by twice that (45 children instead of 85).
#[test]
fn a_join_count_under_any_limit_counts_or_reports_it() {
    let start = Instant::now();
    let mut runs = Vec::new();
    let coarser = if common::long_tests() { 1 } else { 2 };
    // (N, threads, extra KiB): N = 16 takes about 40 MiB a thread, N = 18
    // more than its steps give (it fails fast; its tables are refused at
    // every size).
    for threads in [1, 2, 3] {
        for extra in (0..=96 << 10).step_by((6 << 10) * coarser) {
            runs.push((16, threads, extra));
        }
    }
    for threads in [2, 4] {
        for extra in (0..=48 << 10).step_by((3 << 10) * coarser) {
            runs.push((18, threads, extra));
        }
    }
    let (mut counted, mut refused) = (0, 0);
    // Each child lowers its own limit, so they run as many at a time as
    // there are cores, without a run's limit touching another's.
    let width = std::thread::available_parallelism().map_or(1, |n| n.get());
    let children: Vec<_> = runs
        .iter()
        .enumerate()
        .collect::<Vec<_>>()
        .chunks(width)
        .flat_map(|batch| {
            let started: Vec<_> = batch
                .iter()
                .map(|&(i, &(n, threads, extra))| {
                    // Every other run with one arena for every thread.
                    let child = spawn_self(
                        "count_under_a_swept_limit",
                        &[
                            (CHILD, "1".to_string()),
                            (SWEEP_N, n.to_string()),
                            (SWEEP_THREADS, threads.to_string()),
                            (SWEEP_EXTRA_KIB, extra.to_string()),
                        ],
                        i % 2 == 1,
                    );
                    ((n, threads, extra), child)
                })
                .collect();
            started
                .into_iter()
                .map(|(run, child)| (run, wait_for(child, CHILD_TIME)))
                .collect::<Vec<_>>()
        })
        .collect();
    for ((n, threads, extra), (status, stdout, stderr)) in children {
        if stdout.contains(SKIPPED) {
            eprintln!("SKIPPED: {}", after(&stdout, SKIPPED));
            return;
        }
        let what = format!("N = {n} on {threads} threads, {extra} KiB past what it held");
        let status = status.unwrap_or_else(|| panic!("{what}: ran past {CHILD_TIME:?}"));
        assert!(
            status.success(),
            "{what}: {status} (134: an abort, 101: a panic)\n{stdout}\n{stderr}"
        );
        if stdout.contains(REFUSED) {
            refused += 1;
        } else {
            let total: u64 = after(&stdout, COUNTED).trim().parse().unwrap_or_else(|_| {
                panic!("{what}: neither a count nor a refusal\n{stdout}\n{stderr}")
            });
            assert_eq!(total, solutions(n), "{what}");
            counted += 1;
        }
    }
    eprintln!(
        "{} runs in {:.1} s: {counted} counted, {refused} refused",
        runs.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(counted > 0 && refused > 0, "the sweep crosses the limit");
}

/// The sweep's child: its plan built, it lowers its limit and counts on
/// its threads, and prints the count or the error (which must be
/// `OutOfMemory`).
#[test]
fn count_under_a_swept_limit() {
    let (Some(n), Some(threads), Some(extra)) = (
        std::env::var(SWEEP_N).ok(),
        std::env::var(SWEEP_THREADS).ok(),
        std::env::var(SWEEP_EXTRA_KIB).ok(),
    ) else {
        // Only as the sweep's child.
        return;
    };
    let (n, threads): (usize, usize) = (n.parse().unwrap(), threads.parse().unwrap());
    let extra: u64 = extra.parse().unwrap();
    let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n).unwrap();
    let options = Options::new().with_threads(threads);
    let limit = held_bytes() + (extra << 10);
    if let Err(why) = lower_address_space_limit(limit) {
        println!("{SKIPPED}: the address space cannot be limited here: {why}");
        return;
    }
    match options.count_reporting(&plan, plan.all(), |_, _| {}) {
        Ok(counted) => println!("{COUNTED} {}", counted.count),
        Err(Error::OutOfMemory { .. }) => println!("{REFUSED}"),
        Err(error) => panic!("N = {n} under a limit: {error:?}"),
    }
}

/// The rest of the line of `text` that starts with `marker`.
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.split_once(marker).map(|(_, rest)| rest))
        .unwrap_or("")
}
