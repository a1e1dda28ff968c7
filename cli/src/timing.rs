//! `--time`: the seeds' headline metric, microseconds per solve, measured
//! the way `cargo bench --bench simd` (criterion) measures, so that the two
//! agree within noise:
//!
//! 1. warm-up: solves run back to back for [`WARM_UP`] (at least one), which
//!    trains the caches and the branch predictor as criterion's warm-up does
//!    and gives a first estimate of one solve;
//! 2. solves run in batches sized so that one batch takes at least
//!    [`MIN_SAMPLE`] (the clock's overhead then stays below 0.1%); each batch
//!    gives one sample, its time divided by its solves;
//! 3. sampling stops after [`BUDGET`], with at least [`MIN_SAMPLES`].
//!
//! The median sample is reported: it ignores the odd interrupted batch on a
//! shared machine, as criterion's median does.

use std::time::{Duration, Instant};

const WARM_UP: Duration = Duration::from_millis(500);
const MIN_SAMPLE: Duration = Duration::from_micros(50);
const BUDGET: Duration = Duration::from_secs(1);
const MIN_SAMPLES: usize = 3;

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
    /// Solves run before sampling.
    pub warm_up_solves: u32,
}

/// Times `solve`, which must do the whole work of one solve each call.
pub fn measure(mut solve: impl FnMut()) -> Timing {
    let started = Instant::now();
    let mut warm_up_solves: u32 = 0;
    while warm_up_solves == 0 || started.elapsed() < WARM_UP {
        solve();
        warm_up_solves += 1;
    }
    let once = started.elapsed() / warm_up_solves;
    let batch = (MIN_SAMPLE.as_nanos() / once.as_nanos().max(1)).clamp(1, 1 << 20) as u32;

    let mut samples = Vec::new();
    let started = Instant::now();
    while samples.len() < MIN_SAMPLES || started.elapsed() < BUDGET {
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
        warm_up_solves,
    }
}
