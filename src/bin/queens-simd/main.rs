//! `queens-simd`: count and list N-Queens solutions, list the kernels, verify
//! every kernel against the portable one.
//!
//! Exit status: 0 on success, 1 if `--verify` finds a disagreement or output
//! fails, 2 on bad input (one line on stderr). A closed pipe (`| head`) ends
//! the output quietly with status 0.

mod args;
mod merge;
mod output;
mod records;
mod report;
mod split;
mod timing;

use std::hint::black_box;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use queens_simd::kernel::Task;
use queens_simd::{Error, Kernel, fundamental};

use args::{Args, Command, Format};
use output::Failure;

fn main() -> ExitCode {
    let args = match args::parse() {
        Ok(args) => args,
        Err(line) => return fail_input(&line),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = run(&args, &mut out).and_then(|status| {
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

fn run(args: &Args, out: &mut impl Write) -> Result<ExitCode, Failure> {
    if args.kernels {
        report::kernels(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.verify {
        return report::verify(out, args.max_n);
    }
    if let Some(Command::Merge { files }) = &args.command {
        merge::merge(files, out)?;
        return Ok(ExitCode::SUCCESS);
    }

    let n = args.n;
    // Resolve `auto` for the task and check availability and size before
    // any output.
    let task = match (args.unique, args.count) {
        (true, _) => Task::Fundamental,
        (false, true) => Task::Count,
        (false, false) => Task::Enumerate,
    };
    let solver = args.kernel.solver_for(n, task)?;
    let kernel = solver.kernel();
    if args.format == Format::Hex && n > 8 {
        return Err(Error::BitboardTooSmall { n }.into());
    }

    let many_threads = args.threads.is_some_and(|threads| threads > 1);
    if many_threads && args.kernel != Kernel::Auto && !counts_through_plan(args, kernel) {
        return Err(Error::NotSplittable(kernel).into());
    }
    if counts_through_plan(args, kernel) {
        split::count(args, out)?;
    } else if args.count {
        let count = if args.unique {
            fundamental::count(kernel, n)?
        } else {
            solver.count(n)?
        };
        if args.format == Format::Json {
            output::write_json_fields(out, n, kernel, args.unique)?;
            writeln!(out, ",\"count\":{count}}}")?;
        } else {
            writeln!(out, "{count}")?;
        }
    } else {
        output::list(out, kernel, n, args.unique, args.format)?;
    }

    if args.time {
        out.flush()?;
        if counts_through_plan(args, kernel) {
            let plan = queens_simd::plan::Plan::new(n)?;
            let options = plan_options(args);
            let timing = timing::measure(|| {
                black_box(plan.count(plan.all(), &options, |_, _| {}).ok());
            });
            eprintln!(
                "time: {:.3} µs per solve, median of {} samples of {} solves after {} warm-up solves (fastest {:.3} µs); kernel {kernel}, N = {n}, count on {} threads",
                timing.median_us,
                timing.samples,
                timing.batch,
                timing.warm_up_solves,
                timing.min_us,
                options.threads
            );
            return Ok(ExitCode::SUCCESS);
        }
        let mode = if args.count {
            "count"
        } else {
            "enumerate, no output"
        };
        let timing = match (args.count, args.unique) {
            (true, false) => timing::measure(|| {
                black_box(solver.count(black_box(n)).ok());
            }),
            (true, true) => timing::measure(|| {
                black_box(fundamental::count(kernel, black_box(n)).ok());
            }),
            (false, unique) => timing::measure(|| {
                let mut visit = |board: &queens_simd::Board| {
                    black_box(board);
                    ControlFlow::Continue(())
                };
                black_box(if unique {
                    fundamental::for_each(kernel, black_box(n), &mut visit).ok()
                } else {
                    solver.for_each_solution(black_box(n), &mut visit).ok()
                });
            }),
        };
        let what = if args.unique { " (fundamental)" } else { "" };
        eprintln!(
            "time: {:.3} µs per solve, median of {} samples of {} solves after {} warm-up solves (fastest {:.3} µs); kernel {kernel}, N = {n}, {mode}{what}",
            timing.median_us, timing.samples, timing.batch, timing.warm_up_solves, timing.min_us
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether this request counts through a plan: always for `--shard` and
/// `--checkpoint`; for a plain count, with a symmetric kernel from
/// [`queens_simd::plan::SPLIT_FROM`] up.
fn counts_through_plan(args: &Args, kernel: Kernel) -> bool {
    let symmetric = matches!(kernel, Kernel::Symmetric | Kernel::SymmetricBmi);
    args.shard.is_some()
        || args.checkpoint.is_some()
        || (args.count && !args.unique && symmetric && args.n >= queens_simd::plan::SPLIT_FROM)
}

/// The thread count and kernel of the request.
fn plan_options(args: &Args) -> queens_simd::plan::Options {
    let mut options = queens_simd::plan::Options::default().with_kernel(args.kernel);
    if let Some(threads) = args.threads {
        options.threads = threads;
    }
    options
}
