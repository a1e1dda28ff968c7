//! The command line, parsed in two steps: clap reads the words into
//! [`Args`] (every flag optional, no defaults, so that "given" and "left
//! out" differ), then [`Args::validate`] checks the flags against each other
//! and yields a [`Request`]. Every flag that only means something with
//! another is refused without it, and every combination is either honoured
//! or refused with one line.

use std::ffi::OsString;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

use super::time_limit::TimeLimit;

use queens_simd::kernel::Method;
use queens_simd::kernel::Task;
use queens_simd::plan::Shard;
use queens_simd::{Kernel, MAX_N};

/// N when none is given.
pub const DEFAULT_N: usize = 8;

/// `--max-n` when none is given.
pub const DEFAULT_MAX_N: usize = 12;

/// How often a checkpoint is rewritten when `--checkpoint-interval` is not
/// given.
pub const DEFAULT_CHECKPOINT_INTERVAL: Duration = Duration::from_millis(500);

/// Most threads accepted: far more than any machine's cores, few enough
/// that a typo does not start a million threads.
pub const MAX_THREADS: usize = 4096;

/// Count and list the solutions of the N-Queens puzzle.
#[derive(Debug, Parser)]
#[command(name = "queens-simd", version, about, long_about = None)]
pub struct Args {
    /// `merge`, `status`, or none to solve N.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Board size N, from 0 to 32 (default 8).
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    pub n: Option<usize>,

    /// Print only the number of solutions.
    #[arg(long)]
    pub count: bool,

    /// Only the fundamental solutions: one per class under the 8 symmetries
    /// of the square, in canonical form.
    #[arg(long)]
    pub unique: bool,

    /// How to print each solution (default board); with --count, `json`
    /// wraps the number in a JSON object; with --kernels or --verify,
    /// `json` prints the table as one JSON object.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Kernel to solve with (default auto; see --kernels).
    #[arg(long, value_parser = parse_kernel)]
    pub kernel: Option<Kernel>,

    /// List every kernel, whether this CPU runs it, and what auto picks.
    /// Takes no other argument but --format json.
    #[arg(long)]
    pub kernels: bool,

    /// Check every kernel and reference solver against the portable kernel
    /// on full solution sets, for N = 0 to --max-n.
    #[arg(long)]
    pub verify: bool,

    /// Largest N for --verify (default 12, at most 15).
    #[arg(long, value_parser = parse_max_n, allow_negative_numbers = true)]
    pub max_n: Option<usize>,

    /// Threads to count on (default: every core); needs --count. Counting
    /// splits the board into subproblems from N = 12 up (symmetric and join
    /// kernels); below, one thread is fastest and is what runs.
    #[arg(long, value_parser = named("--threads", parse_threads), allow_hyphen_values = true)]
    pub threads: Option<usize>,

    /// Count only shard I of M (`I/M`, from 0/M to M-1/M) and print a JSON
    /// record of it, for `queens-simd merge`; needs --count.
    #[arg(long, value_parser = parse_shard, allow_hyphen_values = true)]
    pub shard: Option<Shard>,

    /// Record finished subproblems in FILE as the count goes (replaced
    /// atomically), and resume from it if it exists; needs --count.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// Seconds between checkpoint writes, at most (default 0.5; 0: after
    /// every block of row sets or subproblem finished); a join count also
    /// rewrites it that often (every half second at most) with nothing
    /// new, its heartbeat; needs --checkpoint.
    #[arg(long, value_name = "SECONDS", value_parser = named("--checkpoint-interval", parse_interval), allow_negative_numbers = true)]
    pub checkpoint_interval: Option<Duration>,

    /// No progress bar (it shows only on a terminal anyway); needs --count.
    #[arg(long)]
    pub quiet: bool,

    /// Refuse a count with a join kernel that would take more memory than
    /// SIZE (bytes, or with a suffix K, M, G, T, KiB, ... GiB, TiB: powers
    /// of 1024); default: the memory available. Needs a join count.
    #[arg(long, value_name = "SIZE", value_parser = named("--max-memory", super::memory::parse_size), allow_hyphen_values = true)]
    pub max_memory: Option<u64>,

    /// Also report the solve time in microseconds on stderr: the median
    /// batch of solves after 0.5 s of warm-up, as criterion measures.
    #[arg(long)]
    pub time: bool,

    /// Instead of counting, join K row sets of the join plan drawn at
    /// random, and project the whole count's solutions, core-hours and
    /// memory from them; needs --count.
    #[arg(long, value_name = "K", value_parser = parse_sample, allow_negative_numbers = true)]
    pub sample: Option<NonZeroUsize>,

    /// Seed of the random draw of --sample, to repeat a sample (default: a
    /// fresh one, printed); needs --sample.
    #[arg(long, value_name = "S", value_parser = named("--seed", parse_seed), allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// With --sample: instead of projecting, count each drawn row set of
    /// the join twice, by the join and by a plain search, and exit 3 if any
    /// two counts differ (with --format json, as one JSON object).
    #[arg(long)]
    pub check: bool,

    /// Write the result to FILE instead of stdout, whole or not at all: it
    /// goes to a temporary file beside FILE, renamed over FILE when the run
    /// succeeds, so that a batch job that fails leaves no record.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Refuse the count (status 2, before anything is locked or written)
    /// unless its plan's fingerprint is HEX, as a record's "plan" field
    /// writes it: what a campaign's script passes, so that a node with
    /// another version's plan counts nothing. Needs --count.
    #[arg(long, value_name = "HEX", value_parser = parse_fingerprint)]
    pub expect_plan: Option<u64>,

    /// Where another run holds the checkpoint's lock, say so in one line
    /// and exit 0, writing nothing (a second submission of a campaign's
    /// script); needs --checkpoint.
    #[arg(long)]
    pub skip_if_locked: bool,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that shard records (from --shard) prove their counts and cover
    /// every subproblem of one plan exactly once, and print the total.
    Merge {
        /// The records, one per shard.
        #[arg(required = true, value_name = "FILES")]
        files: Vec<PathBuf>,

        /// Also recount K subproblems chosen at random on this machine and
        /// compare them with the records (a spot check of the machines that
        /// wrote them).
        #[arg(long, value_name = "K", value_parser = parse_recount, allow_negative_numbers = true)]
        recount: Option<usize>,

        /// Seed of the random choice of --recount, to repeat a spot check
        /// (default: a fresh one, printed on stderr).
        #[arg(long, value_name = "S", value_parser = named("--seed", parse_seed), allow_negative_numbers = true)]
        seed: Option<u64>,

        /// Threads to recount on (default: every core); needs --recount.
        #[arg(long, value_parser = named("--threads", parse_threads), allow_hyphen_values = true)]
        threads: Option<usize>,

        /// Refuse a recount of join records that would take more memory
        /// than SIZE (default: the memory available); needs --recount.
        #[arg(long, value_name = "SIZE", value_parser = named("--max-memory", super::memory::parse_size), allow_hyphen_values = true)]
        max_memory: Option<u64>,

        /// How --recount recounts (default plan): `plan`, with a kernel of
        /// the records' own method; `search`, each join piece by a plain
        /// search that places queens row by row (slow: keep K small).
        #[arg(long, value_enum, value_name = "METHOD")]
        recount_by: Option<RecountBy>,

        /// How to print the result (default text: the total alone); `json`:
        /// one JSON object with the plan, the shards, the cross-checks and
        /// the recount.
        #[arg(long, value_enum)]
        format: Option<MergeFormat>,
    },
    /// Write the batch script of a campaign: N counted in --shards shards,
    /// each with a checkpoint and its record written whole, as a Slurm array
    /// job or a GNU parallel run (on stdout; see docs/plan.md).
    Script(ScriptArgs),

