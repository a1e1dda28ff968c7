//! Command-line arguments, parsed with clap; every parse error becomes one
//! line on stderr.

use clap::{Parser, ValueEnum};
use queens_simd::{Kernel, MAX_N};

/// Count and list the solutions of the N-Queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "queens-simd", version, about, long_about = None)]
pub struct Args {
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

    /// Also report the solve time in microseconds on stderr: the median
    /// batch of solves after 0.5 s of warm-up, as criterion measures.
    #[arg(long)]
    pub time: bool,
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

fn parse_kernel(name: &str) -> Result<Kernel, String> {
    name.parse().map_err(|e: queens_simd::Error| e.to_string())
}

/// Parses the process arguments. Help and version are printed and exit 0;
/// any other problem is returned as one line.
pub fn parse() -> Result<Args, String> {
    Args::try_parse().map_err(|err| {
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
}
