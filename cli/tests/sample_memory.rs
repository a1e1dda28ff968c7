//! `--sample`'s memory: what a sample of K draws holds is bounded by
//! `Plan::sample_memory_estimate` beside the count's `Plan::memory_estimate`
//! (measured here by a counting allocator), and a sample that does not fit
//! is refused as `Error::OutOfMemory`, never a panic ("capacity overflow")
//! nor an abort ("memory allocation of ... bytes failed"), in the library
//! and on the command line.

mod common;

use std::num::NonZeroUsize;
use std::process::Command;
use std::time::{Duration, Instant};

use common::counting::{Counting, MEASURING, peak_growth};
use queens_simd::dispatch::Options;
use queens_simd::{Error, Kernel};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn join_options(threads: usize) -> Options {
    Options::new()
        .with_threads(threads)
        .with_kernel(Kernel::Join)
}

/// A sample of K draws, and its quantiles read as the command line reads
/// them, take at most the count's estimate and the sample's; and what
/// grows with K grows by what the sample's estimate says a draw takes,
/// within a tenth (an estimate far above it would refuse samples that
/// fit).
#[test]
fn a_sample_holds_no_more_than_its_estimate() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let n = 12;
    let plan = queens_simd::dispatch::plan_for(Kernel::Join, n).unwrap();
    for threads in [1, 2] {
        let options = join_options(threads);
        let mut measured = Vec::new();
        for draws in [1, 1000, 20_000, 100_000] {
            let (bytes, sample) = peak_growth(|| {
                let sample = options
                    .sample(&plan, NonZeroUsize::new(draws).unwrap(), 1)
                    .unwrap();
                let quantiles = sample.quantiles(|s| s.west, &[0.5, 0.9]);
                let _ = sample.count();
                (sample, quantiles)
            });
            assert_eq!(sample.0.observations().len(), draws);
            let count = plan.memory_estimate(threads);
            let estimate = plan.sample_memory_estimate(draws, threads);
            eprintln!(
                "N = {n}, {draws} draws on {threads} threads: peak {bytes} bytes past the \
                 start; estimates: count {count}, sample {estimate}"
            );
            assert!(
                bytes as u64 <= count + estimate,
                "{draws} draws on {threads} threads took {bytes} bytes, past the estimates \
                 {count} + {estimate}"
            );
            measured.push((draws, bytes as u64));
        }
        let (&(few, few_bytes), &(many, many_bytes)) =
            (measured.first().unwrap(), measured.last().unwrap());
        let grown = many_bytes.saturating_sub(few_bytes);
        let estimated =
            plan.sample_memory_estimate(many, threads) - plan.sample_memory_estimate(few, threads);
        assert!(
            grown <= estimated + (1 << 20) && grown >= estimated - estimated / 10,
            "from {few} to {many} draws on {threads} threads the peak grew by {grown} bytes, \
             the estimate by {estimated}"
        );
    }
}

/// `--sample K --check`'s row sets: within the same estimates.
#[test]
fn a_check_of_drawn_pieces_holds_no_more_than_the_estimate() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let n = 12;
    let plan = queens_simd::dispatch::plan_for(Kernel::Join, n).unwrap();
    // Each draw is joined and searched: 10,000 draws test the bound as
    // 50,000 do (the long tests', CI's), in a fifth of the time.
    let many = if common::long_tests() { 50_000 } else { 10_000 };
    for draws in [1, many] {
        let (bytes, checked) = peak_growth(|| {
            join_options(1)
                .check(&plan, NonZeroUsize::new(draws).unwrap(), 3)
                .unwrap()
        });
        assert_eq!(checked.len(), draws);
        assert!(checked.iter().all(|row_set| row_set.join == row_set.search));
        let count = plan.memory_estimate(1);
        let estimate = plan.sample_memory_estimate(draws, 1);
        assert!(
            bytes as u64 <= count + estimate,
            "a check of {draws} draws took {bytes} bytes, past the estimates {count} + {estimate}"
        );
    }
}