    /// Show a campaign's folder at a glance: its shards done, running and
    /// missing, solutions so far, core-hours, ETA and refused files.
    ///
    /// Reads every record and checkpoint (`*.json`) in DIR and its
    /// subfolders, with merge's checks; exits 0 whenever DIR holds a valid
    /// one (a refused file is a line of the report), 2 otherwise.
    Status {
        /// The campaign's folder.
        #[arg(value_name = "DIR")]
        dir: PathBuf,

        /// `text` (default) or `json`: one JSON object.
        #[arg(long, value_enum)]
        format: Option<StatusFormat>,

        /// A checkpoint whose heartbeat is at most this many seconds old
        /// is a running shard's, an older one a stalled shard's (default:
        /// three of its checkpoint intervals, at least 120).
        #[arg(long, value_name = "SECONDS", value_parser = named("--fresh", parse_fresh), allow_negative_numbers = true)]
        fresh: Option<Duration>,
    },
}

/// `script ENGINE N --shards M …`: the words as given; checked by
/// [`Campaign::new`].
#[derive(Debug, clap::Args)]
pub struct ScriptArgs {
    /// The batch system: slurm (an sbatch array script) or parallel (a GNU
    /// parallel run over ssh).
    #[arg(value_enum)]
    pub engine: Engine,

    /// Board size N.
    #[arg(value_parser = parse_n, allow_negative_numbers = true)]
    pub n: usize,

    /// How many shards N is counted in (each a `--shard I/M` count).
    #[arg(long, value_name = "M", value_parser = named("--shards", parse_shards), allow_negative_numbers = true)]
    pub shards: usize,

    /// Cores each task counts on, one thread each (default 1); with
    /// --memory, the most: fewer where their memory would not fit.
    #[arg(long, value_name = "C", value_parser = named("--cores", parse_threads), allow_hyphen_values = true)]
    pub cores: Option<usize>,

    /// Memory a task may take on its node (SIZE as for --max-memory); the
    /// threads are those that fit. Default: what the estimate asks, with a
    /// margin (Slurm's --mem).
    #[arg(long, value_name = "SIZE", value_parser = named("--memory", super::memory::parse_size), allow_hyphen_values = true)]
    pub memory: Option<u64>,

    /// Slurm: each task's time limit (MINUTES, H:MM:SS or D-HH:MM:SS;
    /// default 12:00:00). Before it, the task checkpoints and requeues
    /// itself.
    #[arg(long, value_name = "LIMIT")]
    pub time: Option<String>,

    /// Slurm: the cluster's MaxArraySize (default 1001, Slurm's own):
    /// past it, each task counts several shards.
    #[arg(long, value_name = "S", value_parser = named("--max-array-size", parse_array_size), allow_negative_numbers = true)]
    pub max_array_size: Option<usize>,

    /// Slurm: at most K tasks running at once (`--array=…%K`).
    #[arg(long, value_name = "K", value_parser = named("--max-running", parse_array_size), allow_negative_numbers = true)]
    pub max_running: Option<usize>,

    /// parallel: the hosts, as parallel's -S takes them (default
    /// 1/host1,1/host2; 1/: is this machine).
    #[arg(long, value_name = "HOSTS")]
    pub hosts: Option<String>,

    /// The kernel every shard is counted with (default auto).
    #[arg(long, value_parser = parse_kernel)]
    pub kernel: Option<Kernel>,

    /// Count K shards, chosen at random, a second time with
    /// --cross-kernel, for merge to compare.
    #[arg(long, value_name = "K", value_parser = named("--cross-check", parse_shards), allow_negative_numbers = true)]
    pub cross_check: Option<usize>,

    /// The kernel of the second counts (default: another kernel of the
    /// plan's method, join-avx2 for a join plan).
    #[arg(long, value_name = "KERNEL", value_parser = parse_kernel)]
    pub cross_kernel: Option<Kernel>,

    /// Seed of --cross-check's choice (default: a fresh one, written in
    /// the script).
    #[arg(long, value_name = "S", value_parser = named("--seed", parse_seed), allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// The campaign's folder, written into the script, which refuses to
    /// run anywhere else (default: the folder script runs in).
    #[arg(long, value_name = "DIR")]
    pub folder: Option<PathBuf>,

    /// What `queens-simd N --count --sample K --format json` printed for
    /// this N: the script's header then gives each task's core-hours.
    #[arg(long, value_name = "FILE")]
    pub projection: Option<PathBuf>,
}

/// Slurm's default MaxArraySize: array indices go up to one less.
pub const DEFAULT_MAX_ARRAY_SIZE: usize = 1001;

/// A campaign's time limit when `--time` is not given.
const DEFAULT_TIME: TimeLimit = TimeLimit(12 * 3600);

/// GNU parallel's hosts when `--hosts` is not given.
const DEFAULT_HOSTS: &str = "1/host1,1/host2";

/// A `script` request, its flags checked against each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    /// The batch system.
    pub engine: Engine,
    /// Board size.
    pub n: usize,
    /// Shards N is counted in.
    pub shards: usize,
    /// Cores a task counts on (at most, with `memory`).
    pub cores: usize,
    /// Memory a task may take, if given.
    pub memory: Option<u64>,
    /// Slurm: a task's time limit.
    pub time: TimeLimit,
    /// Slurm: the cluster's MaxArraySize.
    pub max_array_size: usize,
    /// Slurm: tasks running at once, at most, if given.
    pub max_running: Option<usize>,
    /// GNU parallel: the hosts.
    pub hosts: String,
    /// The kernel of every shard's count.
    pub kernel: Kernel,
    /// Shards counted twice.
    pub cross_check: usize,
    /// The kernel of the second counts, if given.
    pub cross_kernel: Option<Kernel>,
    /// The seed of the cross-checked shards' choice, if given.
    pub seed: Option<u64>,
    /// The campaign's folder, if given (else the current one).
    pub folder: Option<PathBuf>,
    /// The `--sample` projection to size the tasks from, if given.
    pub projection: Option<PathBuf>,
}

