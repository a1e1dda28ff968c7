//! What a script's tasks will really do: their core-hours, from a
//! `--sample` projection (`--projection FILE`), what a stop can lose, and
//! whether a Slurm time limit leaves a task time to make progress.
//!
//! Every thread of a task works on the piece in hand (its row sets are
//! dealt to the threads in blocks), so a task's threads are all busy: its
//! wall time is its core time over its threads.

use std::path::Path;
use std::time::Duration;

use crate::args::DEFAULT_CHECKPOINT_INTERVAL;
use crate::files::{self, Holding, path_text};
use crate::time_limit::TimeLimit;

/// About how much work of one core a block of row sets is: what each
/// thread has in hand, and loses, when a count stops (the count deals a
/// piece's row sets to its threads in blocks of this size).
pub(super) const BLOCK_CORE_SECONDS: f64 = queens_simd::plan::BLOCK_SECONDS;

/// How often a count rewrites its checkpoint: the scripts leave it at the
/// count's default.
pub(super) const CHECKPOINT_INTERVAL: Duration = DEFAULT_CHECKPOINT_INTERVAL;

/// How much earlier than asked Slurm may send the warning signal: `man
/// sbatch` says "up to 60 seconds earlier than specified".
pub(super) const SIGNAL_EARLY_SECONDS: u64 = 60;

/// The least counting an attempt of a task should get between its start
/// and the warning, at worst, to get past its tables and make progress.
pub(super) const LEAST_ATTEMPT_SECONDS: u64 = 300;

/// A `--sample` projection of the campaign's count, as read from its JSON.
#[derive(Debug)]
pub(super) struct CostProjection {
    /// Core-seconds of the whole count, and their standard error.
    pub core_seconds: f64,
    pub standard_error: f64,
    /// How it was drawn: `--sample K --seed S`, and by which kernel.
    pub draws: u64,
    pub seed: String,
    pub kernel: String,
    /// Core-seconds of the longest row set the sample drew, its tables
    /// included: a block is at least one row set.
    pub longest_row_set: Option<f64>,
}

impl CostProjection {
    /// Reads `path`, which must be the projection of N = `n` through the
    /// plan `fingerprint`; one line saying why not otherwise.
    pub fn read(path: &Path, n: usize, fingerprint: u64) -> Result<CostProjection, String> {
        let shown = path_text(path);
        let bytes = files::read_record(path, Holding::PROJECTION)
            .map_err(|why| format!("--projection: {why}"))?;
        let not_one = |what: &str| {
            format!(
                "--projection {shown} is not what `queens-simd {n} --count --sample K --format json` prints ({what})"
            )
        };
        let json: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| not_one(&format!("not JSON: {e}")))?;
        let number = |key: &str| json[key].as_u64();
        let float = |key: &str, field: &str| json[key][field].as_f64().filter(|v| v.is_finite());
        let (Some(of_n), Some(core_seconds), Some(standard_error), Some(draws)) = (
            number("n"),
            float("core_seconds", "value"),
            float("core_seconds", "standard_error"),
            number("draws"),
        ) else {
            return Err(not_one("no n, draws or core_seconds"));
        };
        if of_n != n as u64 {
            return Err(format!(
                "--projection {shown} projects N = {of_n}, not this campaign's N = {n}"
            ));
        }
        let plan = json["plan"].as_str().ok_or_else(|| {
            format!("--projection {shown} names no plan (an older queens-simd wrote it): sample N = {n} again with this one")
        })?;
        let ours = format!("{fingerprint:016x}");
        if plan != ours {
            return Err(format!(
                "--projection {shown} is of plan {}, not this campaign's plan {ours} of N = {n}: sample it again with this queens-simd",
                plan.escape_debug()
            ));
        }
        Ok(CostProjection {
            core_seconds: core_seconds.max(0.0),
            standard_error: standard_error.max(0.0),
            draws,
            seed: json["seed_text"]
                .as_str()
                .unwrap_or("?")
                .escape_debug()
                .to_string(),
            kernel: json["kernel"]
                .as_str()
                .unwrap_or("?")
                .escape_debug()
                .to_string(),
            longest_row_set: float("stop_loses_core_seconds", "longest_row_set_drawn")
                .map(|seconds| seconds.max(0.0)),
        })
    }
}

/// Core-seconds a stop loses at most on `threads` threads: each thread's
/// block in hand (at least one row set: `longest_row_set`, the longest a
/// projection drew, where it is longer), and the work since the last
/// checkpoint.
pub(super) fn stop_loss_core_seconds(threads: usize, longest_row_set: Option<f64>) -> f64 {
    let block = longest_row_set.unwrap_or(0.0).max(BLOCK_CORE_SECONDS);
    threads as f64 * (block + CHECKPOINT_INTERVAL.as_secs_f64())
}

