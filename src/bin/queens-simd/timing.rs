//! `--time`: the seeds' headline metric, microseconds per solve.
//!
//! Solves run back to back in batches sized so that one batch takes at least
//! [`MIN_SAMPLE`] (the clock's overhead then stays below 0.1%); each batch
//! gives one sample, its time divided by its solves. Sampling stops after
//! [`BUDGET`] or [`MAX_SAMPLES`] samples, with at least [`MIN_SAMPLES`]. The
//! median sample is reported: it ignores the odd interrupted batch on a
//! shared machine, as criterion's median does.

use std::time::{Duration, Instant};

const MIN_SAMPLE: Duration = Duration::from_micros(50);
const BUDGET: Duration = Duration::from_secs(1);
const MIN_SAMPLES: usize = 3;
const MAX_SAMPLES: usize = 2000;

/// What was measured.
pub struct Timing {
    /// Median time of one solve, in microseconds.
    pub median_us: f64,
    /// Fastest sample, in microseconds per solve.
    pub min_us: f64,
    /// Number of samples.
    pub samples: usize,
    /// Solves per sample.
    pub batch: u32,
}

/// Times `solve`, which must do the whole work of one solve each call.
pub fn measure(mut solve: impl FnMut()) -> Timing {
    // Warm-up solve, which also sizes the batch.
    let start = Instant::now();
    solve();
    let once = start.elapsed().max(Duration::from_nanos(1));
    let batch = (MIN_SAMPLE.as_nanos() / once.as_nanos()).clamp(1, 1 << 20) as u32;

    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < MIN_SAMPLES || (samples.len() < MAX_SAMPLES && started.elapsed() < BUDGET)
    {
        let t = Instant::now();
        for _ in 0..batch {
            solve();
        }
        samples.push(t.elapsed().as_secs_f64() * 1e6 / f64::from(batch));
    }
    samples.sort_unstable_by(f64::total_cmp);
    Timing {
        median_us: samples[samples.len() / 2],
        min_us: samples[0],
        samples: samples.len(),
        batch,
    }
}