impl Campaign {
    /// Checks the words of `script` against each other: what applies to
    /// one engine only is refused with the other, and what needs
    /// `--cross-check` without it.
    pub fn new(args: &ScriptArgs) -> Result<Campaign, String> {
        let slurm_only = [
            (args.time.is_some(), "--time"),
            (args.max_array_size.is_some(), "--max-array-size"),
            (args.max_running.is_some(), "--max-running"),
        ];
        let parallel_only = [(args.hosts.is_some(), "--hosts")];
        let (wrong, engine): (&[(bool, &str)], _) = match args.engine {
            Engine::Slurm => (&parallel_only, "slurm"),
            Engine::Parallel => (&slurm_only, "parallel"),
        };
        if let Some((_, flag)) = wrong.iter().find(|(given, _)| *given) {
            return Err(format!("{flag} does not apply to script {engine}"));
        }
        if args.cross_check.is_none() {
            if args.cross_kernel.is_some() {
                return Err("--cross-kernel goes with --cross-check".into());
            }
            if args.seed.is_some() {
                return Err("--seed goes with --cross-check".into());
            }
        }
        if let Some(k) = args.cross_check
            && k > args.shards
        {
            let there = if args.shards == 1 {
                "there is"
            } else {
                "there are"
            };
            return Err(format!(
                "--cross-check {k} asks for more shards than the {} {there}",
                args.shards
            ));
        }
        if let Some(hosts) = &args.hosts
            && (hosts.is_empty() || !hosts.chars().all(is_host_char))
        {
            return Err(format!(
                "--hosts {hosts:?} is not a list of hosts as parallel -S takes them (letters, digits and . _ - @ : / , + only)"
            ));
        }
        let time = match &args.time {
            Some(text) => TimeLimit::parse(text)?,
            None => DEFAULT_TIME,
        };
        Ok(Campaign {
            engine: args.engine,
            n: args.n,
            shards: args.shards,
            cores: args.cores.unwrap_or(1),
            memory: args.memory,
            time,
            max_array_size: args.max_array_size.unwrap_or(DEFAULT_MAX_ARRAY_SIZE),
            max_running: args.max_running,
            hosts: args.hosts.clone().unwrap_or_else(|| DEFAULT_HOSTS.into()),
            kernel: args.kernel.unwrap_or(Kernel::Auto),
            cross_check: args.cross_check.unwrap_or(0),
            cross_kernel: args.cross_kernel,
            seed: args.seed,
            folder: args.folder.clone(),
            projection: args.projection.clone(),
        })
    }
}

/// A character of parallel's `-S` list that needs no quoting in a shell.
fn is_host_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._-@:/,+".contains(c)
}

/// The batch systems `script` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Engine {
    /// An sbatch array script.
    Slurm,
    /// A GNU parallel run.
    Parallel,
}

/// How `status` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusFormat {
    /// Lines for a person.
    Text,
    /// One JSON object.
    Json,
}

/// Longest `--fresh`: 30 days.
const MAX_FRESH_SECONDS: f64 = 30.0 * 86_400.0;

fn parse_fresh(text: &str, flag: &str) -> Result<Duration, String> {
    parse_seconds(text, MAX_FRESH_SECONDS, flag)
}

/// Refuses a flag of a solve given before subcommand `name`: it would
/// mean nothing there.
fn no_flag_before(name: &str, given: &[&str]) -> Result<(), String> {
    match given.first() {
        Some(flag) => Err(format!(
            "{flag} does not apply to {name}; {name}'s own options come after it (see --help)"
        )),
        None => Ok(()),
    }
}

/// `merge`'s `--recount K` and the flags that need it.
fn recount_request(
    recount: Option<usize>,
    seed: Option<u64>,
    threads: Option<usize>,
    max_memory: Option<u64>,
    recount_by: Option<RecountBy>,
) -> Result<Option<Recount>, String> {
    match (recount, seed, threads, max_memory) {
        (Some(_), _, _, Some(_)) if recount_by == Some(RecountBy::Search) => Err(
            "--max-memory limits a recount by the plan's kernels; --recount-by search allocates nothing"
                .into(),
        ),
        (Some(subproblems), seed, threads, max_memory) => Ok(Some(Recount {
            subproblems,
            seed,
            threads,
            max_memory,
            by: recount_by.unwrap_or_default(),
        })),
        (None, Some(_), _, _) => Err("--seed goes with --recount".into()),
        (None, None, Some(_), _) => Err("--threads goes with --recount".into()),
        (None, None, None, Some(_)) => Err("--max-memory goes with --recount".into()),
        (None, None, None, None) if recount_by.is_some() => {
            Err("--recount-by goes with --recount".into())
        }
        (None, None, None, None) => Ok(None),
    }
}

/// `status DIR`, its own options checked: no N, and no flag of a solve
/// before it.
fn status_request(
    n: Option<usize>,
    given: &[&str],
    dir: PathBuf,
    format: Option<StatusFormat>,
    fresh: Option<Duration>,
) -> Result<Request, String> {
    if let Some(n) = n {
        return Err(format!(
            "status takes a campaign's folder, not N ({n}): queens-simd status DIR (see --help)"
        ));
    }
    no_flag_before("status", given)?;
    Ok(Request::Status(CampaignStatus {
        dir,
        format: format.unwrap_or(StatusFormat::Text),
        fresh,
    }))
}

/// `status DIR [--format json] [--fresh SECONDS]`.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignStatus {
    /// The campaign's folder.
    pub dir: PathBuf,
    /// Text or JSON.
    pub format: StatusFormat,
    /// How recent a running shard's heartbeat is, if given; else a few of
    /// its checkpoint intervals (`campaign::summary::freshness`).
    pub fresh: Option<Duration>,
}

/// What `merge --recount` recounts the chosen subproblems with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RecountBy {
    /// The fastest kernel here of the records' plan's method.
    #[default]
    Plan,
    /// A plain search that places queens row by row (join pieces only).
    Search,
}

impl RecountBy {
    /// As `--recount-by` spells it.
    pub fn name(self) -> &'static str {
        match self {
            RecountBy::Plan => "plan",
            RecountBy::Search => "search",
        }
    }
}

