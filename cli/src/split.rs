//! Counting through a plan: on several threads, one shard of many, with a
//! checkpoint to resume from, and a progress bar on a terminal.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use queens_simd::Kernel;
use queens_simd::dispatch::Options;
use queens_simd::kernel::Method;
use queens_simd::plan::{InFlight, MemoryNeeds, Plan, Progress, Shard};

use super::Failure;
use super::args::{Format, PlanCount, Solve};
use super::files::{self, CheckpointLock, NotLocked, path_text};
use super::records::{Checkpoint, PlanId, Plans, ShardRecord};
use super::status::Messages;
use super::{memory, output};

/// Refuses a count through the plan of `method` whose plan, count and
/// draws (with `--sample`) pass a limit of this process
/// ([`memory::check`]), before anything is built.
fn check_memory(
    solve: &Solve,
    request: &PlanCount,
    kernel: Kernel,
    method: Method,
    options: &Options,
) -> Result<(), Failure> {
    let needs = MemoryNeeds::new(method, solve.n)?;
    let draws = request.sample.map(|sample| sample.draws.get());
    let needed = |threads| memory::needed(&needs, threads, draws);
    let limits = memory::Limits::of_this_process(solve.max_memory);
    let shards = method == Method::Join && draws.is_none();
    memory::check(kernel, solve.n, options.threads(), shards, &needed, &limits)
        .map_err(Failure::Refused)
}

/// The one rule for shards that would count nothing, of `--shard I/M`
/// and of `script --shards M` (`asked`, as typed): at most as many shards
/// as the plan has subproblems, or one where it has none (N = 3's join
/// plan: the whole, counted in one shard, is 0).
pub(super) fn check_no_empty_shards(asked: &str, shards: usize, plan: &Plan) -> Result<(), String> {
    use super::plural::counted;
    let most = plan.len().max(1);
    if shards <= most {
        return Ok(());
    }
    Err(format!(
        "{asked} would leave some shards nothing to count: N = {}'s {} plan has {}; at most {}",
        plan.n(),
        plan.method(),
        counted(plan.len(), "subproblem", "subproblems"),
        counted(most, "shard", "shards")
    ))
}

/// The shard asked for (the whole plan if none), refused where some
/// shards of its count would have nothing to count.
fn checked_shard(shard: Option<Shard>, plan: &Plan) -> Result<Shard, Failure> {
    if let Some(shard) = shard {
        check_no_empty_shards(&format!("--shard {shard}"), shard.shards(), plan)
            .map_err(Failure::Refused)?;
    }
    Ok(shard.unwrap_or(Shard::WHOLE))
}

/// Counts N (or one shard of it) through the plan of its kernel and prints
/// the total, or with `--shard` the shard's record.
pub fn count(
    solve: &Solve,
    request: &PlanCount,
    out: &mut impl Write,
    messages: &Messages,
) -> Result<(), Failure> {
    let method = queens_simd::dispatch::plan_method(solve.kernel, solve.n)?;
    let options = super::plan_options(solve.kernel, request.threads);
    let kernel = options.counting_kernel(method)?;
    // Before the plan is built, and anything locked or written: a count
    // that cannot fit is refused as it is asked.
    check_memory(solve, request, kernel, method, &options)?;
    let plan = Plan::with_method(method, solve.n)?;
    check_expected_plan(&plan, request.expect_plan)?;
    if let Some(sample) = request.sample {
        return super::sample::project(&plan, &options, sample, solve.format, out);
    }
    let shard = checked_shard(request.shard, &plan)?;
    let mine = plan.shard(shard);
    // The file is checked before anything is created (a link is refused),
    // then locked to the end of the run: a second run on the same file is
    // refused instead of racing this one.
    let checkpoint = match &request.checkpoint {
        Some((path, interval)) => Some((
            files::checkpoint_file(path).map_err(Failure::Refused)?,
            *interval,
        )),
        None => None,
    };
    let file = checkpoint.as_ref().map(|(path, _)| path.as_path());
    let _lock = match file {
        Some(path) => Some(lock(path, request.skip_if_locked, messages)?),
        None => None,
    };
    let interval = checkpoint.as_ref().map_or(0.0, |(_, i)| i.as_secs_f64());
    let mut progress = starting_point(file, &plan, shard, mine.len(), interval, messages)?;
    let attempt = Attempt::new(options.threads(), &progress);
    let mut saver = Saver::new(checkpoint.as_ref(), messages, attempt);
    // Written before counting, so that a path that cannot be written fails
    // now rather than after hours of work.
    saver.save_first(&mut progress)?;
    let counted = count_the_rest(
        &plan,
        &mine,
        &options,
        request.quiet,
        &mut progress,
        &mut saver,
    );
    let (seconds, threads) = match counted {
        Ok(counted) => counted,
        Err(failure) => {
            // What was counted before memory ran out is right: kept for a
            // resume with fewer threads or more memory.
            saver.save_after_failure(&mut progress);
            return Err(failure);
        }
    };
    let saved = saver.save_last(&mut progress, seconds);
    messages.finished(finished_note(&progress, request.shard, file, saved));
    if let Some(shard) = request.shard {
        let record = finished_record(progress, shard, kernel, threads, seconds);
        out.write_all(&record.to_bytes())?;
    } else if solve.format == Format::Json {
        output::write_json_fields(out, kernel, solve.n, false)?;
        out.write_all(b",")?;
        output::write_json_integer(out, "count", progress.count)?;
        out.write_all(b"}\n")?;
    } else {
        writeln!(out, "{}", progress.count)?;
    }
    Ok(())
}

