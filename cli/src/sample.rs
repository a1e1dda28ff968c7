//! `--sample K [--seed S]`: a projection of a join count from K row sets
//! drawn at random and joined here, instead of the count itself; with
//! `--check`, each drawn row set counted by the join and by a plain search
//! instead. Both print text, or with `--format json` one JSON object.

use std::io::Write;
use std::time::Instant;

use super::Failure;
use super::args::{Format, SampleRequest};
use super::memory::{show, threads_text};
use queens_simd::dispatch::Options;
use queens_simd::kernel::Method;
use queens_simd::plan::{BLOCK_SECONDS, Checked, JoinStats, Plan, Projection, Sample};

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
            "--sample projects a join count, but N = {} is counted here through the {} plan (try --kernel {})",
            plan.n(),
            plan.method(),
            super::report::kernel_names(Method::Join)
        )));
    }
    if plan.is_empty() {
        // A band that attacks a whole row or column of its halves leaves
        // a split nothing to join; where every split is so (N = 3), there
        // is no row set to draw, and a projection would divide by zero.
        return Err(Failure::Refused(format!(
            "--sample draws row sets of the join plan, but the join plan of N = {} has none (every split of its board is empty)",
            plan.n()
        )));
    }
    let seed = request.seed.unwrap_or_else(crate::seed::fresh);
    if request.check {
        return check(plan, options, request, seed, format, out);
    }
    let start = Instant::now();
    let sample = options.sample(plan, request.draws, seed)?;
    let wall = start.elapsed().as_secs_f64();
    let memory = plan.memory_estimate(options.threads());
    if format == Format::Json {
        write_json(out, plan, &sample, options.threads(), memory, wall)?;
    } else {
        write_text(out, &sample, options.threads(), memory, wall)?;
    }
    Ok(())
}

/// `--check`: the drawn row sets, each counted twice, one line each, and a
/// last line that says whether all agree ([`Failure::Disagreement`] if
/// not); with `--format json`, one JSON object of the same (written whole,
/// disagreements included, before the failure).
fn check(
    plan: &Plan,
    options: &Options,
    request: SampleRequest,
    seed: u64,
    format: Format,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let kernel = options.counting_kernel(plan.method())?;
    if format != Format::Json {
        // Before the counts, which can take a while.
        writeln!(
            out,
            "N = {}: {} drawn with --seed {seed}, each counted by {kernel} (its split unfolded) and by a plain search",
            plan.n(),
            super::plural::counted(request.draws.get(), "row set", "row sets")
        )?;
    }
    let checked = options.check(plan, request.draws, seed)?;
    let total: queens_simd::Count = checked.iter().map(|row_set| row_set.search).sum();
    let differ = checked.iter().filter(|r| r.join != r.search).count();
    if format == Format::Json {
        write_check_json(out, kernel, plan.n(), seed, &checked, total)?;
    } else {
        for row_set in &checked {
            let (band, rows) = (band_text(row_set), west_rows(row_set));
            let verdict = if row_set.join == row_set.search {
                "agree"
            } else {
                "DIFFER"
            };
            writeln!(
                out,
                "band [{}], west rows {}: join {}, search {}: {verdict}",
                band.join(" "),
                rows.join(" "),
                row_set.join,
                row_set.search
            )?;
        }
    }
    if differ > 0 {
        return Err(Failure::Disagreement(format!(
            "check: {differ} of {} of N = {} counted differently by the join and the search",
            super::plural::counted(checked.len(), "row set", "row sets"),
            plan.n()
        )));
    }
    if format != Format::Json {
        if checked.len() == 1 {
            writeln!(out, "the 1 row set agrees: {total} solutions in all")?;
        } else {
            writeln!(out, "all {} agree: {total} solutions in all", checked.len())?;
        }
    }
    Ok(())
}

/// A row set's band, its queens as `(row, column)`.
fn band_text(row_set: &Checked) -> Vec<String> {
    row_set
        .band()
        .iter()
        .map(|(row, column)| format!("({row}, {column})"))
        .collect()
}

/// The rows of a row set's west half-board, from 0.
fn west_rows(row_set: &Checked) -> Vec<String> {
    (0..32)
        .filter(|&row| row_set.west_rows >> row & 1 != 0)
        .map(|row: u32| row.to_string())
        .collect()
}