/// What `merge` prints on stdout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MergeFormat {
    /// The total alone, one line.
    #[default]
    Text,
    /// One JSON object.
    Json,
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

impl Format {
    fn flag(self) -> &'static str {
        match self {
            Format::Board => "--format board",
            Format::Columns => "--format columns",
            Format::Hex => "--format hex",
            Format::Json => "--format json",
        }
    }
}

/// What the command line asks for, its flags checked against each other.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `--kernels [--format json]`.
    Kernels {
        /// The table as one JSON object (`--format json`), not as text.
        json: bool,
    },
    /// `--verify [--max-n M] [--format json]`.
    Verify {
        /// Largest N to check.
        max_n: usize,
        /// The checks as one JSON object (`--format json`), not as text.
        json: bool,
    },
    /// `merge FILES…`.
    Merge(Merge),
    /// `status DIR`.
    Status(CampaignStatus),
    /// Count or list the solutions of N.
    Solve(Solve),
    /// `script ENGINE N --shards M …`.
    Script(Campaign),
}

/// `merge FILES… [--recount K [--seed S] [--threads T] [--recount-by M]]
/// [--format json]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Merge {
    /// The shard records.
    pub files: Vec<PathBuf>,
    /// The spot check, if asked for.
    pub recount: Option<Recount>,
    /// What is printed (`--format`).
    pub format: MergeFormat,
}

/// `--recount K [--seed S] [--threads T] [--max-memory SIZE] [--recount-by
/// METHOD]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Recount {
    /// How many subproblems to recount.
    pub subproblems: usize,
    /// The seed of their choice, if given.
    pub seed: Option<u64>,
    /// Threads to recount on, if given.
    pub threads: Option<usize>,
    /// The most memory a recount with a join kernel may take
    /// (`--max-memory`), if given; else the memory available.
    pub max_memory: Option<u64>,
    /// How (`--recount-by`).
    pub by: RecountBy,
}

/// Solving N: listing, counting, or counting through a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Solve {
    /// Board size.
    pub n: usize,
    /// What `auto` chooses its kernel for.
    pub task: Task,
    /// Counting (`--count`), not listing.
    pub count: bool,
    /// The kernel asked for (`auto` if none).
    pub kernel: Kernel,
    /// How solutions, or with a count its JSON object, are printed.
    pub format: Format,
    /// Also time the solve (`--time`).
    pub time: bool,
    /// Counting through a plan (threads, shard, checkpoint), if this count
    /// goes through one.
    pub plan: Option<PlanCount>,
    /// The most memory a count with a join kernel may take
    /// (`--max-memory`), if given; else the memory available. Given only
    /// for a count with a join kernel.
    pub max_memory: Option<u64>,
    /// The file that takes the result in place of stdout (`--output`),
    /// replaced only when the run succeeds.
    pub output: Option<PathBuf>,
}

/// A count through a plan: the subproblems of one shard, on threads, with
/// an optional checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanCount {
    /// Threads, if given (else every core).
    pub threads: Option<usize>,
    /// The shard, if `--shard` was given (then a record is printed).
    pub shard: Option<Shard>,
    /// The checkpoint file and how often to rewrite it.
    pub checkpoint: Option<(PathBuf, Duration)>,
    /// No progress bar.
    pub quiet: bool,
    /// `--sample K [--seed S]`: draw K row sets and project the count
    /// instead of counting, if given.
    pub sample: Option<SampleRequest>,
    /// The plan's fingerprint the count must have (`--expect-plan`).
    pub expect_plan: Option<u64>,
    /// A checkpoint locked by another run ends the count with status 0,
    /// nothing written (`--skip-if-locked`).
    pub skip_if_locked: bool,
}

/// `--sample K [--seed S] [--check]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRequest {
    /// How many row sets to draw.
    pub draws: NonZeroUsize,
    /// The seed of the draw, if given.
    pub seed: Option<u64>,
    /// Check each row set against a plain search instead of projecting.
    pub check: bool,
}

/// What parsing the words of a command line gives.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    /// Something to do.
    Request(Request),
    /// Help or version text to print on stdout, then exit 0.
    Print(String),
}

/// Parses a command line (the program's name first, as
/// [`std::env::args_os`] gives it). Any problem is one line, without the
/// `queens-simd: error: ` prefix.
pub fn parse_from<I, T>(words: I) -> Result<Parsed, String>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let words: Vec<OsString> = words.into_iter().map(Into::into).collect();
    match Args::try_parse_from(&words) {
        Ok(args) => args.validate().map(Parsed::Request),
        Err(err) => {
            use clap::error::ErrorKind;
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) {
                return Ok(Parsed::Print(err.to_string()));
            }
            Err(misspelt_subcommand(&words).unwrap_or_else(|| one_line(&err)))
        }
    }
}

/// clap's message is several lines (the problem, sometimes a list of the
/// arguments concerned, its tips, then usage): keep the problem and the
/// tips, on one line.
fn one_line(err: &clap::Error) -> String {
    let text = err.to_string();
    let problem: Vec<&str> = text
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:"))
        .collect();
    let problem = problem.join(" ");
    let problem = problem.strip_prefix("error: ").unwrap_or(&problem);
    let mut notes = clap_tips(err);
    notes.push("see --help".to_owned());
    format!("{problem} ({})", notes.join("; "))
}

/// The suggestions clap keeps in its error's context (a similar argument,
/// subcommand or value; `'merge --threads' exists`), read from there
/// rather than from its text, which spreads them over lines of their own.
fn clap_tips(err: &clap::Error) -> Vec<String> {
    use clap::error::{ContextKind, ContextValue};
    let mut tips = Vec::new();
    for (kind, what) in [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ] {
        let names: Vec<&str> = match err.get(kind) {
            Some(ContextValue::String(name)) => vec![name],
            Some(ContextValue::Strings(names)) => names.iter().map(String::as_str).collect(),
            _ => continue,
        };
        if !names.is_empty() {
            tips.push(similar(what, &names));
        }
    }
    if let Some(ContextValue::StyledStrs(others)) = err.get(ContextKind::Suggested) {
        // clap's "to pass '--x' as a value, use '-- --x'" is left out: no
        // value here starts with '--' (N is a number).
        tips.extend(
            others
                .iter()
                .map(ToString::to_string)
                .filter(|tip| !tip.starts_with("to pass ")),
        );
    }
    tips
}

/// "a similar argument exists: '--threads'", "similar values exist: 'a'
/// or 'b'".
fn similar(what: &str, names: &[&str]) -> String {
    let quoted = queens_simd::suggest::quoted_or(names);
    match names {
        [_] => format!("a similar {what} exists: {quoted}"),
        _ => format!("similar {what}s exist: {quoted}"),
    }
}