/// `--expect-plan`: the count is refused, before anything is locked or
/// written, unless this version's plan of N is the one asked for (a
/// campaign's script passes the plan its records are of).
fn check_expected_plan(plan: &Plan, expected: Option<u64>) -> Result<(), Failure> {
    match expected {
        Some(expected) if expected != plan.fingerprint() => Err(Failure::Refused(format!(
            "--expect-plan {expected:016x}: this queens-simd ({}) counts N = {} through {} plan {:016x}, another plan; run the version whose plan that is",
            env!("CARGO_PKG_VERSION"),
            plan.n(),
            plan.method(),
            plan.fingerprint()
        ))),
        _ => Ok(()),
    }
}

/// What a finished count says if its result cannot be written (a full
/// disk): its total, and whether its checkpoint holds all of it, so that
/// running the same command again only writes the result.
fn finished_note(
    progress: &Checkpoint,
    shard: Option<Shard>,
    checkpoint: Option<&Path>,
    saved: bool,
) -> String {
    let what = match shard {
        Some(shard) => format!("shard {shard} of N = {}", progress.plan.n),
        None => format!("N = {}", progress.plan.n),
    };
    let kept = match checkpoint {
        Some(path) if saved => format!(
            ", all in checkpoint {}: run the same command again to write the result",
            path_text(path)
        ),
        Some(path) => format!(
            ", but checkpoint {} could not be saved either",
            path_text(path)
        ),
        None => String::new(),
    };
    format!(
        "the count is finished: {what} has {} solutions{kept}",
        progress.count
    )
}

/// The record of shard `shard`, whose count `progress` holds, all of it
/// counted by `kernel` on `threads` threads in `seconds` of all its
/// attempts, the last of which stamped `progress`.
fn finished_record(
    progress: Checkpoint,
    shard: Shard,
    kernel: Kernel,
    threads: usize,
    seconds: f64,
) -> ShardRecord {
    ShardRecord {
        plan: progress.plan,
        shard,
        count: progress.count,
        tally: progress.tally,
        kernel: kernel.to_string(),
        threads,
        seconds,
        origin: progress.origin,
        attempts: progress.attempt,
        core_seconds: progress.core_seconds,
    }
}

/// The lock on `checkpoint` for this run; where its file system takes no
/// lock, a warning on stderr, and the count goes on. One that another run
/// holds is refused, or with `skip` ends the count with status 0 and
/// nothing written ([`Failure::Skipped`]).
fn lock(checkpoint: &Path, skip: bool, messages: &Messages) -> Result<CheckpointLock, Failure> {
    let lock = CheckpointLock::take(checkpoint).map_err(|why| match why {
        NotLocked::Held(why) if skip => {
            Failure::Skipped(format!("{why}: skipped (--skip-if-locked)"))
        }
        NotLocked::Held(why) => {
            Failure::Refused(format!("{why}; wait for it to finish or give another file"))
        }
        NotLocked::Failed(why) => Failure::Refused(why),
    })?;
    if let Some(warning) = lock.warning(checkpoint) {
        messages.say(warning);
    }
    Ok(lock)
}

