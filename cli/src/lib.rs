//! The `queens-simd` command line: count and list N-Queens solutions, list
//! the kernels, verify every kernel against the portable one, and count
//! large boards through a plan (threads, shards, checkpoints, `merge`).
//!
//! The package `queens-simd-cli`, built on the `queens_simd` library's
//! public API alone. The program is this library, so that the binary is
//! one line and the fuzz targets and tests reach its parser
//! ([`args::parse_from`]) and its record checks ([`records`]) directly;
//! [`main`] is the whole program. Its public items serve those, and
//! promise nothing to other crates.
//!
//! Exit status: one of [`status::Status`], listed in README.md: 0 on
//! success, 1 when output fails, 2 on bad input (one line on stderr),
//! including a file that fails its checks, 3 when a count is proved wrong
//! (`--verify`, `--check`, `merge`), 4 when memory is refused. A closed
//! pipe (`| head`) ends the output quietly with status 0; a stdout closed
//! at the start or open for reading only is refused with status 1 before
//! any work (the `streams` module says why std alone would hide it); no
//! path panics.

// Every line for stdout goes through the writer that `serve` is given, and
// every line for stderr through `status::Messages`: `println!` and
// `eprintln!` panic when the write fails.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod args;
mod campaign;
pub mod files;
pub mod memory;
mod merge;
mod output;
mod plural;
pub mod records;
mod report;
mod report_json;
mod sample;
mod script;
mod seed;
mod split;
pub mod status;
mod streams;
pub mod time_limit;
mod timing;

use std::ffi::OsString;
use std::hint::black_box;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;

use status::{Messages, Status};

use queens_simd::kernel::Task;
use queens_simd::{Error, Kernel, fundamental};

use args::{Format, Parsed, Request, Solve};

/// The program: parses `std::env::args_os`, runs the request, writes
/// stdout through one 64 KiB buffer and any error as one line on stderr.
pub fn main() -> ExitCode {
    run(std::env::args_os())
}

/// [`main`] for the given words (the program's name first); the exit
/// status is one of [`Status`].
pub fn run<I, T>(words: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let messages = Messages::default();
    let status = run_with(words, &messages);
    messages.status(status).into()
}

fn run_with<I, T>(words: I, messages: &Messages) -> Status
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let request = match args::parse_from(words) {
        Ok(Parsed::Request(request)) => request,
        Ok(Parsed::Print(text)) => {
            let mut stdout = match streams::stdout() {
                Ok(stdout) => stdout,
                Err(why) => return stdout_refused(&why, messages),
            };
            return match stdout.write_all(text.as_bytes()) {
                Ok(()) => Status::Success,
                Err(e) => Failure::Output(e).report(messages, "stdout"),
            };
        }
        Err(line) => return messages.error(line, Status::Refused),
    };
    if let Request::Solve(Solve {
        output: Some(path), ..
    }) = &request
    {
        return serve_to_file(&request, path, messages);
    }
    // Checked before any work: a count of hours whose total would go
    // nowhere is refused at once.
    let stdout = match streams::stdout() {
        Ok(stdout) => stdout,
        Err(why) => return stdout_refused(&why, messages),
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout);
    let result = serve(&request, &mut out, messages).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    result.unwrap_or_else(|failure| failure.report(messages, "stdout"))
}

/// `--output FILE`: the result goes to a [`files::Replacement`] of FILE,
/// renamed over it only when the request succeeds; on any failure FILE is
/// left as it was and the temporary file is removed.
fn serve_to_file(request: &Request, path: &Path, messages: &Messages) -> Status {
    let shown = files::path_text(path);
    let replacement = match output_replacement(request, path, &shown) {
        Ok(replacement) => replacement,
        Err(why) => return messages.error(why, Status::Refused),
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, replacement);
    let result = serve(request, &mut out, messages).and_then(|status| {
        let replacement = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        replacement.commit()?;
        Ok(status)
    });
    result.unwrap_or_else(|failure| failure.report(messages, &shown))
}

