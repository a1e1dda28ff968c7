//! Counting through a plan: on several threads, one shard of many, with a
//! checkpoint to resume from, and a progress bar on a terminal.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use queens_simd::Count;
use queens_simd::plan::{Plan, Shard};

use crate::args::{Args, Format};
use crate::output::{self, Failure};
use crate::records::{self, Checkpoint, Coverage, PlanId, ShardRecord};

/// How often, at most, the checkpoint file is rewritten.
const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(500);

/// What is known of a count before this run: from the checkpoint, if any.
struct Progress {
    done: Coverage,
    count: Count,
    seconds: f64,
}

/// Counts N (or one shard of it) through its plan and prints the total, or
/// with `--shard` the shard's record.
pub fn count(args: &Args, out: &mut impl Write) -> Result<(), Failure> {
    let plan = Plan::new(args.n)?;
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let options = crate::plan_options(args);
    let kernel = options.counting_kernel()?;
    let mine = plan.shard(shard);

    let mut progress = match &args.checkpoint {
        Some(path) if path.exists() => resume(path, &plan, shard, &mine)?,
        _ => Progress {
            done: Coverage::empty(plan.len()),
            count: 0,
            seconds: 0.0,
        },
    };
    if let Some(path) = &args.checkpoint
        && progress.done.len() > 0
    {
        eprintln!(
            "queens-simd: resuming from checkpoint {}: {} of {} subproblems done",
            path.display(),
            progress.done.len(),
            mine.len()
        );
    }
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| !progress.done.contains(i))
        .collect();

    let bar = progress_bar(args, &plan, &mine, &todo);
    let started = Instant::now();
    let mut last_write = started;
    let mut write_failed = None;
    let checkpoint = args.checkpoint.as_deref();
    let interval = args
        .checkpoint_interval
        .map_or(CHECKPOINT_INTERVAL, Duration::from_secs_f64);
    let save = |progress: &Progress, elapsed: f64| -> std::io::Result<()> {
        match checkpoint {
            Some(path) => records::write_atomically(
                path,
                &Checkpoint::new(&plan, shard, &progress.done, progress.count, elapsed),
            ),
            None => Ok(()),
        }
    };
    let previous_seconds = progress.seconds;
    // Written before counting, so that a path that cannot be written fails
    // now rather than after hours of work.
    if let Some(path) = checkpoint {
        save(&progress, previous_seconds).map_err(|e| {
            Failure::Checkpoint(format!("cannot write checkpoint {}: {e}", path.display()))
        })?;
    }
    plan.count(&todo, &options, |index, count| {
        progress.done.insert(index);
        progress.count += count;
        if !bar.is_hidden() {
            bar.inc(plan.get(index).map_or(1, |s| s.estimate()));
            bar.set_message(format!(
                "{}/{} subproblems",
                progress.done.len(),
                mine.len()
            ));
        }
        if checkpoint.is_some() && last_write.elapsed() >= interval {
            last_write = Instant::now();
            let elapsed = previous_seconds + started.elapsed().as_secs_f64();
            if let Err(e) = save(&progress, elapsed) {
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
    if let Some(path) = checkpoint {
        // A failed write along the way matters only if the last one fails
        // too: then the earliest reason is the one to show.
        save(&progress, seconds).map_err(|e| {
            let e = write_failed.take().unwrap_or(e);
            Failure::Checkpoint(format!("cannot write checkpoint {}: {e}", path.display()))
        })?;
    }

    if args.shard.is_some() {
        let record = ShardRecord {
            format: records::SHARD_FORMAT.into(),
            version: records::VERSION,
            plan: PlanId::of(&plan),
            shard: shard.to_string(),
            subproblems: progress.done.len(),
            covered: progress.done.to_hex(),
            count: progress.count.to_string(),
            kernel: kernel.to_string(),
            threads: options.threads,
            seconds,
        };
        serde_json::to_writer_pretty(&mut *out, &record).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else if args.format == Format::Json {
        output::write_json_fields(out, args.n, kernel, false)?;
        writeln!(out, ",\"count\":{}}}", progress.count)?;
    } else {
        writeln!(out, "{}", progress.count)?;
    }
    Ok(())
}

/// The progress of a count from its checkpoint file, which must belong to
/// the same plan and shard.
fn resume(path: &Path, plan: &Plan, shard: Shard, mine: &[usize]) -> Result<Progress, Failure> {
    let refuse = Failure::Refused;
    let record: Checkpoint = records::read(path, records::CHECKPOINT_FORMAT).map_err(refuse)?;
    let shown = path.display();
    let expected = PlanId::of(plan);
    if record.plan != expected {
        return Err(refuse(format!(
            "checkpoint {shown} is for {}, not {expected}",
            record.plan
        )));
    }
    if record.shard != shard.to_string() {
        return Err(refuse(format!(
            "checkpoint {shown} is for shard {}, not {shard}",
            record.shard
        )));
    }
    let done = Coverage::from_hex(&record.done, plan.len())
        .map_err(|e| refuse(format!("checkpoint {shown}: {e}")))?;
    let mine = Coverage::of(plan.len(), mine);
    if let Some(stray) = (0..plan.len()).find(|&i| done.contains(i) && !mine.contains(i)) {
        return Err(refuse(format!(
            "checkpoint {shown} lists subproblem {stray}, which is not in shard {shard}"
        )));
    }
    if done.len() != record.subproblems_done {
        return Err(refuse(format!(
            "checkpoint {shown} says {} subproblems are done but lists {}",
            record.subproblems_done,
            done.len()
        )));
    }
    let count = records::parse_count(&record.count, path).map_err(refuse)?;
    Ok(Progress {
        done,
        count,
        seconds: record.seconds,
    })
}

/// A bar on stderr, weighted by the subproblems' estimates, if stderr is a
/// terminal and `--quiet` is not given; else a hidden one.
fn progress_bar(args: &Args, plan: &Plan, mine: &[usize], todo: &[usize]) -> ProgressBar {
    if args.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let weight = |indices: &[usize]| -> u64 {
        indices
            .iter()
            .map(|&i| plan.get(i).map_or(1, |s| s.estimate()))
            .sum()
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