/// What is counted so far: from the checkpoint, if there is one (said on
/// stderr when it holds anything; this run is its next attempt), else
/// nothing. Its count grows with the tally, and it is what each save
/// writes.
fn starting_point(
    checkpoint: Option<&Path>,
    plan: &Plan,
    shard: Shard,
    mine: usize,
    interval: f64,
    messages: &Messages,
) -> Result<Checkpoint, Failure> {
    let progress = match checkpoint {
        Some(path) if std::fs::symlink_metadata(path).is_ok() => {
            resume(path, plan, shard)?.resumed(interval)
        }
        _ => Checkpoint::start(PlanId::of(plan), shard, interval),
    };
    if let Some(path) = checkpoint
        && !(progress.tally.is_empty() && progress.in_flight.is_empty())
    {
        messages.say(format_args!(
            "resuming from checkpoint {}: {} of {} done{}",
            path_text(path),
            progress.tally.len(),
            super::plural::counted(mine, "subproblem", "subproblems"),
            begun_text(&progress.in_flight)
        ));
    }
    Ok(progress)
}

/// `, and K begun (R of S row sets)` for the pieces in flight, if any.
fn begun_text(in_flight: &InFlight) -> String {
    if in_flight.is_empty() {
        return String::new();
    }
    let (done, of) = in_flight
        .iter()
        .fold((0u64, 0u64), |(done, of), (_, parts)| {
            (done + u64::from(parts.len()), of + u64::from(parts.of()))
        });
    format!(", and {} begun ({done} of {of} row sets)", in_flight.len())
}

/// Counts the subproblems of `mine` that `progress` does not hold yet,
/// adding each to it as it finishes (with a progress bar, and the
/// checkpoint saved as often as asked); returns the seconds counted in
/// all, those of earlier runs included, and the threads that counted (a
/// warning on stderr says so if the system refused some).
fn count_the_rest(
    plan: &Plan,
    mine: &[usize],
    options: &Options,
    quiet: bool,
    progress: &mut Checkpoint,
    saver: &mut Saver<'_>,
) -> Result<(f64, usize), Failure> {
    let todo: Vec<usize> = mine
        .iter()
        .copied()
        .filter(|&i| !progress.tally.contains(i))
        .collect();
    let bar = progress_bar(quiet, plan, mine, &todo, &progress.in_flight);
    let started = Instant::now();
    let previous_seconds = progress.seconds;
    // What earlier runs counted of the pieces they began: left out.
    let begun = progress.in_flight.clone();
    let counted = options.count_progress(plan, &todo, &begun, |event| {
        let estimate = |index: usize| plan.get(index).map_or(1, |s| s.estimate());
        match event {
            Progress::Part {
                index,
                rows,
                of,
                count,
            } => {
                let len = u64::from(rows.end - rows.start);
                let added = progress.in_flight.add(index, rows, of, count);
                debug_assert!(added.is_ok(), "a count's parts fit: {added:?}");
                bar.inc(scaled(estimate(index), len, of));
                // Its last part: the piece's end comes next, and is what
                // the checkpoint should say.
                if progress
                    .in_flight
                    .get(index)
                    .is_some_and(|parts| parts.len() == parts.of())
                {
                    return;
                }
            }
            Progress::Done { index, count } => {
                progress.in_flight.remove(index);
                progress.tally.insert(index, count);
                // At most N! in the checkpoint (checked when it is read)
                // and N! in this run's counts: no overflow.
                progress.count += count;
                if plan.method() == Method::Symmetric {
                    bar.inc(estimate(index));
                }
                bar.set_message(format!(
                    "{}/{} subproblems",
                    progress.tally.len(),
                    mine.len()
                ));
            }
            // Nothing finished: saved all the same when due, so that the
            // checkpoint's heartbeat says the count is alive, but not more
            // often than twice a second, whatever the interval.
            _ if !saver.heartbeat_due() => return,
            _ => {}
        }
        let elapsed = || previous_seconds + started.elapsed().as_secs_f64();
        saver.save_if_due(progress, elapsed, &bar);
    });
    bar.finish_and_clear();
    let counted = counted?;
    super::warn_of_refused_threads(saver.messages, &counted, options.threads());
    Ok((
        previous_seconds + started.elapsed().as_secs_f64(),
        counted.threads,
    ))
}

