//! Printing a campaign's [`Summary`]: lines for a person, or one JSON
//! object with the same numbers.

use std::fmt::Display;
use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use queens_simd::Count;

use super::super::files::path_text;
use super::super::plural::counted;
use super::super::records::Duplicate;
use super::summary::{FutureDated, Partial, Summary};

/// How many refused files, or duplicates, the text names; the JSON names
/// every one.
pub const REFUSALS_NAMED: usize = 10;

/// The lines of `summary` of the folder `dir`.
pub fn text(out: &mut impl Write, dir: &Path, summary: &Summary) -> io::Result<()> {
    let s = summary;
    let duplicates = match s.duplicates.len() {
        0 => String::new(),
        many => format!(" and {}", counted(many, "duplicate", "duplicates")),
    };
    writeln!(
        out,
        "campaign {}: {} in {}; {} read{duplicates}, {} refused",
        path_text(dir),
        s.plan,
        counted(s.shards, "shard", "shards"),
        counted(s.files, "file", "files"),
        s.refused.len()
    )?;
    shards(out, s)?;
    writeln!(
        out,
        "subproblems: {} of {} done ({:.1}%), {:.1}% of the plan's estimate",
        s.subproblems_done,
        s.plan.subproblems,
        percent(s.subproblems_done, s.plan.subproblems),
        s.estimate_done * 100.0
    )?;
    writeln!(
        out,
        "solutions: {} in {}, and {} so far in {}",
        count_text(s.solutions),
        counted(s.records, "record", "records"),
        count_text(s.checkpoint_solutions),
        counted(s.checkpoints, "checkpoint", "checkpoints")
    )?;
    if s.cross_checked > 0 {
        writeln!(
            out,
            "cross-checked: {}, whose records agree",
            counted(s.cross_checked, "shard", "shards")
        )?;
    }
    writeln!(out, "core-hours: {}", core_hours(s))?;
    writeln!(out, "eta: {}", eta(s))?;
    let duplicates: Vec<String> = s.duplicates.iter().map(|d| d.to_string()).collect();
    named_lines(out, "duplicate", &duplicates)?;
    let refused: Vec<&String> = s.refused.iter().map(|(_, line)| line).collect();
    named_lines(out, "refused", &refused)
}

/// `{label}: {line}` for the first [`REFUSALS_NAMED`] of `lines`, and how
/// many more there are.
fn named_lines(out: &mut impl Write, label: &str, lines: &[impl Display]) -> io::Result<()> {
    for line in lines.iter().take(REFUSALS_NAMED) {
        writeln!(out, "{label}: {line}")?;
    }
    if lines.len() > REFUSALS_NAMED {
        writeln!(out, "{label}: and {} more", lines.len() - REFUSALS_NAMED)?;
    }
    Ok(())
}

/// The state of the shards, and the first of each group but the done.
fn shards(out: &mut impl Write, s: &Summary) -> io::Result<()> {
    let disputed = if s.disputed.0 > 0 {
        format!("{} disputed, ", s.disputed.0)
    } else {
        String::new()
    };
    let finished = if s.unrecorded.0 > 0 {
        format!("{} finished with no record, ", s.unrecorded.0)
    } else {
        String::new()
    };
    writeln!(
        out,
        "shards: {} done, {disputed}{finished}{} running, {} stalled, {} missing",
        s.done, s.running.0, s.stalled.0, s.missing.0
    )?;
    unrecorded_line(out, s)?;
    if s.running.0 > 0 {
        let named: Vec<String> = s.running.1.iter().map(|p| partial(p, s.shards)).collect();
        writeln!(out, "running: {}", listed(named, s.running.0))?;
    }
    stalled_lines(out, s)?;
    for dated in &s.future.1 {
        writeln!(
            out,
            "dated in the future: {}/{}, {} is dated {} ahead of this machine's clock, so its age is unknown (counted as stalled)",
            dated.shard,
            s.shards,
            path_text(&dated.path),
            duration(dated.ahead.as_secs_f64())
        )?;
    }
    if s.future.0 > s.future.1.len() {
        writeln!(
            out,
            "dated in the future: and {} more",
            s.future.0 - s.future.1.len()
        )?;
    }
    if s.missing.0 > 0 {
        let named = s
            .missing
            .1
            .iter()
            .map(|i| format!("{i}/{}", s.shards))
            .collect();
        writeln!(out, "missing: {}", listed(named, s.missing.0))?;
    }
    for line in &s.disputed.1 {
        writeln!(out, "disputed: {line}")?;
    }
    if s.disputed.0 > s.disputed.1.len() {
        writeln!(
            out,
            "disputed: and {} more",
            s.disputed.0 - s.disputed.1.len()
        )?;
    }
    Ok(())
}

