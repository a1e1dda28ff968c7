//! Counting through a plan: on several threads, one shard of many, with a
//! checkpoint to resume from, and a progress bar on a terminal.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::plan::{Method, Plan, Shard};

use super::Failure;
use super::args::{Format, PlanCount, Solve};
use super::files::{self, CheckpointLock, path_text};
use super::records::{Checkpoint, PlanId, Plans, ShardRecord, Tally};
use super::{memory, output};

/// Counts N (or one shard of it) through the plan of its kernel and prints
/// the total, or with `--shard` the shard's record.
pub fn count(solve: &Solve, request: &PlanCount, out: &mut impl Write) -> Result<(), Failure> {
    let plan = Plan::for_kernel(solve.n, solve.kernel)?;
    let shard = request.shard.unwrap_or(Shard::WHOLE);
    let options = super::plan_options(solve.kernel, request.threads);
    let kernel = plan.counting_kernel(&options)?;
    let mine = plan.shard(shard);
    // Before anything is locked or written: a count that cannot fit is
    // refused as it is asked.
    if plan.method() == Method::Join {
        let needed = plan.memory_estimate(options.threads);
        memory::check(solve.n, kernel, options.threads, needed, solve.max_memory)
            .map_err(Failure::Refused)?;
    }

    // Held to the end of the run: a second run on the same checkpoint is
    // refused instead of racing this one.
    let _lock = match &request.checkpoint {
        Some((path, _)) => Some(CheckpointLock::take(path).map_err(Failure::Refused)?),
        None => None,
    };
    // What is counted so far: from the checkpoint, if there is one. Its
    // count grows with the tally, and it is what each save writes.
    let mut progress = match &request.checkpoint {
        Some((path, _)) if std::fs::symlink_metadata(path).is_ok() => resume(path, &plan, shard)?,
        _ => Checkpoint {
            plan: PlanId::of(&plan),
            shard,
            tally: Tally::empty(plan.len()),
            count: 0,
            seconds: 0.0,
        },
    };
    if let Some((path, _)) = &request.checkpoint
        && !progress.tally.is_empty()
    {
        eprintln!(
            "queens-simd: resuming from checkpoint {}: {} of {} subproblems done",
            path_text(path),
            progress.tally.len(),
            mine.len()
        );
    }
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| !progress.tally.contains(i))
        .collect();

    let bar = progress_bar(request.quiet, &plan, &mine, &todo);
    let started = Instant::now();
    let previous_seconds = progress.seconds;
    let save = |progress: &mut Checkpoint, seconds: f64| -> std::io::Result<()> {
        match &request.checkpoint {
            Some((path, _)) => {
                progress.seconds = seconds;
                files::replace(path, &progress.to_bytes())
            }
            None => Ok(()),
        }
    };
    // Written before counting, so that a path that cannot be written fails
    // now rather than after hours of work.
    if let Some((path, _)) = &request.checkpoint {
        save(&mut progress, previous_seconds).map_err(|e| {
            Failure::Checkpoint(format!("cannot write checkpoint {}: {e}", path_text(path)))
        })?;
    }
    let interval = request
        .checkpoint
        .as_ref()
        .map_or(Duration::MAX, |(_, interval)| *interval);
    let mut last_write = started;
    let mut write_failed = None;
    plan.count(&todo, &options, |index, count| {
        progress.tally.insert(index, count);
        // At most N! in the checkpoint (checked when it is read) and N! in
        // this run's counts: no overflow.
        progress.count += count;
        if !bar.is_hidden() {
            bar.inc(plan.get(index).map_or(1, |s| s.estimate()));
            bar.set_message(format!(
                "{}/{} subproblems",
                progress.tally.len(),
                mine.len()
            ));
        }
        if last_write.elapsed() >= interval {
            last_write = Instant::now();
            let elapsed = previous_seconds + started.elapsed().as_secs_f64();
            if let Err(e) = save(&mut progress, elapsed) {
                if write_failed.is_none() {
                    bar.suspend(|| {
                        eprintln!(
                            "queens-simd: warning: cannot update the checkpoint ({e}); still counting"
                        )
                    });
                }
                write_failed.get_or_insert(e);
            }
        }
    })?;
    bar.finish_and_clear();
    let seconds = previous_seconds + started.elapsed().as_secs_f64();
    if let Some((path, _)) = &request.checkpoint
        && let Err(e) = save(&mut progress, seconds)
    {
        // The count is finished and is printed below: only the record of
        // it on disk is behind. The earliest failure is the one to show.
        let e = write_failed.take().unwrap_or(e);
        eprintln!(
            "queens-simd: warning: the count is finished, but checkpoint {} could not be saved ({e}); it may still show an earlier state",
            path_text(path)
        );
    }

    if let Some(shard) = request.shard {
        let record = ShardRecord {
            plan: progress.plan,
            shard,
            count: progress.count,
            tally: progress.tally,
            kernel: kernel.to_string(),
            threads: options.threads,
            seconds,
        };
        out.write_all(&record.to_bytes())?;
    } else if solve.format == Format::Json {
        output::write_json_fields(out, solve.n, kernel, false)?;
        writeln!(out, ",\"count\":{}}}", progress.count)?;
    } else {
        writeln!(out, "{}", progress.count)?;
    }
    Ok(())
}

/// The progress of a count from its checkpoint file, which must belong to
/// the same plan and shard.
fn resume(path: &Path, plan: &Plan, shard: Shard) -> Result<Checkpoint, Failure> {
    let refuse = Failure::Refused;
    let shown = path_text(path);
    let bytes = files::read_record(path).map_err(refuse)?;
    // Its own plan (rebuilt, once): the checkpoint may be of another N.
    let record = Checkpoint::parse(&bytes, &mut Plans::default())
        .map_err(|why| refuse(format!("checkpoint {shown} {why}")))?;
    let expected = PlanId::of(plan);
    if record.plan != expected {
        // A checkpoint of the other method's plan of the same N is resumed
        // with a kernel of its method.
        let hint = if record.plan.n == expected.n && record.plan.method != expected.method {
            format!("; resume it with --kernel {}", names(record.plan.method))
        } else {
            String::new()
        };
        return Err(refuse(format!(
            "checkpoint {shown} is for {}, not {expected}{hint}",
            record.plan
        )));
    }
    if record.shard != shard {
        return Err(refuse(format!(
            "checkpoint {shown} is for shard {}, not {shard}",
            record.shard
        )));
    }
    Ok(record)
}

/// A bar on stderr, weighted by the subproblems' estimates, if stderr is a
/// terminal and `--quiet` is not given; else a hidden one.
fn progress_bar(quiet: bool, plan: &Plan, mine: &[usize], todo: &[usize]) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    // Saturating: a join plan's estimates are large (up to 10^9 each at
    // N = 32), though their sums fit.
    let weight = |indices: &[usize]| -> u64 {
        indices
            .iter()
            .map(|&i| plan.get(i).map_or(1, |s| s.estimate()))
            .fold(0, u64::saturating_add)
    };
    let total = weight(mine);
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} N = {prefix} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta} {msg}",
    )
    .expect("the template is valid")
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_prefix(plan.n().to_string());
    bar.set_position(total - weight(todo));
    bar.set_message(format!(
        "{}/{} subproblems",
        mine.len() - todo.len(),
        mine.len()
    ));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The kernels that count `method`'s plans, from the one that runs
/// everywhere up: `join, join-avx2 or join-avx512`.
fn names(method: Method) -> String {
    let kernels: Vec<&str> = method.kernels().rev().map(|k| k.name()).collect();
    match kernels.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
