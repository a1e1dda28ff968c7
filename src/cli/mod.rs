//! The `queens-simd` command line: count and list N-Queens solutions, list
//! the kernels, verify every kernel against the portable one, and count
//! large boards through a plan (threads, shards, checkpoints, `merge`).
//!
//! It lives in the library so that the binary is one line and the fuzz
//! targets and tests reach its parser ([`args::parse_from`]) and its record
//! checks ([`records`]) directly; [`main`] is the whole program.
//!
//! Exit status: 0 on success, 1 if `--verify` finds a disagreement or output
//! fails, 2 on bad input (one line on stderr), including a file that fails
//! its checks. A closed pipe (`| head`) ends the output quietly with
//! status 0.

pub mod args;
pub mod files;
pub mod memory;
mod merge;
mod output;
pub mod records;
mod report;
mod sample;
mod split;
mod timing;

use std::ffi::OsString;
use std::hint::black_box;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use crate::kernel::Task;
use crate::{Error, Kernel, fundamental};

use args::{Format, Parsed, Request, Solve};

/// The program: parses `std::env::args_os`, runs the request, writes
/// stdout through one 64 KiB buffer and any error as one line on stderr.
pub fn main() -> ExitCode {
    run(std::env::args_os())
}

/// [`main`] for the given words (the program's name first).
pub fn run<I, T>(words: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let request = match args::parse_from(words) {
        Ok(Parsed::Request(request)) => request,
        Ok(Parsed::Print(text)) => {
            // Printing help can only fail on a closed stdout: nothing to add.
            let _ = io::stdout().write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        Err(line) => return fail_input(&line),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = serve(&request, &mut out).and_then(|status| {
        out.flush()?;
        Ok(status)
    });
    match result {
        Ok(status) => status,
        Err(Failure::Input(e)) => fail_input(&e.to_string()),
        Err(Failure::Refused(why)) => fail_input(&why),
        Err(Failure::Checkpoint(why)) => {
            eprintln!("queens-simd: error: {why}");
            ExitCode::FAILURE
        }
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("queens-simd: error: cannot write output: {e}");
            ExitCode::FAILURE
        }
    }
}

fn fail_input(line: &str) -> ExitCode {
    eprintln!("queens-simd: error: {line}");
    ExitCode::from(2)
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

fn serve(request: &Request, out: &mut impl Write) -> Result<ExitCode, Failure> {
    match request {
        Request::Kernels => {
            report::kernels(out)?;
            Ok(ExitCode::SUCCESS)
        }
        Request::Verify { max_n } => report::verify(out, *max_n),
        Request::Merge(merge) => {
            merge::merge(merge, out)?;
            Ok(ExitCode::SUCCESS)
        }
        Request::Solve(solve) => {
            self::solve(solve, out)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn solve(solve: &Solve, out: &mut impl Write) -> Result<(), Failure> {
    let n = solve.n;
    // Resolve `auto` for the task and check availability and size before
    // any output.
    let solver = solve.kernel.solver_for(n, solve.task)?;
    let kernel = solver.kernel();
    let unique = solve.task == Task::Fundamental;
    if let Some(plan) = &solve.plan {
        split::count(solve, plan, out)?;
    } else if solve.count {
        let total = if unique {
            fundamental::count(kernel, n)?
        } else {
            // A join kernel builds its quarter-boards even here, on one
            // thread.
            if kernel.method() == Some(crate::kernel::Method::Join) {
                let needed = |threads| crate::kernel::join::memory::estimate(n, threads);
                memory::check(n, kernel, 1, &needed, solve.max_memory).map_err(Failure::Refused)?;
            }
            kernel.count(n)?
        };
        if solve.format == Format::Json {
            output::write_json_fields(out, n, kernel, unique)?;
            writeln!(out, ",\"count\":{total}}}")?;
        } else {
            writeln!(out, "{total}")?;
        }
    } else {
        output::list(out, kernel, n, unique, solve.format)?;
    }
    if solve.time {
        out.flush()?;
        report_time(solve, solver)?;
    }
    Ok(())
}

/// `--time`: solves again and again as asked (through the plan, counting,
/// or enumerating without output), and says on stderr how long one solve
/// takes.
fn report_time(solve: &Solve, solver: &'static dyn crate::Solver) -> Result<(), Failure> {
    let (n, kernel) = (solve.n, solver.kernel());
    let unique = solve.task == Task::Fundamental;
    let (timing, what) = if let Some(request) = &solve.plan {
        let plan = crate::plan::Plan::for_kernel(n, solve.kernel)?;
        let options = plan_options(solve.kernel, request.threads);
        let timing = timing::measure(|| {
            black_box(plan.count(plan.all(), &options, |_, _| {}).ok());
        });
        (timing, format!("count on {} threads", options.threads))
    } else if solve.count {
        let timing = timing::measure(|| {
            black_box(if unique {
                fundamental::count(kernel, black_box(n)).ok()
            } else {
                kernel.count(black_box(n)).ok()
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
            let mut visit = |board: &crate::Board| {
                black_box(board);
                ControlFlow::Continue(())
            };
            black_box(if unique {
                fundamental::for_each(kernel, black_box(n), &mut visit).ok()
            } else {
                solver.for_each_solution(black_box(n), &mut visit).ok()
            });
        });
        let what = if unique { " (fundamental)" } else { "" };
        (timing, format!("enumerate, no output{what}"))
    };
    eprintln!(
        "time: {:.3} µs per solve, median of {} samples of {} solves after {} warm-up solves (fastest {:.3} µs); kernel {kernel}, N = {n}, {what}",
        timing.median_us, timing.samples, timing.batch, timing.warm_up_solves, timing.min_us
    );
    Ok(())
}

/// The options of a count through a plan: the kernel, and the threads if
/// given (else every core).
fn plan_options(kernel: Kernel, threads: Option<usize>) -> crate::plan::Options {
    let mut options = crate::plan::Options::default().with_kernel(kernel);
    if let Some(threads) = threads {
        options.threads = threads;
    }
    options
}