/// A first word that is neither N nor a subcommand but close to one
/// (`merg`): clap reads it as N, and would say only that N must be a
/// number, or that the words after it are unexpected.
fn misspelt_subcommand(words: &[OsString]) -> Option<String> {
    use clap::CommandFactory;
    let word = words.get(1)?.to_str()?;
    if word.starts_with('-') || parse_n(word).is_ok() {
        return None;
    }
    let command = Args::command();
    if command.find_subcommand(word).is_some() {
        return None;
    }
    let names = command.get_subcommands().map(|c| c.get_name());
    let close = queens_simd::suggest::closest(word, names);
    (!close.is_empty()).then(|| {
        let similar = similar("subcommand", &close);
        // A word with a newline in it would split the line: quoted with
        // escapes instead.
        let shown = if word.chars().any(char::is_control) {
            format!("{word:?}")
        } else {
            format!("'{word}'")
        };
        format!("{shown} is neither N nor a subcommand ({similar}; see --help)")
    })
}

impl Args {
    /// The flags that were given, as they are spelt, but for N and the
    /// subcommand.
    fn given_flags(&self) -> Vec<&'static str> {
        let mut given = Vec::new();
        let mut note = |is_given: bool, flag: &'static str| {
            if is_given {
                given.push(flag);
            }
        };
        note(self.count, "--count");
        note(self.unique, "--unique");
        note(self.format.is_some(), "--format");
        note(self.kernel.is_some(), "--kernel");
        note(self.kernels, "--kernels");
        note(self.verify, "--verify");
        note(self.max_n.is_some(), "--max-n");
        note(self.threads.is_some(), "--threads");
        note(self.shard.is_some(), "--shard");
        note(self.checkpoint.is_some(), "--checkpoint");
        note(self.checkpoint_interval.is_some(), "--checkpoint-interval");
        note(self.quiet, "--quiet");
        note(self.max_memory.is_some(), "--max-memory");
        note(self.time, "--time");
        note(self.sample.is_some(), "--sample");
        note(self.seed.is_some(), "--seed");
        note(self.check, "--check");
        note(self.output.is_some(), "--output");
        note(self.expect_plan.is_some(), "--expect-plan");
        note(self.skip_if_locked, "--skip-if-locked");
        given
    }

    /// Checks the flags against each other.
    pub fn validate(self) -> Result<Request, String> {
        let given = self.given_flags();
        if let Some(Command::Script(script)) = self.command {
            if let Some(n) = self.n {
                return Err(format!(
                    "script takes N after the engine, not before (got {n}): queens-simd script slurm N --shards M (see --help)"
                ));
            }
            no_flag_before("script", &given)?;
            return Campaign::new(&script).map(Request::Script);
        }
        if let Some(Command::Merge {
            files,
            recount,
            seed,
            threads,
            max_memory,
            recount_by,
            format,
        }) = self.command
        {
            if let Some(n) = self.n {
                return Err(format!(
                    "merge takes shard records, not N ({n}): queens-simd merge FILES... (see --help)"
                ));
            }
            no_flag_before("merge", &given)?;
            let recount = recount_request(recount, seed, threads, max_memory, recount_by)?;
            return Ok(Request::Merge(Merge {
                files,
                recount,
                format: format.unwrap_or_default(),
            }));
        }
        if let Some(Command::Status { dir, format, fresh }) = self.command {
            return status_request(self.n, &given, dir, format, fresh);
        }
        if self.kernels || self.verify {
            return self.validate_table(&given);
        }
        if self.max_n.is_some() {
            return Err("--max-n goes with --verify".into());
        }
        self.validate_solve().map(Request::Solve)
    }

    /// `--kernels` or `--verify [--max-n M]`, each with `--format json` at
    /// most.
    fn validate_table(&self, given: &[&str]) -> Result<Request, String> {
        if self.kernels {
            if let Some(n) = self.n {
                return Err(format!(
                    "--kernels takes no N (got {n}) and no other flag but --format json"
                ));
            }
            if let Some(flag) = given.iter().find(|&&f| f != "--kernels" && f != "--format") {
                return Err(format!(
                    "--kernels takes no other flag but --format json (got {flag})"
                ));
            }
            let json = self.table_as_json("--kernels")?;
            return Ok(Request::Kernels { json });
        }
        if let Some(n) = self.n {
            return Err(format!(
                "--verify checks every N from 0 to --max-n; give --max-n M instead of N ({n})"
            ));
        }
        if let Some(flag) = given
            .iter()
            .find(|&&f| !["--verify", "--max-n", "--format"].contains(&f))
        {
            return Err(format!("{flag} does not apply to --verify"));
        }
        Ok(Request::Verify {
            max_n: self.max_n.unwrap_or(DEFAULT_MAX_N),
            json: self.table_as_json("--verify")?,
        })
    }

    /// Whether `--kernels` or `--verify` (`mode`) prints its table as JSON:
    /// `--format json` applies, the formats of solutions do not.
    fn table_as_json(&self, mode: &str) -> Result<bool, String> {
        match self.format {
            None => Ok(false),
            Some(Format::Json) => Ok(true),
            Some(other) => Err(format!(
                "{} does not apply to {mode}; only --format json does",
                other.flag()
            )),
        }
    }

    /// The checks of a request to solve N.
    fn validate_solve(self) -> Result<Solve, String> {
        let n = self.n.unwrap_or(DEFAULT_N);
        let kernel = self.kernel.unwrap_or(Kernel::Auto);
        let task = match (self.unique, self.count) {
            (true, _) => Task::Fundamental,
            (false, true) => Task::Count,
            (false, false) => Task::Enumerate,
        };
        self.check_flags_apply()?;
        let format = self.checked_format(n)?;
        let through_plan = self.check_plan_flags(kernel, task, n)?;
        self.check_max_memory(kernel, task, n, through_plan)?;
        let plan = through_plan.then(|| PlanCount {
            threads: self.threads,
            shard: self.shard,
            checkpoint: self.checkpoint.map(|path| {
                (
                    path,
                    self.checkpoint_interval
                        .unwrap_or(DEFAULT_CHECKPOINT_INTERVAL),
                )
            }),
            quiet: self.quiet,
            sample: self.sample.map(|draws| SampleRequest {
                draws,
                seed: self.seed,
                check: self.check,
            }),
            expect_plan: self.expect_plan,
            skip_if_locked: self.skip_if_locked,
        });
        Ok(Solve {
            n,
            task,
            count: self.count,
            kernel,
            format,
            time: self.time,
            plan,
            max_memory: self.max_memory,
            output: self.output,
        })
    }

    /// Refuses a flag that means nothing without another (`--threads`
    /// without `--count`, ...) or with this mode (a plan's flags with
    /// `--unique`, `--time` with a shard or a checkpoint).
    fn check_flags_apply(&self) -> Result<(), String> {
        // Flags that only mean something with --count.
        let counting_only = [
            (self.threads.is_some(), "--threads"),
            (self.shard.is_some(), "--shard"),
            (self.checkpoint.is_some(), "--checkpoint"),
            (self.quiet, "--quiet"),
            (self.max_memory.is_some(), "--max-memory"),
            (self.sample.is_some(), "--sample"),
            (self.expect_plan.is_some(), "--expect-plan"),
        ];
        if !self.count
            && let Some((_, flag)) = counting_only.iter().find(|(given, _)| *given)
        {
            return Err(format!("{flag} goes with --count"));
        }
        if self.checkpoint_interval.is_some() && self.checkpoint.is_none() {
            return Err("--checkpoint-interval goes with --checkpoint".into());
        }
        if self.skip_if_locked && self.checkpoint.is_none() {
            return Err("--skip-if-locked goes with --checkpoint, whose lock it is".into());
        }
        self.check_sample_flags()?;
        if self.unique {
            for (given, flag) in [
                (self.threads.is_some(), "--threads"),
                (self.shard.is_some(), "--shard"),
                (self.checkpoint.is_some(), "--checkpoint"),
                (self.expect_plan.is_some(), "--expect-plan"),
            ] {
                if given {
                    return Err(format!(
                        "{flag} counts all solutions through a plan; fundamental solutions (--unique) are counted on one thread"
                    ));
                }
            }
        }
        if self.time && (self.shard.is_some() || self.checkpoint.is_some()) {
            let flag = if self.shard.is_some() {
                "--shard"
            } else {
                "--checkpoint"
            };
            return Err(format!(
                "--time repeats a solve many times; it cannot be combined with {flag}"
            ));
        }
        Ok(())
    }

    /// `--seed` needs `--sample`, which projects the whole count: a shard,
    /// a checkpoint, `--time` or `--unique` does not apply.
    fn check_sample_flags(&self) -> Result<(), String> {
        if self.seed.is_some() && self.sample.is_none() {
            return Err("--seed goes with --sample (or with merge --recount)".into());
        }
        if self.check && self.sample.is_none() {
            return Err("--check goes with --sample".into());
        }
        if self.sample.is_none() {
            return Ok(());
        }
        for (given, flag) in [
            (self.shard.is_some(), "--shard"),
            (self.checkpoint.is_some(), "--checkpoint"),
            (self.time, "--time"),
            (self.unique, "--unique"),
        ] {
            if given {
                return Err(format!(
                    "--sample projects the whole count from a random sample; it cannot be combined with {flag}"
                ));
            }
        }
        Ok(())
    }

    /// The output format, default `board`, refused where it does not
    /// apply (with a shard, with `--count` unless JSON, hex past 8 x 8).
    fn checked_format(&self, n: usize) -> Result<Format, String> {
        let format = self.format.unwrap_or(Format::Board);
        if let Some(given) = self.format {
            if self.shard.is_some() {
                return Err(format!(
                    "--shard prints a JSON record; {} does not apply",
                    given.flag()
                ));
            }
            if self.count && given != Format::Json {
                return Err(format!(
                    "{} lists solutions; with --count only --format json applies",
                    given.flag()
                ));
            }
        }
        if format == Format::Hex && n > 8 {
            return Err(format!(
                "the 64-bit bitboard holds boards up to 8x8, but N = {n} was asked"
            ));
        }
        Ok(format)
    }

    /// Whether the count goes through a plan: always with a shard or a
    /// checkpoint, and for a plain count where the kernel (auto resolved)
    /// splits, from SPLIT_FROM. Below SPLIT_FROM a kernel that splits
    /// counts on one thread whatever --threads says, as auto does. Refuses
    /// a shard, a checkpoint or threads for a kernel that does not split,
    /// at every N: one rule, where threads were once ignored below
    /// SPLIT_FROM and refused from it.
    fn check_plan_flags(&self, kernel: Kernel, task: Task, n: usize) -> Result<bool, String> {
        let plain_plan_count =
            task == Task::Count && queens_simd::dispatch::counts_through_plan(kernel, n);
        let shard_or_checkpoint = self.shard.is_some()
            || self.checkpoint.is_some()
            || self.sample.is_some()
            || self.expect_plan.is_some();
        let through_plan = shard_or_checkpoint || plain_plan_count;
        if self.sample.is_some() {
            check_sample_method(kernel, n)?;
        }
        if shard_or_checkpoint && !kernel.splits() {
            return Err(not_splittable(kernel));
        }
        if self.threads.is_some_and(|t| t > 1) && !kernel.splits() {
            return Err(not_splittable(kernel));
        }
        Ok(through_plan)
    }

    /// `--max-memory` bounds what a count allocates: a plan (and a join
    /// kernel's tables); a count that allocates nothing ignores a limit,
    /// so the limit is refused.
    fn check_max_memory(
        &self,
        kernel: Kernel,
        task: Task,
        n: usize,
        through_plan: bool,
    ) -> Result<(), String> {
        if self.max_memory.is_none() {
            return Ok(());
        }
        if task != Task::Count {
            return Err(
                "--max-memory limits counts of all solutions, through a plan or with a join kernel; fundamental solutions (--unique) are counted without either"
                    .into(),
            );
        }
        let counting = queens_simd::dispatch::resolve_for(kernel, task, n);
        if !through_plan && counting.method() != Some(Method::Join) {
            return Err(format!(
                "--max-memory limits counts through a plan or with a join kernel, but N = {n} is counted whole with {counting} here, which allocates nothing"
            ));
        }
        Ok(())
    }
}