/// The line that names the shards finished with no record, if any.
fn unrecorded_line(out: &mut impl Write, s: &Summary) -> io::Result<()> {
    if s.unrecorded.0 == 0 {
        return Ok(());
    }
    let named = s
        .unrecorded
        .1
        .iter()
        .map(|p| format!("{}/{}", p.shard, s.shards))
        .collect();
    let rerun = if s.unrecorded.0 == 1 {
        "rerun the shard to write it"
    } else {
        "rerun each shard to write its record"
    };
    writeln!(
        out,
        "finished, record missing: {}: {rerun}",
        listed(named, s.unrecorded.0)
    )
}

/// Where and when each stalled count named last beat: a line each.
fn stalled_lines(out: &mut impl Write, s: &Summary) -> io::Result<()> {
    for p in &s.stalled.1 {
        writeln!(
            out,
            "stalled: {}, last beat {} ago on {}, attempt {}",
            partial(p, s.shards),
            duration(p.age.as_secs_f64()),
            p.beat.origin,
            p.beat.attempt
        )?;
    }
    if s.stalled.0 > s.stalled.1.len() {
        writeln!(out, "stalled: and {} more", s.stalled.0 - s.stalled.1.len())?;
    }
    Ok(())
}

/// `2/4 (12 of 40 subproblems)`.
fn partial(p: &Partial, shards: usize) -> String {
    format!(
        "{}/{shards} ({} of {} subproblems)",
        p.shard, p.done, p.size
    )
}

/// The named items, and how many more there are.
fn listed(mut named: Vec<String>, all: usize) -> String {
    if all > named.len() {
        named.push(format!("and {} more", all - named.len()));
    }
    named.join(", ")
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// A sum of counts, or what it is when it does not fit.
fn count_text(count: Option<Count>) -> String {
    count.map_or_else(|| "more than 2^128".to_owned(), |c| c.to_string())
}

/// Hours with as many decimals as a small campaign needs.
fn hours(seconds: f64) -> String {
    let hours = seconds / 3600.0;
    if hours >= 100.0 {
        format!("{hours:.0}")
    } else if hours >= 1.0 {
        format!("{hours:.1}")
    } else {
        format!("{hours:.3}")
    }
}

/// `1.5 spent in 2 records and 1 checkpoint (stops included); about 4.0
/// left`.
fn core_hours(s: &Summary) -> String {
    let checkpoints = if s.checkpoints > 0 {
        format!(
            " and {}",
            counted(s.checkpoints, "checkpoint", "checkpoints")
        )
    } else {
        String::new()
    };
    let mut line = format!(
        "{} spent in {}{checkpoints} (stops included)",
        hours(s.core_seconds + s.checkpoint_core_seconds),
        counted(s.record_files, "record", "records")
    );
    match s.core_seconds_left {
        Some(left) => line.push_str(&format!("; about {} left", hours(left))),
        None => line.push_str("; unknown left (no record has counted any of the estimate yet)"),
    }
    line
}

fn eta(s: &Summary) -> String {
    match s.eta_seconds {
        _ if s.done == s.shards => "none: every shard is done".to_owned(),
        Some(seconds) => format!("about {} at the pace so far", duration(seconds)),
        None => "unknown (too little is done to tell)".to_owned(),
    }
}

/// `40 s`, `12 min`, `5.5 hours`, `3.2 days`.
fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.0} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 172_800.0 {
        format!("{:.1} hours", seconds / 3600.0)
    } else {
        format!("{:.1} days", seconds / 86_400.0)
    }
}

/// The JSON object: the same numbers, counts also as decimal strings
/// (`solutions_text`), as `--count --format json` writes them.
#[derive(Serialize)]
struct Json<'a> {
    dir: String,
    n: usize,
    method: String,
    fingerprint: &'a str,
    subproblems_in_plan: usize,
    shards: usize,
    files: usize,
    done: usize,
    unrecorded: usize,
    running: usize,
    stalled: usize,
    missing: usize,
    disputed: usize,
    unrecorded_first: Vec<JsonPartial>,
    running_first: Vec<JsonPartial>,
    stalled_first: Vec<JsonPartial>,
    missing_first: Vec<String>,
    disputed_first: &'a [String],
    future_dated: usize,
    future_dated_first: Vec<JsonFuture>,
    cross_checked: usize,
    subproblems_done: usize,
    estimate_done: f64,
    solutions: Option<Count>,
    solutions_text: Option<String>,
    records: usize,
    checkpoint_solutions: Option<Count>,
    checkpoint_solutions_text: Option<String>,
    checkpoints: usize,
    record_files: usize,
    core_hours_spent: f64,
    checkpoint_core_hours: f64,
    core_hours_left: Option<f64>,
    eta_seconds: Option<f64>,
    duplicates: &'a [Duplicate],
    refused: Vec<JsonRefusal>,
}

