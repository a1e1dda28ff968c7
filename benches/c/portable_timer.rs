//! The Rust side of benches/c/compare.sh (not a Cargo target of this crate:
//! the script copies it into a throw-away Cargo project that depends on this
//! crate by path and builds it with `--release`).
//!
//! Usage: portable_timer N SAMPLES
//!
//! Measures exactly as classic.c does: one untimed warm-up solve; a batch
//! size doubled from 1 until a batch of solves takes at least 20 us; then
//! SAMPLES batches timed with `Instant` (clock_gettime(CLOCK_MONOTONIC) on
//! Linux), each divided by the batch size; prints the median per-solve time:
//!
//!   n=12 count=14200 median_us=123.456 batch=1 samples=101

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use queens_simd::Kernel;
use queens_simd::kernel::Task;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let parsed = match args.as_slice() {
        [_, n, samples] => n.parse::<usize>().ok().zip(samples.parse::<usize>().ok()),
        _ => None,
    };
    let Some((n, samples)) = parsed.filter(|&(_, s)| s >= 1) else {
        eprintln!("usage: portable_timer N SAMPLES");
        return ExitCode::from(2);
    };
    // The kernel's own solver, so that `n` can be hidden from the optimiser.
    let solver = match queens_simd::dispatch::solver_for(Kernel::Portable, Task::Count, n) {
        Ok(held) => held.solver(),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };

    // `black_box` on `n` and on each result keeps repeated solves from being
    // hoisted or merged, as the empty asm barrier and the volatile sink do in
    // classic.c.
    let solve = || solver.count(black_box(n)).expect("size checked above");
    let time_batch = |batch: u64| -> f64 {
        let start = Instant::now();
        for _ in 0..batch {
            black_box(solve());
        }
        start.elapsed().as_secs_f64() * 1e6 / batch as f64
    };

    let count = solve(); // warm-up, untimed

    let mut batch = 1u64;
    while time_batch(batch) * (batch as f64) < 20.0 {
        batch *= 2;
    }

    let mut per_solve: Vec<f64> = (0..samples).map(|_| time_batch(batch)).collect();
    per_solve.sort_by(f64::total_cmp);
    let median = if samples % 2 == 1 {
        per_solve[samples / 2]
    } else {
        (per_solve[samples / 2 - 1] + per_solve[samples / 2]) / 2.0
    };

    println!("n={n} count={count} median_us={median:.3} batch={batch} samples={samples}");
    ExitCode::SUCCESS
}