/// The replacement of `--output FILE`, or why FILE cannot take the result,
/// in one line naming FILE as given (`shown`): checked before any count,
/// like every input (so a refusal is [`Status::Refused`]).
fn output_replacement(
    request: &Request,
    path: &Path,
    shown: &str,
) -> Result<files::Replacement, String> {
    let file = files::output_file(path)?;
    let checkpoint = match request {
        Request::Solve(Solve {
            plan: Some(plan), ..
        }) => plan.checkpoint.as_ref().map(|(checkpoint, _)| checkpoint),
        _ => None,
    };
    if checkpoint.is_some_and(|checkpoint| files::same_file(checkpoint, path)) {
        return Err(
            "--output and --checkpoint name the same file; a count's result and its checkpoint are two files"
                .into(),
        );
    }
    files::Replacement::deferred(&file)
        .map_err(|e| format!("--output {shown} cannot be created: {e}"))
}

/// A stdout that cannot take the result (closed, or open for reading
/// only): nothing is done, and the status is [`Status::OutputFailed`].
fn stdout_refused(why: &streams::Unwritable, messages: &Messages) -> Status {
    messages.error(
        format_args!(
            "stdout {why}, so the result would be lost; nothing was done (give it a file or a pipe; >/dev/null discards it)"
        ),
        Status::OutputFailed,
    )
}

/// Why a request stopped early.
#[derive(Debug)]
enum Failure {
    /// Bad input, found by the library.
    Input(Error),
    /// Writing failed (a closed pipe among others).
    Output(io::Error),
    /// A file given as input (a shard record, a checkpoint) that cannot be
    /// used, or a combination that cannot be served, and why.
    Refused(String),
    /// The checkpoint could not be written before counting.
    Checkpoint(String),
    /// Two methods counted something differently, and what.
    Disagreement(String),
    /// Memory ran out where no count's advice (threads, shards) applies,
    /// and what to do instead.
    OutOfMemory(String),
    /// Nothing done, as asked (`--skip-if-locked`), and why: said on
    /// stderr, status 0, and `--output` left as it was.
    Skipped(String),
}