/// `--check --format json`: the checks as one object, each row set's two
/// counts and whether they agree, and whether all do. Counts, and the
/// seed, as numbers and as decimal strings (`output::write_json_integer`).
fn write_check_json(
    out: &mut impl Write,
    kernel: queens_simd::Kernel,
    n: usize,
    seed: u64,
    checked: &[Checked],
    total: queens_simd::Count,
) -> std::io::Result<()> {
    use super::output::write_json_integer;
    write!(
        out,
        "{{\"n\":{n},\"kernel\":\"{kernel}\",\"draws\":{},",
        checked.len()
    )?;
    write_json_integer(out, "seed", seed)?;
    out.write_all(b",\"row_sets\":[")?;
    for (at, row_set) in checked.iter().enumerate() {
        let band: Vec<String> = row_set
            .band()
            .iter()
            .map(|(row, column)| format!("[{row},{column}]"))
            .collect();
        let separator = if at == 0 { "" } else { "," };
        write!(
            out,
            "{separator}{{\"band\":[{}],\"west_rows\":[{}],",
            band.join(","),
            west_rows(row_set).join(",")
        )?;
        write_json_integer(out, "join", row_set.join)?;
        out.write_all(b",")?;
        write_json_integer(out, "search", row_set.search)?;
        write!(out, ",\"agree\":{}}}", row_set.join == row_set.search)?;
    }
    out.write_all(b"],")?;
    write_json_integer(out, "solutions", total)?;
    let all_agree = checked.iter().all(|r| r.join == r.search);
    writeln!(out, ",\"agree\":{all_agree}}}")
}

/// `1.2300e1 ± 3.3%`: the value and the error's share.
fn plus_minus(projection: Projection, scale: f64) -> String {
    format!("{:.4e} ± {}", projection.value / scale, share(projection))
}

/// The standard error as a share of the value: `3.3%`; `0.0%` where
/// every draw gave none (a board with no solutions), where the share would
/// be 0 / 0; and `?` for one draw, which has no spread to measure (the
/// first line says so), rather than `inf%`.
fn share(projection: Projection) -> String {
    if projection.standard_error.is_infinite() {
        "?".to_owned()
    } else if projection.standard_error == 0.0 {
        "0.0%".to_owned()
    } else {
        format!("{:.1}%", 100.0 * projection.relative_error())
    }
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
        "N = {n}: {} drawn with --seed {}, joined by {} on {on} in {wall:.1} s{}",
        super::plural::counted(draws, "row set", "row sets"),
        sample.seed(),
        sample.kernel(),
        if draws == 1 {
            " (one draw has no spread to measure: its errors read ?; draw two or more)"
        } else {
            ""
        }
    )?;
    writeln!(
        out,
        "solutions:   {} (standard error)",
        plus_minus(sample.count(), 1.0)
    )?;
    writeln!(
        out,
        "core-hours:  {} on one core of this CPU (joins {:.4e}, tables {:.4e}; error: draws {}, this machine's speed {:.1}%)",
        plus_minus(sample.seconds(), 3600.0),
        sample.join_seconds().value / 3600.0,
        sample.table_seconds().value / 3600.0,
        share(sample.draws_error()),
        100.0 * sample.machine()
    )?;
    writeln!(
        out,
        "speed:       the join count of N = 14 took {:.3} ms, the mean of {} through the sample",
        1e3 * sample.reference_seconds(),
        super::plural::counted(sample.machine_times(), "timing", "timings")
    )?;
    writeln!(
        out,
        "memory:      {} for a count or a shard on {on} (the estimate --max-memory checks)",
        show(memory)
    )?;
    let joins = Joins::of(sample);
    writeln!(
        out,
        "join:        {}; {:.0}% of the lanes scanned hold a pair; {:.1} cut bits and {:.0} classes a row set",
        if joins.scanned_per_found.is_finite() {
            format!(
                "{:.4e} pairs scanned per pair found",
                joins.scanned_per_found
            )
        } else {
            "no pair found".to_owned()
        },
        100.0 * joins.lane_use,
        joins.cuts,
        joins.classes
    )?;
    let [west, east] = [joins.west, joins.east];
    writeln!(
        out,
        "half-boards: west and east, per row set: median {} and {}, 9 in 10 below {} and {}, largest drawn {} and {}",
        west[0], east[0], west[1], east[1], west[2], east[2]
    )?;
    let stop = StopLoss::of(sample);
    writeln!(
        out,
        "a stop:      loses at most {:.1} s of one core a thread (a block of row sets, {BLOCK_SECONDS:.0} s, or one row set where it takes longer: the longest drawn took {:.1} s, its tables included)",
        stop.most(),
        stop.longest_row_set
    )
}