/// `--sample` projects a join count: refused, before anything else is
/// checked (the memory among others), for a count that is not one, with
/// the reason that applies: a kernel that counts whole boards, or an N
/// that `auto` counts through the symmetric plan.
fn check_sample_method(kernel: Kernel, n: usize) -> Result<(), String> {
    let joins = super::report::kernel_names(Method::Join);
    match queens_simd::dispatch::plan_method(kernel, n) {
        Ok(Method::Join) => Ok(()),
        Ok(method) => Err(format!(
            "--sample projects a join count, but N = {n} is counted here through the {method} plan (try --kernel {joins})"
        )),
        Err(queens_simd::Error::NotSplittable(_)) => Err(format!(
            "--sample projects a join count, but kernel '{kernel}' counts whole boards, through no plan (try --kernel {joins})"
        )),
        Err(e) => Err(super::status::message(&e)),
    }
}

fn not_splittable(kernel: Kernel) -> String {
    super::status::message(&queens_simd::Error::NotSplittable(kernel))
}

fn parse_n(text: &str) -> Result<usize, String> {
    parse_bounded(text, 0, MAX_N as u64, "N").map(|v| v as usize)
}

fn parse_max_n(text: &str) -> Result<usize, String> {
    parse_bounded(text, 0, queens_simd::verify::MAX_VERIFY_N as u64, "--max-n").map(|v| v as usize)
}