#[derive(Serialize)]
struct JsonPartial {
    shard: String,
    subproblems_done: usize,
    subproblems: usize,
    /// Since its last heartbeat (0 for one ahead of this machine's clock).
    seconds_since_heartbeat: f64,
    host: Option<String>,
    slurm_job: Option<String>,
    slurm_array_task: Option<String>,
    pid: u32,
    attempt: u32,
}

#[derive(Serialize)]
struct JsonFuture {
    shard: String,
    file: String,
    seconds_ahead: f64,
}

#[derive(Serialize)]
struct JsonRefusal {
    file: String,
    why: String,
}

/// `summary` of the folder `dir` as one JSON object and a newline.
pub fn json(out: &mut impl Write, dir: &Path, summary: &Summary) -> io::Result<()> {
    let s = summary;
    let partials = |group: &[Partial]| {
        group
            .iter()
            .map(|p| JsonPartial {
                shard: format!("{}/{}", p.shard, s.shards),
                subproblems_done: p.done,
                subproblems: p.size,
                seconds_since_heartbeat: p.age.as_secs_f64(),
                host: p.beat.origin.host.clone(),
                slurm_job: p.beat.origin.job.clone(),
                slurm_array_task: p.beat.origin.task.clone(),
                pid: p.beat.pid,
                attempt: p.beat.attempt,
            })
            .collect()
    };
    let json = Json {
        dir: path_text(dir),
        n: s.plan.n,
        method: s.plan.method.to_string(),
        fingerprint: &s.plan.fingerprint,
        subproblems_in_plan: s.plan.subproblems,
        shards: s.shards,
        files: s.files,
        done: s.done,
        unrecorded: s.unrecorded.0,
        running: s.running.0,
        stalled: s.stalled.0,
        missing: s.missing.0,
        disputed: s.disputed.0,
        unrecorded_first: partials(&s.unrecorded.1),
        running_first: partials(&s.running.1),
        stalled_first: partials(&s.stalled.1),
        missing_first: s
            .missing
            .1
            .iter()
            .map(|i| format!("{i}/{}", s.shards))
            .collect(),
        disputed_first: &s.disputed.1,
        future_dated: s.future.0,
        future_dated_first: s
            .future
            .1
            .iter()
            .map(|dated: &FutureDated| JsonFuture {
                shard: format!("{}/{}", dated.shard, s.shards),
                file: path_text(&dated.path),
                seconds_ahead: dated.ahead.as_secs_f64(),
            })
            .collect(),
        cross_checked: s.cross_checked,
        subproblems_done: s.subproblems_done,
        estimate_done: s.estimate_done,
        solutions: s.solutions,
        solutions_text: s.solutions.map(|c| c.to_string()),
        records: s.records,
        checkpoint_solutions: s.checkpoint_solutions,
        checkpoint_solutions_text: s.checkpoint_solutions.map(|c| c.to_string()),
        checkpoints: s.checkpoints,
        record_files: s.record_files,
        core_hours_spent: (s.core_seconds + s.checkpoint_core_seconds) / 3600.0,
        checkpoint_core_hours: s.checkpoint_core_seconds / 3600.0,
        core_hours_left: s.core_seconds_left.map(|c| c / 3600.0),
        eta_seconds: s.eta_seconds,
        duplicates: &s.duplicates,
        refused: s
            .refused
            .iter()
            .map(|(path, line)| JsonRefusal {
                file: path_text(path),
                why: line.clone(),
            })
            .collect(),
    };
    serde_json::to_writer(&mut *out, &json).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_at_a_glance() {
        assert_eq!(duration(0.4), "0 s");
        assert_eq!(duration(119.0), "119 s");
        assert_eq!(duration(150.0), "2 min");
        assert_eq!(duration(3.0 * 3600.0), "3.0 hours");
        assert_eq!(duration(5.0 * 86_400.0), "5.0 days");
        assert_eq!(hours(1.8), "0.001");
        assert_eq!(hours(5400.0), "1.5");
        assert_eq!(hours(400.0 * 3600.0), "400");
        assert_eq!(count_text(None), "more than 2^128");
        assert_eq!(listed(vec!["1/9".into()], 3), "1/9, and 2 more");
    }
}