/// The comment lines on what a stop loses on `threads` threads, the
/// longest row set of the projection, if any, beside the block.
pub(super) fn stop_loss_text(threads: usize, longest_row_set: Option<f64>) -> String {
    let loss = stop_loss_core_seconds(threads, longest_row_set);
    let loss = if loss < 10.0 {
        format!("{loss:.1}")
    } else {
        format!("{loss:.0}")
    };
    let longer = match longest_row_set {
        Some(longest) if longest > BLOCK_CORE_SECONDS => format!(
            " (or one row set where that is longer:\n# the longest the projection drew took {longest:.1} s)"
        ),
        _ => String::new(),
    };
    format!(
        concat!(
            "# A stop (a signal, a lost node) loses at most one block of row sets per\n",
            "# thread, each about {block} s of one core{longer}, and the {interval} s since the last\n",
            "# checkpoint: {loss} core-seconds on {threads}."
        ),
        block = BLOCK_CORE_SECONDS,
        longer = longer,
        interval = CHECKPOINT_INTERVAL.as_secs_f64(),
        loss = loss,
        threads = crate::memory::threads_text(threads),
    )
}

/// The seconds an attempt of a task counts at worst before its warning:
/// the limit, less the warning's lead, less how much earlier Slurm may
/// send it.
pub(super) fn worst_attempt_seconds(time: TimeLimit) -> u64 {
    time.0
        .saturating_sub(time.warning())
        .saturating_sub(SIGNAL_EARLY_SECONDS)
}

/// Where `time` leaves an attempt too little counting to make progress,
/// the one-line warning (without `warning: `).
pub(super) fn short_time_warning(time: TimeLimit) -> Option<String> {
    let worst = worst_attempt_seconds(time);
    (worst < LEAST_ATTEMPT_SECONDS).then(|| {
        format!(
            "--time {time} leaves a task at worst {worst} s of counting before its warning (USR1 {} s before the limit, and up to {SIGNAL_EARLY_SECONDS} s earlier): under {LEAST_ATTEMPT_SECONDS} s, too short for a task to make progress; give a longer --time",
            time.warning()
        )
    })
}

/// A time for a person: seconds, minutes, hours or days, in two or three
/// figures.
pub(super) fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} minutes", s / 60.0),
        s if s < 3.0 * 86400.0 => format!("{:.1} hours", s / 3600.0),
        s => format!("{:.1} days", s / 86400.0),
    }
}

/// Hours in a few significant figures.
pub(super) fn hours_text(seconds: f64) -> String {
    let hours = seconds / 3600.0;
    match hours {
        h if h >= 100.0 => format!("{h:.0}"),
        h if h >= 1.0 => format!("{h:.1}"),
        h if h >= 0.001 => format!("{h:.3}"),
        h => format!("{h:.1e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_keep_their_figures() {
        assert_eq!(hours_text(3600.0 * 250.4), "250");
        assert_eq!(hours_text(3600.0 * 15.62), "15.6");
        assert_eq!(hours_text(36.0), "0.010");
        assert_eq!(hours_text(7.2), "0.002");
        assert_eq!(hours_text(0.36), "1.0e-4");
    }

    #[test]
    fn a_short_limit_is_warned_of() {
        assert!(short_time_warning(TimeLimit(120)).is_some());
        assert!(short_time_warning(TimeLimit(360)).is_some());
        assert_eq!(short_time_warning(TimeLimit(600)), None);
        assert_eq!(short_time_warning(TimeLimit(3600)), None);
        assert_eq!(worst_attempt_seconds(TimeLimit(3600)), 3600 - 360 - 60);
    }

    #[test]
    fn a_stop_loses_a_block_and_an_interval_per_thread() {
        assert_eq!(stop_loss_core_seconds(4, None), 10.0);
        assert_eq!(stop_loss_core_seconds(4, Some(1.0)), 10.0);
        assert_eq!(stop_loss_core_seconds(4, Some(7.5)), 32.0);
        assert!(stop_loss_text(1, None).contains(": 2.5 core-seconds on 1 thread."));
        assert!(stop_loss_text(16, None).contains(": 40 core-seconds on 16 threads."));
        let long = stop_loss_text(4, Some(7.5));
        assert!(
            long.contains("longer:\n# the longest the projection drew took 7.5 s), and"),
            "{long}"
        );
        assert!(long.contains(": 32 core-seconds on 4 threads."), "{long}");
    }

    #[test]
    fn durations_are_read_at_a_glance() {
        assert_eq!(duration_text(33.4), "33 s");
        assert_eq!(duration_text(900.0), "15 minutes");
        assert_eq!(duration_text(3600.0 * 16.04), "16.0 hours");
        assert_eq!(duration_text(86400.0 * 11.3), "11.3 days");
    }
}