/// More draws than any address space holds: refused at once, not a panic
/// on the capacity, and the estimate says so.
#[test]
fn draws_past_the_address_space_are_refused() {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let plan = queens_simd::dispatch::plan_for(Kernel::Join, 12).unwrap();
    let start = Instant::now();
    let sampled = join_options(2).sample(&plan, NonZeroUsize::MAX, 1);
    assert!(
        matches!(sampled, Err(Error::OutOfMemory { bytes }) if bytes > 1 << 62),
        "{sampled:?}"
    );
    let checked = join_options(1).check(&plan, NonZeroUsize::MAX, 1);
    assert!(
        matches!(checked, Err(Error::OutOfMemory { bytes }) if bytes > 1 << 62),
        "{checked:?}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(plan.sample_memory_estimate(usize::MAX, 2), u64::MAX);
}

#[cfg(target_os = "linux")]
mod limits {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::common::limits::{held_bytes, lower_address_space_limit, spawn_self, wait_for};

    /// The variable that makes a run of this binary a child, and what it
    /// limits its address space to past what it holds, in KiB.
    const CHILD_EXTRA_KIB: &str = "QUEENS_SIMD_SAMPLE_CHILD_EXTRA_KIB";
    /// The draws the child samples.
    const CHILD_DRAWS: &str = "QUEENS_SIMD_SAMPLE_CHILD_DRAWS";

    /// What the child prints: the sample's draws, or the refusal.
    const SAMPLED: &str = "SAMPLED";
    const REFUSED: &str = "REFUSED";
    const SKIPPED: &str = "SKIPPED";

    /// A child that has not finished by then did not meet its limit.
    const CHILD_TIME: Duration = Duration::from_secs(120);

    /// Runs this binary's `child` test with `draws` under what it holds
    /// plus `extra_kib`, on two threads: the draws it sampled (`Some`), or
    /// `None` for a refusal; `Err` where the limit cannot be set here.
    fn sample_in_a_child(draws: usize, extra_kib: u64) -> Result<Option<usize>, String> {
        let child = spawn_self(
            "limits::child",
            &[
                (CHILD_EXTRA_KIB, extra_kib.to_string()),
                (CHILD_DRAWS, draws.to_string()),
            ],
            true,
        );
        let (status, stdout, stderr) = wait_for(child, CHILD_TIME);
        let status = status.unwrap_or_else(|| {
            panic!("{draws} draws under {extra_kib} KiB more: ran past {CHILD_TIME:?}")
        });
        if let Some(why) = after(&stdout, SKIPPED) {
            return Err(why.to_owned());
        }
        assert!(
            status.success(),
            "{draws} draws under {extra_kib} KiB more: {status} (134: an abort, 101: a panic)\
             \n{stdout}\n{stderr}"
        );
        if after(&stdout, REFUSED).is_some() {
            return Ok(None);
        }
        let sampled = after(&stdout, SAMPLED)
            .and_then(|rest| rest.trim().parse().ok())
            .unwrap_or_else(|| panic!("neither a sample nor a refusal\n{stdout}\n{stderr}"));
        Ok(Some(sampled))
    }

    /// `2^28` draws (38 GiB of observations) under a limit of a GiB past
    /// what the process holds, whatever the machine's memory: refused at
    /// once, as is a check of as many.
    #[test]
    fn a_sample_larger_than_the_limit_is_refused_at_once() {
        let start = Instant::now();
        match sample_in_a_child(1 << 28, 1 << 20) {
            Err(why) => eprintln!("SKIPPED: the address space cannot be limited here: {why}"),
            Ok(sampled) => assert_eq!(sampled, None),
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{:?}",
            start.elapsed()
        );
    }

    /// A sample under every limit of a sweep, from nothing past what the
    /// process holds to past what it takes: its draws or
    /// `Error::OutOfMemory`, never an abort nor a panic. With the long
    /// tests (CI) 65,536 draws every 12 MiB; otherwise 16,384 draws (a
    /// second a child) every 24 MiB.
    #[test]
    fn a_sample_under_any_limit_samples_or_reports_it() {
        let (draws, step) = if crate::common::long_tests() {
            (65_536, 12)
        } else {
            (16_384, 24)
        };
        let (mut sampled, mut refused) = (0, 0);
        // Each child limits its own address space: they run side by side.
        let limits: Vec<u64> = (0..=96).step_by(step).collect();
        let children = crate::common::side_by_side(limits, |extra_mib| {
            (extra_mib, sample_in_a_child(draws, extra_mib << 10))
        });
        for (extra_mib, outcome) in children {
            match outcome {
                Err(why) => {
                    eprintln!("SKIPPED: the address space cannot be limited here: {why}");
                    return;
                }
                Ok(Some(got)) => {
                    assert_eq!(got, draws, "{extra_mib} MiB more");
                    sampled += 1;
                }
                Ok(None) => refused += 1,
            }
        }
        eprintln!("{sampled} sampled, {refused} refused");
        assert!(sampled > 0 && refused > 0, "the sweep crosses the limit");
    }

    /// The children's half: the plan built, the limit lowered, a sample of
    /// N = 12 on two threads, then a check of as many draws.
    #[test]
    fn child() {
        let (Some(extra), Some(draws)) = (
            std::env::var(CHILD_EXTRA_KIB).ok(),
            std::env::var(CHILD_DRAWS).ok(),
        ) else {
            // Only as the child.
            return;
        };
        let extra: u64 = extra.parse().unwrap();
        let draws = NonZeroUsize::new(draws.parse().unwrap()).unwrap();
        let plan = queens_simd::dispatch::plan_for(Kernel::Join, 12).unwrap();
        let limit = held_bytes() + (extra << 10);
        if let Err(why) = lower_address_space_limit(limit) {
            println!("{SKIPPED} {why}");
            return;
        }
        let sampled = join_options(2).sample(&plan, draws, 1);
        let checked = join_options(1).check(&plan, draws, 1);
        match (sampled, checked) {
            (Ok(sample), Ok(checked)) => {
                assert_eq!(checked.len(), draws.get());
                let _ = sample.quantiles(|s| s.east, &[0.5]);
                println!("{SAMPLED} {}", sample.observations().len());
            }
            (Err(Error::OutOfMemory { .. }), _) | (_, Err(Error::OutOfMemory { .. })) => {
                println!("{REFUSED}");
            }
            (sampled, checked) => panic!("under a limit: {sampled:?} {checked:?}"),
        }
    }

    /// The rest of the line of `text` that holds `marker`.
    fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
        text.lines()
            .find_map(|line| line.split_once(marker).map(|(_, rest)| rest))
    }
}

