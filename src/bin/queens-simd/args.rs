//! Command-line arguments, parsed with clap; every parse error becomes one
//! line on stderr.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use queens_simd::plan::Shard;
use queens_simd::{Kernel, MAX_N};

/// Count and list the solutions of the N-Queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "queens-simd", version, about, long_about = None)]
pub struct Args {
    /// `merge`, or none to solve N.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Board size N, from 0 to 32.
    #[arg(value_parser = parse_n, allow_negative_numbers = true, default_value = "8")]
    pub n: usize,

    /// Print only the number of solutions.
    #[arg(long)]
    pub count: bool,

    /// Only the fundamental solutions: one per class under the 8 symmetries
    /// of the square, in canonical form.
    #[arg(long)]
    pub unique: bool,

    /// How to print each solution.
    #[arg(long, value_enum, default_value_t = Format::Board)]
    pub format: Format,

    /// Kernel to solve with (see --kernels).
    #[arg(long, value_parser = parse_kernel, default_value = "auto")]
    pub kernel: Kernel,

    /// List every kernel, whether this CPU runs it, and what auto picks.
    #[arg(long, conflicts_with_all = ["verify", "count", "time"])]
    pub kernels: bool,

    /// Check every kernel and reference solver against the portable kernel
    /// on full solution sets, for N = 0 to --max-n.
    #[arg(long, conflicts_with_all = ["count", "time", "unique"])]
    pub verify: bool,

    /// Largest N for --verify.
    #[arg(long, requires = "verify", value_parser = parse_max_n, default_value = "12")]
    pub max_n: usize,

    /// Threads to count on (default: every core). Counting splits the
    /// board into subproblems from N = 12 up (symmetric kernels only);
    /// below, one thread is fastest.
    #[arg(long, value_parser = parse_threads, allow_hyphen_values = true, requires = "count", conflicts_with = "unique")]
    pub threads: Option<usize>,

    /// Count only shard I of M (`I/M`, from 0/M to M-1/M) and print a JSON
    /// record of it, for `queens-simd merge`.
    #[arg(long, value_parser = parse_shard, allow_hyphen_values = true, requires = "count", conflicts_with_all = ["unique", "time"])]
    pub shard: Option<Shard>,

    /// Record finished subproblems in FILE as the count goes (replaced
    /// atomically), and resume from it if it exists.
    #[arg(long, value_name = "FILE", requires = "count", conflicts_with_all = ["unique", "time"])]
    pub checkpoint: Option<PathBuf>,

    /// Seconds between checkpoint writes, at most (default 0.5; 0: after
    /// every finished subproblem).
    #[arg(long, value_name = "SECONDS", requires = "checkpoint", value_parser = parse_interval)]
    pub checkpoint_interval: Option<f64>,

    /// No progress bar (it shows only on a terminal anyway).
    #[arg(long)]
    pub quiet: bool,

    /// Also report the solve time in microseconds on stderr: the median
    /// batch of solves after 0.5 s of warm-up, as criterion measures.
    #[arg(long)]
    pub time: bool,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that shard records (from --shard) cover every subproblem of
    /// one plan exactly once, and print the total count.
    Merge {
        /// The records, one per shard.
        #[arg(required = true, value_name = "FILES")]
        files: Vec<PathBuf>,
    },
}

/// Output formats for listed solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Boards drawn with `@` and `.`, a blank line between boards, then a total.
    Board,
    /// One solution per line: N column indices, row 0 first.
    Columns,
    /// The seed-000 64-bit bitboard in hexadecimal (N <= 8).
    Hex,
    /// One JSON object.
    Json,
}

fn parse_n(text: &str) -> Result<usize, String> {
    parse_bounded(text, MAX_N, "N")
}

fn parse_max_n(text: &str) -> Result<usize, String> {
    parse_bounded(text, queens_simd::verify::MAX_VERIFY_N, "--max-n")
}

fn parse_bounded(text: &str, max: usize, what: &str) -> Result<usize, String> {
    match text.parse::<i64>() {
        Ok(v) if (0..=max as i64).contains(&v) => Ok(v as usize),
        Ok(_) => Err(format!("{what} must be from 0 to {max}")),
        Err(_) => Err(format!("{what} must be a whole number from 0 to {max}")),
    }
}

/// Most threads accepted: far more than any machine's cores, few enough
/// that a typo does not start a million threads.
const MAX_THREADS: usize = 4096;

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<i64>() {
        Ok(v) if (1..=MAX_THREADS as i64).contains(&v) => Ok(v as usize),
        _ => Err(format!(
            "--threads must be a whole number from 1 to {MAX_THREADS}"
        )),
    }
}

fn parse_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=86400.0).contains(&v) => Ok(v),
        _ => Err("--checkpoint-interval must be a number of seconds from 0 to 86400".into()),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse().map_err(|e: queens_simd::Error| e.to_string())
}

fn parse_kernel(name: &str) -> Result<Kernel, String> {
    name.parse().map_err(|e: queens_simd::Error| e.to_string())
}

/// Parses the process arguments. Help and version are printed and exit 0;
/// any other problem is returned as one line.
pub fn parse() -> Result<Args, String> {
    Args::try_parse()
        .map_err(|err| {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                // Printing help can only fail on a closed stdout: nothing to add.
                let _ = err.print();
                std::process::exit(0);
            }
            // clap's message is several lines (the problem, sometimes a list of
            // the arguments concerned, then usage): keep the problem, on one line.
            let text = err.to_string();
            let problem: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
                .collect();
            let problem = problem.join(" ");
            let problem = problem.strip_prefix("error: ").unwrap_or(&problem);
            format!("{problem} (see --help)")
        })
        .and_then(|args| {
            // clap would let options before `merge` through, unused.
            if args.command.is_some() && std::env::args().nth(1).as_deref() != Some("merge") {
                return Err("'merge' comes first: queens-simd merge FILES... (see --help)".into());
            }
            Ok(args)
        })
}