/// What a stop of a count can lose: the block each thread was counting
/// (about [`BLOCK_SECONDS`] of one core), or a single row set that takes
/// longer; the longest drawn says how long one can take.
struct StopLoss {
    /// Seconds of one core of the longest row set drawn, its join and its
    /// tables.
    longest_row_set: f64,
}

impl StopLoss {
    fn of(sample: &Sample) -> StopLoss {
        let longest_row_set = sample
            .observations()
            .iter()
            .map(|o| (o.join + o.tables).as_secs_f64())
            .fold(0.0, f64::max);
        StopLoss { longest_row_set }
    }

    /// Seconds of one core a thread's stop loses at most.
    fn most(&self) -> f64 {
        self.longest_row_set.max(BLOCK_SECONDS)
    }
}

/// What the sample's joins did, over the count: the sieve's work and the
/// spread of the half-boards' lists.
struct Joins {
    scanned_per_found: f64,
    /// Pairs scanned per lane scanned.
    lane_use: f64,
    /// Per row set joined, on average.
    cuts: f64,
    classes: f64,
    /// Median, 90th percentile and largest drawn, per row set.
    west: [u64; 3],
    east: [u64; 3],
}

impl Joins {
    fn of(sample: &Sample) -> Joins {
        let total = |measure: fn(&JoinStats) -> u64| sample.stats(measure).value;
        let row_sets = total(|s| s.row_sets).max(f64::MIN_POSITIVE);
        let spread = |measure: fn(&JoinStats) -> u64| {
            let quantiles = sample.quantiles(measure, &[0.5, 0.9]);
            let largest = sample
                .observations()
                .iter()
                .map(|o| measure(&o.stats))
                .max()
                .unwrap_or(0);
            [quantiles[0], quantiles[1], largest]
        };
        Joins {
            scanned_per_found: total(|s| s.scanned) / total(|s| s.found),
            lane_use: total(|s| s.scanned) / total(|s| s.lanes),
            cuts: total(|s| s.cuts) / row_sets,
            classes: total(|s| s.classes) / row_sets,
            west: spread(|s| s.west),
            east: spread(|s| s.east),
        }
    }
}

/// The projection as one JSON object; its `"plan"`, the fingerprint as
/// records write it, lets `script --projection` refuse another plan's.
fn write_json(
    out: &mut impl Write,
    plan: &Plan,
    sample: &Sample,
    threads: usize,
    memory: u64,
    wall: f64,
) -> std::io::Result<()> {
    let pair =
        |p: Projection| serde_json::json!({"value": p.value, "standard_error": p.standard_error});
    let joins = Joins::of(sample);
    let stop = StopLoss::of(sample);
    let mut object = serde_json::json!({
        "n": sample.n(),
        "plan": format!("{:016x}", plan.fingerprint()),
        "kernel": sample.kernel().name(),
        "draws": sample.observations().len(),
        "seed": sample.seed(),
        "threads": threads,
        "seconds": wall,
        "solutions": pair(sample.count()),
        "core_seconds": pair(sample.seconds()),
        "join_core_seconds": pair(sample.join_seconds()),
        "table_core_seconds": pair(sample.table_seconds()),
        "draws_core_seconds": pair(sample.draws_error()),
        "machine_spread": sample.machine(),
        "reference_seconds": sample.reference_seconds(),
        "memory_bytes": memory,
        "stop_loses_core_seconds": {
            "most_per_thread": stop.most(),
            "block": BLOCK_SECONDS,
            "longest_row_set_drawn": stop.longest_row_set,
        },
        "join": {
            "scanned_per_found": joins.scanned_per_found,
            "lane_use": joins.lane_use,
            "cuts_per_row_set": joins.cuts,
            "classes_per_row_set": joins.classes,
            "west_half_boards": {"median": joins.west[0], "ninety_percent": joins.west[1], "largest_drawn": joins.west[2]},
            "east_half_boards": {"median": joins.east[0], "ninety_percent": joins.east[1], "largest_drawn": joins.east[2]},
        },
    });
    // The projections are floats, estimates to begin with, and stay so.
    // The seed is a 64-bit number, past 2^53 for almost every fresh seed:
    // repeated as a decimal string, as counts are
    // (`output::write_json_integer`), so that any reader can repeat it.
    object[format!("seed{}", super::output::TEXT_SUFFIX)] = sample.seed().to_string().into();
    writeln!(out, "{object}")
}