/// The command line under `ulimit -v`: a sample that does not fit is
/// refused before it starts (2) or when its draws are refused (4), never
/// an abort (134) nor a kill (137); one that fits prints its projection.
#[cfg(unix)]
#[test]
fn the_command_line_under_ulimit_refuses_a_sample_that_does_not_fit() {
    let run = |kib: u64, args: &[&str]| {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_queens-simd"))
            .args(args)
            .output()
            .expect("sh runs");
        let code = output.status.code();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (code, stderr)
    };
    // The case of issue 38: a million draws of N = 12, 160 MiB, under
    // 100,000 KiB; and its check, 64 MiB, under 60,000.
    for (kib, args) in [
        (
            100_000,
            &[
                "12", "--count", "--kernel", "join", "--sample", "1048576", "--seed", "1",
            ][..],
        ),
        (
            60_000,
            &[
                "12", "--count", "--kernel", "join", "--sample", "1048576", "--seed", "1",
                "--check",
            ],
        ),
    ] {
        let (code, stderr) = run(kib, args);
        assert!(
            matches!(code, Some(2 | 4)),
            "{args:?} under ulimit -v {kib}: {code:?}\n{stderr}"
        );
        assert!(
            stderr.contains("memory") || stderr.contains("MiB"),
            "{stderr}"
        );
    }
    // A sweep of limits over a sample of 65,536 draws (10 MiB): each ends
    // in its projection, a refusal or the memory refused.
    let mut ends = Vec::new();
    for kib in (40_000..=280_000).step_by(40_000) {
        let args = [
            "12", "--count", "--kernel", "join", "--sample", "65536", "--seed", "2",
        ];
        let (code, stderr) = run(kib, &args);
        assert!(
            matches!(code, Some(0 | 2 | 4)),
            "{args:?} under ulimit -v {kib}: {code:?} (134: an abort)\n{stderr}"
        );
        ends.push(code);
    }
    assert!(
        ends.contains(&Some(0)),
        "the sweep reaches a sample that fits: {ends:?}"
    );
}