/// `estimate * len / of`, the share of a piece's estimate that `len` of
/// its `of` row sets stand for (0 for a piece of none), without overflow.
fn scaled(estimate: u64, len: u64, of: u32) -> u64 {
    if of == 0 {
        return 0;
    }
    (u128::from(estimate) * u128::from(len) / u128::from(of)) as u64
}

/// The shortest time between two saves of a checkpoint with nothing new
/// in it but its heartbeat.
const HEARTBEAT_FLOOR: Duration = Duration::from_millis(500);

/// This attempt at a count: its threads, when it began, and the core-seconds
/// of the attempts before it.
struct Attempt {
    threads: usize,
    began: Instant,
    earlier_core_seconds: f64,
}

impl Attempt {
    fn new(threads: usize, progress: &Checkpoint) -> Attempt {
        Attempt {
            threads,
            began: Instant::now(),
            earlier_core_seconds: progress.core_seconds,
        }
    }

    /// Marks `progress` as saved now: its heartbeat, and the core-seconds
    /// of every run up to now.
    fn stamp(&self, progress: &mut Checkpoint) {
        progress.heartbeat = super::records::unix_now();
        progress.core_seconds =
            self.earlier_core_seconds + self.threads as f64 * self.began.elapsed().as_secs_f64();
    }
}

/// The checkpoint of a count, if it has one: where, how often it is
/// rewritten, when it last was, and the first write that failed; and the
/// run that writes it.
struct Saver<'a> {
    path: Option<&'a Path>,
    messages: &'a Messages,
    interval: Duration,
    last_write: Instant,
    failed: Option<std::io::Error>,
    attempt: Attempt,
}

impl<'a> Saver<'a> {
    fn new(
        checkpoint: Option<&'a (PathBuf, Duration)>,
        messages: &'a Messages,
        attempt: Attempt,
    ) -> Saver<'a> {
        let (path, interval) = match checkpoint {
            Some((path, interval)) => (Some(path.as_path()), *interval),
            None => (None, Duration::MAX),
        };
        Saver {
            path,
            messages,
            interval,
            last_write: Instant::now(),
            failed: None,
            attempt,
        }
    }

    /// Stamps `progress` (its heartbeat and core-seconds: a record takes
    /// them from the last save) and writes it with `seconds` counted, if
    /// there is a checkpoint.
    fn save(&self, progress: &mut Checkpoint, seconds: f64) -> std::io::Result<()> {
        self.attempt.stamp(progress);
        match self.path {
            Some(path) => {
                progress.seconds = seconds;
                files::replace(path, &progress.to_bytes())
            }
            None => Ok(()),
        }
    }

    /// The save before counting: one that fails stops the count.
    fn save_first(&mut self, progress: &mut Checkpoint) -> Result<(), Failure> {
        let seconds = progress.seconds;
        self.save(progress, seconds).map_err(|e| {
            let shown = self.path.map(path_text).unwrap_or_default();
            Failure::Checkpoint(format!("cannot write checkpoint {shown}: {e}"))
        })?;
        self.last_write = Instant::now();
        Ok(())
    }

    /// Whether a save with nothing new to keep is due: the interval has
    /// passed, and at least [`HEARTBEAT_FLOOR`] (an interval of 0 saves
    /// after every part, not every time the count reports it is alive).
    fn heartbeat_due(&self) -> bool {
        self.last_write.elapsed() >= self.interval.max(HEARTBEAT_FLOOR)
    }

    /// A save while counting, if the interval has passed: one that fails
    /// is said once on stderr, and the count goes on.
    fn save_if_due(
        &mut self,
        progress: &mut Checkpoint,
        seconds: impl Fn() -> f64,
        bar: &ProgressBar,
    ) {
        if self.last_write.elapsed() < self.interval {
            return;
        }
        self.last_write = Instant::now();
        if let Err(e) = self.save(progress, seconds()) {
            if self.failed.is_none() {
                bar.suspend(|| {
                    self.messages.say(format_args!(
                        "warning: cannot update the checkpoint ({e}); still counting"
                    ));
                });
            }
            self.failed.get_or_insert(e);
            // The count goes on, but ends with status 1: its file is behind.
            self.messages.lose();
        }
    }

    /// The save of a count that stopped on an error (memory refused): what
    /// it holds is right, and a rerun resumes from it. One that fails is
    /// said on stderr.
    fn save_after_failure(&mut self, progress: &mut Checkpoint) {
        let Some(path) = self.path else {
            return;
        };
        let seconds = progress.seconds;
        if let Err(e) = self.save(progress, seconds) {
            self.messages.say(format_args!(
                "warning: checkpoint {} could not be saved ({e}); it may show an earlier state",
                path_text(path)
            ));
            self.messages.lose();
        }
    }

    /// The save of the finished count: one that fails is said on stderr,
    /// with the earliest failure, and the total is printed all the same;
    /// the count ends with status 1, as any failed save does. Whether the
    /// checkpoint holds the count now.
    fn save_last(&mut self, progress: &mut Checkpoint, seconds: f64) -> bool {
        // Without a checkpoint, only stamped for the record.
        if let Err(e) = self.save(progress, seconds)
            && let Some(path) = self.path
        {
            // Only the record of the count on disk is behind.
            let e = self.failed.take().unwrap_or(e);
            self.messages.say(format_args!(
                "warning: the count is finished, but checkpoint {} could not be saved ({e}); it may still show an earlier state",
                path_text(path)
            ));
            // The total is printed, and the status (1) says the file is
            // behind.
            self.messages.lose();
            return false;
        }
        true
    }
}

