//! `--sample K [--seed S]`: a projection of a join count from K row sets
//! drawn at random and joined here, instead of the count itself.

use std::io::Write;
use std::time::Instant;

use super::Failure;
use super::args::{Format, SampleRequest};
use super::memory::{show, threads_text};
use crate::plan::{Method, Options, Plan, Projection, Sample};

/// Draws, joins and prints the projection of `plan`'s count with
/// `options` (the threads and the kernel; the memory checked already).
pub fn project(
    plan: &Plan,
    options: &Options,
    request: SampleRequest,
    format: Format,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if plan.method() != Method::Join {
        return Err(Failure::Refused(format!(
            "--sample projects a join count, but N = {} is counted here through the {} plan (try --kernel join, join-avx2 or join-avx512)",
            plan.n(),
            plan.method()
        )));
    }
    let seed = request.seed.unwrap_or_else(crate::random::fresh_seed);
    let start = Instant::now();
    let sample = plan.sample(request.draws, seed, options)?;
    let wall = start.elapsed().as_secs_f64();
    let memory = plan.memory_estimate(options.threads);
    if format == Format::Json {
        write_json(out, &sample, options.threads, memory, wall)?;
    } else {
        write_text(out, &sample, options.threads, memory, wall)?;
    }
    Ok(())
}

/// `12.3 ± 0.4` with the error's share.
fn plus_minus(projection: Projection, scale: f64) -> String {
    format!(
        "{:.4e} ± {:.1}%",
        projection.value / scale,
        100.0 * projection.relative_error()
    )
}

fn write_text(
    out: &mut impl Write,
    sample: &Sample,
    threads: usize,
    memory: u64,
    wall: f64,
) -> std::io::Result<()> {
    let (n, draws) = (sample.n(), sample.observations().len());
    let on = threads_text(threads);
    writeln!(
        out,
        "N = {n}: {draws} row sets drawn with --seed {}, joined by {} on {on} in {wall:.1} s",
        sample.seed(),
        sample.kernel()
    )?;
    writeln!(
        out,
        "solutions:   {} (standard error)",
        plus_minus(sample.count(), 1.0)
    )?;
    writeln!(
        out,
        "core-hours:  {} on one core of this CPU (joins {:.4e}, tables {:.4e})",
        plus_minus(sample.seconds(), 3600.0),
        sample.join_seconds().value / 3600.0,
        sample.table_seconds().value / 3600.0
    )?;
    writeln!(
        out,
        "memory:      {} for a count or a shard on {on} (the estimate --max-memory checks)",
        show(memory)
    )
}

fn write_json(
    out: &mut impl Write,
    sample: &Sample,
    threads: usize,
    memory: u64,
    wall: f64,
) -> std::io::Result<()> {
    let pair =
        |p: Projection| serde_json::json!({"value": p.value, "standard_error": p.standard_error});
    let object = serde_json::json!({
        "n": sample.n(),
        "kernel": sample.kernel().name(),
        "draws": sample.observations().len(),
        "seed": sample.seed(),
        "threads": threads,
        "seconds": wall,
        "solutions": pair(sample.count()),
        "core_seconds": pair(sample.seconds()),
        "join_core_seconds": pair(sample.join_seconds()),
        "table_core_seconds": pair(sample.table_seconds()),
        "memory_bytes": memory,
    });
    writeln!(out, "{object}")
}