/// clap's value parser of `flag`: `check` with the flag's name, so that
/// each flag that shares a check (`--threads`, and `script`'s `--cores`)
/// is named in its messages as it was typed.
fn named<T: 'static>(
    flag: &'static str,
    check: fn(&str, &str) -> Result<T, String>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| check(text, flag)
}

/// Threads, or `script`'s cores, one thread each.
fn parse_threads(text: &str, flag: &str) -> Result<usize, String> {
    parse_bounded(text, 1, MAX_THREADS as u64, flag).map(|v| v as usize)
}

/// Most subproblems `--recount` takes: more than any plan has.
const MAX_RECOUNT: u64 = 1 << 20;

/// Most row sets `--sample` draws: a sample's error shrinks as the square
/// root of its size, and a million draws is far past any use.
const MAX_SAMPLE: u64 = 1 << 20;

fn parse_recount(text: &str) -> Result<usize, String> {
    parse_bounded(text, 1, MAX_RECOUNT, "--recount").map(|v| v as usize)
}

fn parse_sample(text: &str) -> Result<NonZeroUsize, String> {
    parse_bounded(text, 1, MAX_SAMPLE, "--sample")
        .map(|v| NonZeroUsize::new(v as usize).expect("at least 1"))
}

fn parse_seed(text: &str, flag: &str) -> Result<u64, String> {
    parse_bounded(text, 0, u64::MAX, flag)
}

/// A whole number from `min` to `max`: digits only, or a minus sign and
/// digits for a number that is then out of range.
fn parse_bounded(text: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} must be a whole number from {min} to {max}"));
    }
    match text.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("{what} must be from {min} to {max}")),
    }
}

/// Longest `--checkpoint-interval`: a day.
const MAX_INTERVAL_SECONDS: f64 = 86_400.0;

fn parse_interval(text: &str, flag: &str) -> Result<Duration, String> {
    parse_seconds(text, MAX_INTERVAL_SECONDS, flag)
}

/// A number of seconds from 0 to `max`, fractions allowed.
fn parse_seconds(text: &str, max: f64, flag: &str) -> Result<Duration, String> {
    let seconds: Option<f64> = text.parse().ok();
    match seconds {
        // `contains` is false for NaN, and "inf" is past the end.
        Some(s) if (0.0..=max).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "{flag} must be a number of seconds from 0 to {max}"
        )),
    }
}

/// Most shards a script splits a count into.
const MAX_SHARDS: u64 = 1 << 24;

/// `script`'s shards, or its shards counted twice.
fn parse_shards(text: &str, flag: &str) -> Result<usize, String> {
    parse_bounded(text, 1, MAX_SHARDS, flag).map(|m| m as usize)
}

/// Largest `--max-array-size` or `--max-running`: Slurm's own cap on
/// MaxArraySize.
const MAX_ARRAY_SIZE: u64 = 4_000_001;

/// `--max-array-size` or `--max-running`.
fn parse_array_size(text: &str, flag: &str) -> Result<usize, String> {
    parse_bounded(text, 1, MAX_ARRAY_SIZE, flag).map(|s| s as usize)
}

/// `--expect-plan`: a plan's fingerprint, 16 hexadecimal digits as
/// records write it (`"plan": "a5016045b463a66d"`).
fn parse_fingerprint(text: &str) -> Result<u64, String> {
    // from_str_radix takes a leading '+', which no record writes.
    match u64::from_str_radix(text, 16) {
        Ok(fingerprint) if text.len() == 16 && !text.starts_with('+') => Ok(fingerprint),
        _ => Err(
            "--expect-plan must be a plan's fingerprint: 16 hexadecimal digits, as a record's \"plan\" field writes them"
                .into(),
        ),
    }
}

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
        .map_err(|e: queens_simd::Error| super::status::message(&e))
}