/// The progress of a count from its checkpoint file, which must belong to
/// the same plan and shard.
fn resume(path: &Path, plan: &Plan, shard: Shard) -> Result<Checkpoint, Failure> {
    let refuse = Failure::Refused;
    let shown = path_text(path);
    let bytes = files::read_record(path, files::Holding::CHECKPOINT).map_err(refuse)?;
    // Its own plan (rebuilt, once): the checkpoint may be of another N.
    let record = Checkpoint::parse(&bytes, &mut Plans::default())
        .map_err(|why| refuse(format!("checkpoint {shown} {why}")))?;
    let expected = PlanId::of(plan);
    if record.plan != expected {
        // A checkpoint of the other method's plan of the same N is resumed
        // with a kernel of its method.
        let hint = if record.plan.n == expected.n && record.plan.method != expected.method {
            format!(
                "; resume it with --kernel {}",
                super::report::kernel_names(record.plan.method)
            )
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
    for (index, parts) in record.in_flight.iter() {
        let has = plan.get(index).and_then(|sub| sub.row_sets());
        if has != Some(parts.of()) {
            return Err(refuse(format!(
                "checkpoint {shown} has subproblem {index} in flight with {} row sets, but it has {}",
                parts.of(),
                has.map_or_else(|| "none".into(), |has| has.to_string())
            )));
        }
    }
    Ok(record)
}

/// A bar on stderr, weighted by the subproblems' estimates (a piece in
/// flight by its share of row sets counted), if stderr is a terminal and
/// `--quiet` is not given; else a hidden one.
fn progress_bar(
    quiet: bool,
    plan: &Plan,
    mine: &[usize],
    todo: &[usize],
    in_flight: &InFlight,
) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let estimate = |index: usize| plan.get(index).map_or(1, |s| s.estimate());
    // Saturating: a join plan's estimates are large (up to 10^9 each at
    // N = 32), though their sums fit.
    let weight = |indices: &[usize]| -> u64 {
        indices
            .iter()
            .map(|&i| estimate(i))
            .fold(0, u64::saturating_add)
    };
    let begun = in_flight
        .iter()
        .map(|(index, parts)| scaled(estimate(index), u64::from(parts.len()), parts.of()))
        .fold(0, u64::saturating_add);
    let total = weight(mine);
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} N = {prefix} [{elapsed_precise}] {wide_bar} {percent:>3}% ETA {eta} {msg}",
    )
    .expect("the template is valid")
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_prefix(plan.n().to_string());
    bar.set_position((total - weight(todo)).saturating_add(begun));
    bar.set_message(format!(
        "{}/{} subproblems",
        mine.len() - todo.len(),
        mine.len()
    ));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}