impl Failure {
    /// Says why on stderr, in one line, and gives the exit status;
    /// `output` names where the result was going (`stdout`, or the file
    /// given to `--output`).
    fn report(self, messages: &Messages, output: &str) -> Status {
        match self {
            Failure::Input(e @ Error::OutOfMemory { .. }) => messages.error(
                format_args!(
                    "{}; fewer --threads, a --shard of the count, or more memory (ulimit -v) may fit",
                    status::message(&e)
                ),
                Status::OutOfMemory,
            ),
            Failure::Input(e) => messages.error(status::message(&e), Status::Refused),
            Failure::Refused(why) => messages.error(why, Status::Refused),
            Failure::Checkpoint(why) => messages.error(why, Status::OutputFailed),
            Failure::Disagreement(what) => messages.error(what, Status::Disagreement),
            Failure::OutOfMemory(what) => messages.error(what, Status::OutOfMemory),
            Failure::Skipped(why) => {
                messages.say(why);
                Status::Success
            }
            // The reader stopped reading (`| head`): what it wanted, it has.
            Failure::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => Status::Success,
            Failure::Output(e) => {
                // A finished count's total is said all the same.
                let kept = messages
                    .finished_note()
                    .map_or_else(String::new, |note| format!("; {note}"));
                messages.error(
                    format_args!("cannot write output to {output}: {e}{kept}"),
                    Status::OutputFailed,
                )
            }
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        Failure::Input(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

fn serve(request: &Request, out: &mut impl Write, messages: &Messages) -> Result<Status, Failure> {
    match request {
        Request::Kernels { json: false } => report::kernels(out)?,
        Request::Kernels { json: true } => report_json::kernels(out)?,
        Request::Verify { max_n, json: false } => return report::verify(out, *max_n),
        Request::Verify { max_n, json: true } => return report_json::verify(out, *max_n),
        Request::Merge(merge) => merge::merge(merge, out, messages)?,
        Request::Status(request) => campaign::status(request, out)?,
        Request::Solve(solve) => self::solve(solve, out, messages)?,
        Request::Script(campaign) => script::write(campaign, out, messages)?,
    }
    Ok(Status::Success)
}

fn solve(solve: &Solve, out: &mut impl Write, messages: &Messages) -> Result<(), Failure> {
    let n = solve.n;
    // Resolve `auto` for the task and check availability and size before
    // any output.
    let solver = queens_simd::dispatch::solver_for(solve.kernel, solve.task, n)?;
    let kernel = solver.kernel();
    let unique = solve.task == Task::Fundamental;
    if let Some(plan) = &solve.plan {
        split::count(solve, plan, out, messages)?;
    } else if solve.count {
        let total = if unique {
            fundamental::count(kernel, n)?
        } else {
            // A join kernel builds its quarter-boards even here, on one
            // thread.
            if kernel.method() == Some(queens_simd::kernel::Method::Join) {
                let needed =
                    |_| queens_simd::dispatch::memory_estimate(kernel, n).unwrap_or(u64::MAX);
                let limits = memory::Limits::of_this_process(solve.max_memory);
                memory::check(kernel, n, 1, false, &needed, &limits).map_err(Failure::Refused)?;
            }
            queens_simd::dispatch::count(kernel, n)?
        };
        if solve.format == Format::Json {
            output::write_json_fields(out, kernel, n, unique)?;
            out.write_all(b",")?;
            output::write_json_integer(out, "count", total)?;
            out.write_all(b"}\n")?;
        } else {
            writeln!(out, "{total}")?;
        }
    } else {
        output::list(out, kernel, n, unique, solve.format)?;
    }
    if solve.time {
        out.flush()?;
        report_time(solve, solver, messages)?;
    }
    Ok(())
}

/// `--time`: solves again and again as asked (through the plan, counting,
/// or enumerating without output), and says on stderr how long one solve
/// takes.
fn report_time(
    solve: &Solve,
    solver: queens_simd::dispatch::HeldSolver,
    messages: &Messages,
) -> Result<(), Failure> {
    let (n, kernel) = (solve.n, solver.kernel());
    let unique = solve.task == Task::Fundamental;
    let (timing, what) = if let Some(request) = &solve.plan {
        let plan = queens_simd::dispatch::plan_for(solve.kernel, n)?;
        let options = plan_options(solve.kernel, request.threads);
        let timing = timing::measure(|| {
            black_box(options.count(&plan, plan.all(), |_, _| {}).ok());
        });
        (
            timing,
            format!("count on {}", memory::threads_text(options.threads())),
        )
    } else if solve.count {
        let timing = timing::measure(|| {
            black_box(if unique {
                fundamental::count(kernel, black_box(n)).ok()
            } else {
                queens_simd::dispatch::count(kernel, black_box(n)).ok()
            });
        });
        (
            timing,
            if unique {
                "count (fundamental)"
            } else {
                "count"
            }
            .to_string(),
        )
    } else {
        let timing = timing::measure(|| {
            let mut visit = |board: &queens_simd::Board| {
                black_box(board);
                ControlFlow::Continue(())
            };
            black_box(if unique {
                fundamental::for_each(kernel, black_box(n), &mut visit).ok()
            } else {
                black_box(&solver).for_each_solution(&mut visit).ok()
            });
        });
        let what = if unique { " (fundamental)" } else { "" };
        (timing, format!("enumerate, no output{what}"))
    };
    messages.write_line(format_args!(
        "time: {:.3} µs per solve, median of {} of {} after {} (fastest {:.3} µs); kernel {kernel}, N = {n}, {what}",
        timing.median_us,
        plural::counted(timing.samples, "sample", "samples"),
        plural::counted(timing.batch, "solve", "solves"),
        plural::counted(timing.warm_up_solves, "warm-up solve", "warm-up solves"),
        timing.min_us
    ));
    Ok(())
}

/// Says on stderr that the system refused some of the threads asked for
/// (`ulimit -u`, no memory for their stacks): the count is right, on
/// fewer threads.
fn warn_of_refused_threads(
    messages: &Messages,
    counted: &queens_simd::plan::Counted,
    asked: usize,
) {
    if counted.refused > 0 {
        messages.say(format_args!(
            "warning: the system refused to start {}; counted on {} of the {asked} asked for",
            plural::counted(counted.refused, "thread", "threads"),
            counted.threads
        ));
    }
}

/// The options of a count through a plan: the kernel, and the threads if
/// given (else every core).
fn plan_options(kernel: Kernel, threads: Option<usize>) -> queens_simd::dispatch::Options {
    let options = queens_simd::dispatch::Options::new().with_kernel(kernel);
    match threads {
        Some(threads) => options.with_threads(threads),
        None => options,
    }
}