fn parse_kernel(name: &str) -> Result<Kernel, String> {
    name.parse()
        .map_err(|e: queens_simd::Error| super::status::message(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &str) -> Result<Request, String> {
        let words = std::iter::once("queens-simd").chain(words.split_whitespace());
        match parse_from(words)? {
            Parsed::Request(request) => Ok(request),
            Parsed::Print(text) => Err(format!("printed {text}")),
        }
    }

    #[test]
    fn clap_accepts_its_own_definition() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }

    #[test]
    fn defaults() {
        let Request::Solve(solve) = parse("").unwrap() else {
            panic!()
        };
        assert_eq!(
            (solve.n, solve.task, solve.kernel, solve.format),
            (8, Task::Enumerate, Kernel::Auto, Format::Board)
        );
        assert_eq!(
            parse("--verify"),
            Ok(Request::Verify {
                max_n: 12,
                json: false
            })
        );
        assert_eq!(parse("--kernels"), Ok(Request::Kernels { json: false }));
        assert_eq!(
            parse("--kernels --format json"),
            Ok(Request::Kernels { json: true })
        );
        assert_eq!(
            parse("--verify --max-n 3 --format json"),
            Ok(Request::Verify {
                max_n: 3,
                json: true
            })
        );
    }

    #[test]
    fn counts_go_through_a_plan_where_auto_splits() {
        let plan = |words: &str| match parse(words).unwrap() {
            Request::Solve(solve) => solve.plan,
            other => panic!("{other:?}"),
        };
        assert!(plan("8 --count").is_none());
        assert!(plan("8 --count --threads 2 --kernel symmetric").is_none());
        assert!(plan("8 --count --shard 0/1").is_some());
        assert!(plan("16 --count --kernel portable --threads 1").is_none());
        assert!(plan("12 --count --checkpoint c.json --kernel symmetric").is_some());
        // The join kernels count through their plan too, from N = 12 (or
        // always, with a shard or a checkpoint); auto from N = 14.
        for kernel in Method::Join.kernels() {
            assert!(plan(&format!("11 --count --kernel {kernel}")).is_none());
            assert!(plan(&format!("12 --count --kernel {kernel}")).is_some());
            assert!(plan(&format!("5 --count --kernel {kernel} --shard 0/2")).is_some());
            assert!(plan(&format!("5 --count --kernel {kernel} --checkpoint c.json")).is_some());
        }
        assert!(plan("16 --count").is_some());
    }

    #[test]
    fn max_memory_goes_with_counts_that_allocate_only() {
        let limit = |words: &str| match parse(words) {
            Ok(Request::Solve(solve)) => Ok(solve.max_memory),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(
            limit("18 --count --kernel join --max-memory 1G"),
            Ok(Some(1 << 30))
        );
        assert_eq!(
            limit("8 --count --kernel join --max-memory 16gib"),
            Ok(Some(16 << 30))
        );
        assert_eq!(limit("18 --count"), Ok(None));
        // A symmetric count through its plan: the plan is checked.
        assert_eq!(
            limit("18 --count --kernel symmetric --max-memory 1G"),
            Ok(Some(1 << 30))
        );
        for refused in [
            "18 --max-memory 1G --kernel join",
            "18 --count --kernel join --max-memory 0",
            "18 --count --kernel join --max-memory 1.5",
            "18 --count --kernel join --max-memory 1GB",
            "8 --count --max-memory 1G",
            "18 --count --unique --max-memory 1G",
            "18 --count --kernel portable --max-memory 1G",
            "merge a.json --max-memory 1G",
        ] {
            let line = limit(refused).expect_err(refused);
            assert!(line.contains("--max-memory"), "{refused}: {line}");
            assert!(!line.contains('\n'), "{refused}: {line}");
        }
    }

    #[test]
    fn clap_tips_stay_on_the_line() {
        for (words, tip) in [
            (
                "8 --thread 2",
                "(a similar argument exists: '--threads'; see --help)",
            ),
            ("8 --formt json", "a similar argument exists: '--format'"),
            ("8 --format jsn", "a similar value exists: 'json'"),
            ("merg a.json", "a similar subcommand exists: 'merge'"),
            ("mrege", "'mrege' is neither N nor a subcommand"),
            ("merge a.json --recount 2 --thread 2", "'--threads'"),
        ] {
            let line = parse(words).expect_err(words);
            assert!(line.contains(tip), "{words}: {line}");
            assert!(!line.contains('\n'), "{words}: {line}");
            assert!(!line.contains("to pass"), "{words}: {line}");
        }
        // No tip where nothing is close.
        let line = parse("8 --zzz").unwrap_err();
        assert!(line.ends_with("found (see --help)"), "{line}");
    }

    /// The flags a message names (`--threads`), but for those it points
    /// to for help (`--help`, `--kernels`).
    fn flags_named(line: &str) -> Vec<&str> {
        let mut flags: Vec<&str> = line
            .match_indices("--")
            .map(|(at, _)| {
                let rest = &line[at..];
                let end = 2 + rest[2..]
                    .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                    .unwrap_or(rest.len() - 2);
                &rest[..end]
            })
            .filter(|flag| flag.len() > 2 && !["--help", "--kernels"].contains(flag))
            .collect();
        flags.sort_unstable();
        flags.dedup();
        flags
    }

    /// Each check that several flags share (a size, threads, a seed, a
    /// kernel, a shard count, a number of seconds), given a bad value
    /// through each of them, names that flag and no other: `script
    /// --memory 0` once said "--max-memory must be more than 0 bytes".
    #[test]
    fn each_shared_check_names_the_flag_as_typed() {
        let script = "script slurm 20 --shards 4";
        let cross = "script slurm 20 --shards 4 --cross-check 1";
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "--max-memory",
                &["18 --count --kernel join", "merge a.json --recount 1"],
                &["0", "1GB", "99999999T", "1e30G"],
            ),
            ("--memory", &[script], &["0", "1GB", "99999999T", "1e30G"]),
            (
                "--threads",
                &["18 --count", "merge a.json --recount 1"],
                &["0", "x", "4097", "-1"],
            ),
            ("--cores", &[script], &["0", "x", "4097", "-1"]),
            (
                "--seed",
                &["18 --count --sample 2", "merge a.json --recount 1", cross],
                &["x", "-1", "18446744073709551616"],
            ),
            (
                "--kernel",
                &["18 --count", script],
                &["symetric", "nothing-near"],
            ),
            ("--cross-kernel", &[cross], &["symetric", "nothing-near"]),
            ("--shards", &["script slurm 20"], &["0", "x", "16777217"]),
            ("--cross-check", &[script], &["0", "x", "16777217"]),
            ("--shard", &["18 --count"], &["0/0", "x", "4/4"]),
            ("--max-array-size", &[script], &["0", "x", "4000002"]),
            ("--max-running", &[script], &["0", "x", "4000002"]),
            ("--time", &[script], &["1", "00:00:30", "x", "366-0"]),
            (
                "--checkpoint-interval",
                &["18 --count --checkpoint c.json"],
                &["-1", "x", "86401"],
            ),
            ("--fresh", &["status d"], &["-1", "x", "2592001"]),
        ];
        for (flag, commands, values) in cases {
            for command in *commands {
                for value in *values {
                    let words = format!("{command} {flag} {value}");
                    let line = parse(&words).expect_err(&words);
                    assert_eq!(flags_named(&line), [*flag], "{words}: {line}");
                }
            }
        }
    }

    #[test]
    fn every_flag_that_needs_another_is_refused_without_it() {
        for words in [
            "8 --count --max-n 5",
            "--kernels --shard 0/2",
            "--kernels --threads 2",
            "--kernels 20",
            "--verify --shard 0/2",
            "--verify --threads 3",
            "20 --verify",
            "--verify --kernel sse41",
            "--kernels --format board",
            "--verify --format columns",
            "8 --threads 2",
            "8 --quiet",
            "8 --shard 0/2",
            "8 --checkpoint c.json",
            "8 --count --checkpoint-interval 1",
            "8 --expect-plan 0123456789abcdef",
            "20 --count --skip-if-locked",
            "8 --count --unique --expect-plan 0123456789abcdef",
            "12 --count --kernel sse41 --expect-plan 0123456789abcdef",
            "8 --count --format columns",
            "8 --count --shard 0/2 --format json",
            "8 --count --unique --threads 2",
            "8 --count --shard 0/2 --time",
            "16 --count --kernel portable --threads 2",
            "8 --count --kernel heap --threads 2",
            "11 --count --kernel sse41 --threads 2",
            "4 --count --kernel brute-force --threads 2",
            "12 --count --kernel sse41 --shard 0/2",
            "9 --format hex",
            "merge a.json --seed 3",
            "merge a.json --threads 2",
            "merge a.json --recount-by search",
            "merge a.json --format board",
            "--count merge a.json",
            "12 merge a.json",
        ] {
            let refused = parse(words);
            assert!(refused.is_err(), "{words}: {refused:?}");
            let line = refused.unwrap_err();
            assert!(!line.contains('\n'), "{words}: {line}");
        }
    }
}
