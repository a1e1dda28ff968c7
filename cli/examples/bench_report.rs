//! Turns one run of both benches into BENCHMARKS.md's tables and plot, so
//! that every number there comes from the data or from the library, not
//! from a hand copy.
//!
//! ```text
//! rm -rf target/criterion target/iai
//! QUEENS_SIMD_BENCH_LARGE=1 cargo bench --bench simd
//! cargo bench --bench iai -- --save-summary=json
//! cargo build --release
//! cargo run --release --example bench_report -- \
//!     --cli target/release/queens-simd --update BENCHMARKS.md
//! ```
//!
//! Reads criterion's `target/criterion/*/**/new/{benchmark,estimates}.json`
//! (the median of each benchmark) and iai-callgrind's
//! `target/iai/**/summary.json` (instructions), describes this machine, asks
//! the library what `auto` picks here and what its plans hold and need, and
//! writes the tables between the `<!-- bench_report:begin -->` and
//! `<!-- bench_report:end -->` lines of the file given to `--update` (or to
//! stdout without it), and the plot to `benches/results/kernels.svg`
//! (`--plot FILE` moves it).
//!
//! With `--cli`, it also runs the command line: `queens-simd N --count
//! --time --threads 1 --kernel K` for every fast kernel at N = 8, 10 and
//! 12, beside criterion's figure, and `queens-simd N --count --threads 2`
//! under `/usr/bin/time -f %M` for the peak memory of whole counts.
//!
//! Every section is written on every run, in the same order, under the
//! same heading (BENCHMARKS.md's anchors), whatever the run measured: a
//! table whose benchmarks are missing says so and how to run them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};
use std::{env, fs, process};

use queens_simd::dispatch::Options;
use queens_simd::dispatch::{auto_preference, counts_through_plan, resolve_for};
use queens_simd::kernel::{Method, Role, Task};
use queens_simd::plan::Plan;
use queens_simd::{Kernel, MAX_N};
use queens_simd_cli::memory::show as bytes;
use serde_json::Value;

// The published counts, to check the whole-process counts against.
#[allow(dead_code)]
#[path = "../../tests/common/oracle.rs"]
mod oracle;

const BEGIN: &str = "<!-- bench_report:begin -->";
const END: &str = "<!-- bench_report:end -->";
const PLOT: &str = "benches/results/kernels.svg";

/// Plot colours, given to the fast kernels in `Kernel::ALL` order.
const COLOURS: [&str; 12] = [
    "#e6ab02", "#a6761d", "#222222", "#1f77b4", "#17becf", "#2ca02c", "#98df8a", "#ff7f0e",
    "#d62728", "#9467bd", "#8c564b", "#e377c2",
];

/// Every fast kernel's name, in `Kernel::ALL` order, with its plot colour:
/// taken from the library, so that a new kernel joins the report by itself.
/// Kernels this CPU lacks are kept: the results may come from another run.
fn fast_kernels() -> Vec<(&'static str, &'static str)> {
    Kernel::ALL
        .iter()
        .filter(|k| k.role() == Role::Fast)
        .enumerate()
        .map(|(i, k)| (k.name(), COLOURS[i % COLOURS.len()]))
        .collect()
}

/// The sizes of `simd/count` (`benches/simd.rs`).
const COUNT_SIZES: std::ops::RangeInclusive<usize> = 0..=13;

/// The sizes of `simd/enumerate` (`benches/simd.rs`).
const ENUMERATE_SIZES: std::ops::RangeInclusive<usize> = 4..=12;

/// How much slower than the fastest kernel `auto`'s choice may count
/// (issue 29: within 10% at every N from 0 to 13).
const AUTO_WITHIN: f64 = 1.10;

/// The seed articles' comparison: criterion name in `seeds/8`, the seed,
/// its algorithm, and the article's own figure (its machine, its year).
const SEEDS: [(&str, &str, &str, &str); 4] = [
    (
        "003-brute-force",
        "003",
        "brute force over 8^8 placements",
        "about 350 ms",
    ),
    (
        "004-heap",
        "004",
        "Heap's permutations, diagonals checked",
        "about 24 ms",
    ),
    (
        "000-bitboard64",
        "000",
        "one `u64` board, square-by-square scan",
        "not given",
    ),
    (
        "001-threat-masks-unique",
        "001",
        "threat masks + symmetry dedup to 12",
        "under 70 ms",
    ),
];

/// davidad's original program (seed 002), timed by the issue's author on the
/// project's 2-core EPYC; not reproduced by our benches: its code is not
/// ours to build. Seed 002's faithful ports are our `sse41` and `asm-sse41`.
const DAVIDAD_ORIGINAL_US: f64 = 13.6;

/// A row's target: a time, or a fraction of `c-eightway`'s time in the
/// same run.
#[derive(Clone, Copy)]
enum Target {
    /// At most this many nanoseconds.
    Time(f64),
    /// At most this fraction of `c-eightway`, the 8-way symmetric C
    /// baseline, timed beside ours.
    OfEightway(f64),
}

/// The fastest-kernel issues' table, row by row: N, our target, the best
/// public peer measured by the issue's author and its figure (ns). Not
/// reproduced by our benches: the peers' code is not ours to build. N = 8
/// is issue 29's (at most half of Takaken's 8-way C, which it timed at
/// 0.89 µs on a 2-vCPU Intel Xeon with AVX-512; `c-eightway` is our own
/// program of that method); the rest are issue 6's, on the project's
/// 2-core EPYC.
const TARGETS: [(usize, Target, &str, f64); 4] = [
    (
        8,
        Target::OfEightway(0.5),
        "Takaken's 8-way C (suzukiiichiro/N-Queens `GCC12.c`), on a Xeon",
        890.0,
    ),
    (
        12,
        Target::Time(0.65e6),
        "C with 8-way symmetry (Takaken-style)",
        1.3e6,
    ),
    (
        16,
        Target::Time(0.70e9),
        "constellations (NQueensFAF, its C port)",
        1.39e9,
    ),
    (
        17,
        Target::Time(4.7e9),
        "constellations (NQueensFAF, its C port)",
        9.4e9,
    ),
];

/// The threads issue's targets on the 2-core machine: N, our target on 2
/// threads (ns), NQueensFAF (Java) on 2 threads as measured there by the
/// issue's author (ns).
const THREAD_TARGETS: [(usize, f64, f64); 2] = [(17, 2.7e9, 5.4e9), (18, 17e9, 34.7e9)];

/// The issue's instruction target for one count at N = 8.
const TARGET_INSTRUCTIONS_8: u64 = 10_000;

/// davidad's original program's instructions per 8-queens solve, measured
/// with callgrind by the issue's author.
const DAVIDAD_ORIGINAL_INSTRUCTIONS: u64 = 61_000;

/// The size of `dispatch/8` and of iai's `dispatch_*` benchmarks.
const DISPATCH_N: usize = 8;

/// The dispatch issue's bound: a call through `queens_simd::count` may
/// cost at most this much more than a held solver.
const DISPATCH_BOUND: f64 = 1.02;

/// The sizes of the plan table.
const PLAN_SIZES: std::ops::RangeInclusive<usize> = 8..=MAX_N;

/// The sizes of the memory table: from `auto`'s first join plan to boards
/// no machine of ours counts.
fn memory_sizes() -> std::ops::RangeInclusive<usize> {
    join_from()..=27
}

/// The first N whose `auto` list for `task` starts with a kernel that
/// `leads` accepts: where `auto` changes families, asked of the library
/// (its lists are the same on every CPU), not of its tuning constants.
fn first_led(task: Task, leads: impl Fn(Kernel) -> bool) -> usize {
    (0..=MAX_N)
        .find(|&n| {
            auto_preference(task, n).is_ok_and(|list| list.first().is_some_and(|&k| leads(k)))
        })
        .unwrap_or(MAX_N + 1)
}

/// The first N that `auto` counts with a join kernel.
fn join_from() -> usize {
    first_led(Task::Count, |k| k.method() == Some(Method::Join))
}

/// The first N that a count on threads counts through a plan.
fn split_from() -> usize {
    (0..=MAX_N)
        .find(|&n| counts_through_plan(Kernel::Auto, n))
        .unwrap_or(MAX_N + 1)
}

/// The memory the memory table measures the threads against.
const MEMORY_LIMIT: u64 = 16 << 30;

/// The threads of the memory table's whole-process counts.
const RSS_THREADS: usize = 2;

/// The sizes whose whole count `--cli` runs under `/usr/bin/time`: a few
/// seconds in all on two threads.
const RSS_SIZES: std::ops::RangeInclusive<usize> = 14..=19;

/// GNU time, which reports a process's peak resident memory (`%M`, KiB).
const GNU_TIME: &str = "/usr/bin/time";

type Medians = BTreeMap<(String, String, String), f64>;
type Instructions = BTreeMap<String, u64>;

fn main() {
    if let Err(e) = run() {
        eprintln!("bench_report: {e}");
        process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let mut update = None;
    let mut cli = None;
    let mut plot_path = PathBuf::from(PLOT);
    let mut args = env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .map(PathBuf::from)
                .ok_or(format!("{arg} needs a path"))
        };
        match arg.as_str() {
            "--update" => update = Some(value()?),
            "--cli" => cli = Some(value()?),
            "--plot" => plot_path = value()?,
            _ => {
                return Err(format!(
                    "unknown argument {arg:?} (usage: [--cli QUEENS_SIMD] [--plot FILE] [--update FILE])"
                ));
            }
        }
    }
    let medians = criterion_medians(Path::new("target/criterion"))?;
    if medians.is_empty() {
        return Err(
            "no criterion results in target/criterion: run `cargo bench --bench simd`".into(),
        );
    }
    let instructions = iai_instructions(Path::new("target/iai"))?;

    let mut md = String::new();
    machine(&mut md);
    auto_table(&mut md);
    for task in [Task::Count, Task::Enumerate] {
        time_table(&mut md, &medians, task);
    }
    lanes_table(&mut md, &medians, &instructions);
    join_table(&mut md, &medians, &instructions);
    threads_table(&mut md, &medians);
    dispatch_table(&mut md, &medians, &instructions);
    targets_table(&mut md, &medians, &instructions);
    seeds_table(&mut md, &medians);
    instruction_table(&mut md, &instructions);
    plan_table(&mut md)?;
    memory_table(&mut md, cli.as_deref())?;
    cli_table(&mut md, &medians, cli.as_deref())?;

    if let Some(dir) = plot_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(&plot_path, plot(&medians)).map_err(|e| format!("{}: {e}", plot_path.display()))?;

    match update {
        None => print!("{md}"),
        Some(path) => {
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let (Some(b), Some(e)) = (text.find(BEGIN), text.find(END)) else {
                return Err(format!(
                    "{} lacks the {BEGIN} / {END} lines",
                    path.display()
                ));
            };
            let new = format!("{}{BEGIN}\n{md}{}", &text[..b], &text[e..]);
            fs::write(&path, new).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

// --- reading -----------------------------------------------------------------

fn read_json(path: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn files_named(dir: &Path, name: &str, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_named(&path, name, found);
        } else if path.file_name().is_some_and(|f| f == name) {
            found.push(path);
        }
    }
}

/// (group, function, value) → median in nanoseconds, from each benchmark's
/// latest run (`new/`).
fn criterion_medians(root: &Path) -> Result<Medians, String> {
    let mut files = Vec::new();
    files_named(root, "benchmark.json", &mut files);
    let mut medians = Medians::new();
    for file in files
        .iter()
        .filter(|f| f.parent().is_some_and(|d| d.ends_with("new")))
    {
        let bench = read_json(file)?;
        let estimates = read_json(&file.with_file_name("estimates.json"))?;
        let field = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
        let median = estimates["median"]["point_estimate"]
            .as_f64()
            .ok_or_else(|| format!("{}: no median", file.display()))?;
        let key = (
            field(&bench, "group_id"),
            field(&bench, "function_id"),
            field(&bench, "value_str"),
        );
        medians.insert(key, median);
    }
    Ok(medians)
}

fn median(medians: &Medians, group: &str, function: &str, value: &str) -> Option<f64> {
    medians
        .get(&(group.to_string(), function.to_string(), value.to_string()))
        .copied()
}

/// The groups `<family>/<N>` whose benchmarks are named by kernel (`lanes`,
/// `join`): N → kernel → median.
fn kernels_by_size(medians: &Medians, family: &str) -> BTreeMap<usize, BTreeMap<Kernel, f64>> {
    let mut sizes: BTreeMap<usize, BTreeMap<Kernel, f64>> = BTreeMap::new();
    for ((group, function, _), &t) in medians {
        let Some(n) = group
            .strip_prefix(family)
            .and_then(|rest| rest.strip_prefix('/'))
            .and_then(|n| n.parse().ok())
        else {
            continue;
        };
        if let Some(kernel) = Kernel::from_name(function) {
            sizes.entry(n).or_default().insert(kernel, t);
        }
    }
    sizes
}

/// Writes the header of a table by N: a column per kernel that has a time
/// in `table` (in the kernel table's order), then the `extra` columns;
/// returns those kernels.
fn kernel_columns(
    md: &mut String,
    table: &BTreeMap<usize, BTreeMap<Kernel, f64>>,
    extra: &[&str],
) -> Vec<Kernel> {
    let kernels: Vec<Kernel> = Kernel::ALL
        .iter()
        .copied()
        .filter(|k| table.values().any(|row| row.contains_key(k)))
        .collect();
    let names: Vec<String> = kernels.iter().map(|&k| code(k)).collect();
    let columns = names.len() + extra.len();
    let _ = writeln!(md, "| N | {} | {} |", names.join(" | "), extra.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(columns));
    kernels
}

/// "function.id" (e.g. "count_8.asm_avx") → instructions, from
/// iai-callgrind's `--save-summary=json`.
fn iai_instructions(root: &Path) -> Result<Instructions, String> {
    let mut files = Vec::new();
    files_named(root, "summary.json", &mut files);
    let mut counts = BTreeMap::new();
    for file in files {
        let summary = read_json(&file)?;
        let ir =
            &summary["profiles"][0]["summaries"]["total"]["summary"]["Callgrind"]["Ir"]["metrics"];
        // `Both: [new, old]` after a previous run, `Left: new` on the first.
        let new = ir
            .get("Both")
            .map(|both| &both[0])
            .or_else(|| ir.get("Left"));
        let Some(count) = new.and_then(|m| m["Int"].as_u64()) else {
            return Err(format!("{}: no instruction count", file.display()));
        };
        let name = format!(
            "{}.{}",
            summary["function_name"].as_str().unwrap_or_default(),
            summary["id"].as_str().unwrap_or_default()
        );
        counts.insert(name, count);
    }
    Ok(counts)
}

/// The iai benchmark of `kernel` in the function `bench` (`count_8`, ...):
/// its ids are the kernels' names with `_` for `-`.
fn iai(instructions: &Instructions, bench: &str, kernel: Kernel) -> Option<u64> {
    instructions
        .get(&format!("{bench}.{}", kernel.name().replace('-', "_")))
        .copied()
}

// --- formatting --------------------------------------------------------------

/// A time in the unit that reads best.
fn time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.3} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.3} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A speed-up with the digits that matter.
fn ratio(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}")
    } else if r >= 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.2}")
    }
}

fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn code(kernel: Kernel) -> String {
    format!("`{kernel}`")
}

/// `a` or `a–b`: the sizes of a run of rows.
fn sizes(first: usize, last: usize) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// Consecutive sizes of `range` with equal `key`, as (first, last, key).
fn runs<K: PartialEq>(
    range: std::ops::RangeInclusive<usize>,
    key: impl Fn(usize) -> K,
) -> Vec<(usize, usize, K)> {
    let mut out: Vec<(usize, usize, K)> = Vec::new();
    for n in range {
        let k = key(n);
        match out.last_mut() {
            Some((_, last, prev)) if *prev == k => *last = n,
            _ => out.push((n, n, k)),
        }
    }
    out
}

/// The kernel `auto` picks on this CPU for `task` at `n`, from the library.
fn auto(task: Task, n: usize) -> Kernel {
    resolve_for(Kernel::Auto, task, n)
}

/// The fastest of `times`.
fn fastest(times: &BTreeMap<Kernel, f64>, keep: impl Fn(Kernel) -> bool) -> Option<(Kernel, f64)> {
    times
        .iter()
        .filter(|(k, _)| keep(**k))
        .map(|(&k, &t)| (k, t))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

fn heading(md: &mut String, title: &str) {
    let _ = writeln!(md, "### {title}\n");
}

/// The line a table writes when its benchmarks are not in this run.
fn missing(md: &mut String, what: &str) {
    let _ = writeln!(md, "(Not in this run: {what}.)\n");
}

// --- tables ------------------------------------------------------------------

fn machine(md: &mut String) {
    let info = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
            .and_then(|l| l.split(':').nth(1))
            .map_or("unknown".to_string(), |v| v.trim().to_string())
    };
    let cpu = format!(
        "{} (family {}, model {}, stepping {})",
        field("model name"),
        field("cpu family"),
        field("model"),
        field("stepping")
    );
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let output = |program: &str, args: &[&str]| {
        process::Command::new(program)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let rustc = output("rustc", &["-V"]).unwrap_or_else(|| "unknown".into());
    let commit = output("git", &["rev-parse", "--short=12", "HEAD"]).map_or_else(
        || "unknown".into(),
        |commit| {
            let dirty = output("git", &["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            format!(
                "`{commit}`{}",
                if dirty {
                    ", with changes not committed"
                } else {
                    ""
                }
            )
        },
    );
    let rustflags = env::var("RUSTFLAGS").unwrap_or_default();
    heading(md, "Machine");
    let _ = writeln!(
        md,
        "The run's machine and code; the benches ran on it just before this report.\n"
    );
    let _ = writeln!(
        md,
        "- CPU: {cpu}, {cores} logical cores; runtime features: {}",
        features()
    );
    let _ = writeln!(
        md,
        "- toolchain: {rustc}; profile `bench` (opt-level 3, codegen-units 1)"
    );
    let _ = writeln!(
        md,
        "- RUSTFLAGS: {}",
        if rustflags.is_empty() {
            "none (no `-C target-cpu`)".into()
        } else {
            format!("`{rustflags}`")
        }
    );
    let _ = writeln!(md, "- commit: {commit}; report made {}\n", today());
}

/// Today's date, UTC, as YYYY-MM-DD.
fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to the civil date (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

fn features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let mut have = Vec::new();
        let mut lack = Vec::new();
        for (name, present) in [
            ("sse4.1", is_x86_feature_detected!("sse4.1")),
            ("avx", is_x86_feature_detected!("avx")),
            ("avx2", is_x86_feature_detected!("avx2")),
            ("bmi1", is_x86_feature_detected!("bmi1")),
            ("bmi2", is_x86_feature_detected!("bmi2")),
            ("avx512f", is_x86_feature_detected!("avx512f")),
            (
                "avx512vpopcntdq",
                is_x86_feature_detected!("avx512vpopcntdq"),
            ),
        ] {
            if present {
                have.push(name)
            } else {
                lack.push(name)
            }
        }
        format!(
            "{}; lacks {}",
            have.join(" "),
            if lack.is_empty() {
                "none".into()
            } else {
                lack.join(" ")
            }
        )
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        "not x86-64".to_string()
    }
}

/// `auto`'s choice for each task and N on this CPU, and the lists it
/// chooses from: the library's, not measured.
fn auto_table(md: &mut String) {
    heading(md, "`auto`'s choices");
    let _ = writeln!(
        md,
        "What `auto` picks on this run's CPU for each task and N (`dispatch::resolve_for`), and what a count on threads goes through (`dispatch::counts_through_plan`, `dispatch::plan_for(Kernel::Auto, n)`, `Options::counting_kernel`): asked of the library, not measured. Where the lists below change families: counting with the lane kernels from N = {}, with the join from N = {}; enumerating with the symmetric kernels from N = {}, fundamental solutions from N = {}; counting on threads through a plan from N = {}.\n",
        first_led(Task::Count, |k| k.name().starts_with("lanes-")),
        join_from(),
        first_led(Task::Enumerate, |k| k.name().starts_with("symmetric")),
        first_led(Task::Fundamental, |k| k.name().starts_with("symmetric")),
        split_from(),
    );
    let _ = writeln!(
        md,
        "| N | counting | enumerating | fundamental solutions (`--unique`) | counting on threads |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    let row = |n: usize| {
        let threads = if counts_through_plan(Kernel::Auto, n) {
            queens_simd::dispatch::plan_for(Kernel::Auto, n)
                .and_then(|plan| {
                    let kernel = Options::new()
                        .with_threads(2)
                        .counting_kernel(plan.method())?;
                    Ok(format!("{} plan, {}", plan.method(), code(kernel)))
                })
                .unwrap_or_else(|e| format!("error: {e}"))
        } else {
            "one thread, whole board".into()
        };
        (
            auto(Task::Count, n),
            auto(Task::Enumerate, n),
            auto(Task::Fundamental, n),
            threads,
        )
    };
    for (first, last, (count, enumerate, fundamental, threads)) in runs(0..=MAX_N, row) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {threads} |",
            sizes(first, last),
            code(count),
            code(enumerate),
            code(fundamental)
        );
    }
    let _ = writeln!(
        md,
        "\nThe lists `auto` takes the first kernel from that this CPU runs and that accepts N (`dispatch::auto_preference`) on this run's CPU, the same on every CPU and build but one that runs each 512-bit instruction as two halves (AMD Zen 4), whose counting list puts `lanes-avx2` first from N = {} to {}; a CPU without AVX-512 or AVX2 gets the next kernel of its list:\n",
        first_led(Task::Count, |k| k.name().starts_with("lanes-")),
        join_from() - 1,
    );
    let _ = writeln!(md, "| task | N | preference, fastest first |");
    let _ = writeln!(md, "|---|---|---|");
    for (task, name) in [
        (Task::Count, "counting"),
        (Task::Enumerate, "enumerating"),
        (Task::Fundamental, "fundamental solutions"),
    ] {
        let list = |n: usize| auto_preference(task, n).unwrap_or(&[]);
        for (first, last, kernels) in runs(0..=MAX_N, list) {
            let _ = writeln!(
                md,
                "| {name} | {} | {} |",
                sizes(first, last),
                kernels
                    .iter()
                    .filter(|k| task == Task::Count || k.enumerates())
                    .map(|&k| code(k))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let _ = writeln!(md);
}

fn time_table(md: &mut String, medians: &Medians, task: Task) {
    let (mode, title, sizes) = match task {
        Task::Count => ("count", "Counting", COUNT_SIZES),
        _ => ("enumerate", "Enumerating", ENUMERATE_SIZES),
    };
    let group = format!("simd/{mode}");
    let kernels: Vec<Kernel> = Kernel::ALL
        .iter()
        .copied()
        .filter(|k| k.role() == Role::Fast && (task == Task::Count || k.enumerates()))
        .collect();
    heading(md, title);
    let _ = writeln!(
        md,
        "`{group}/<N>/<kernel>` of `cargo bench --bench simd`: criterion's median per solve, one thread, every fast kernel called directly; in brackets, the time relative to `portable` (below 1: faster). \"fastest\": the fastest kernel of the row in this run; \"`auto`\": the kernel `auto` picks for the task on this CPU (the library's choice, see [`auto`'s choices](#autos-choices)); \"`auto` / fastest\": its time over the fastest's, in this run.\n"
    );
    if !medians.keys().any(|(g, ..)| *g == group) {
        missing(md, &format!("`cargo bench --bench simd -- {group}/`"));
        return;
    }
    let names: Vec<String> = kernels.iter().map(|&k| code(k)).collect();
    let _ = writeln!(
        md,
        "| N | {} | fastest | `auto` | `auto` / fastest |",
        names.join(" | ")
    );
    let _ = writeln!(md, "|---|{}---|---|---|", "---|".repeat(kernels.len()));
    let mut slow = Vec::new();
    for n in sizes {
        let times: BTreeMap<Kernel, f64> = kernels
            .iter()
            .filter_map(|&k| median(medians, &group, &n.to_string(), k.name()).map(|t| (k, t)))
            .collect();
        let (row, auto_over_fastest) = time_row(task, n, &kernels, &times);
        let _ = writeln!(md, "{row}");
        if let Some(r) = auto_over_fastest.filter(|&r| r > AUTO_WITHIN) {
            slow.push(format!("N = {n} ({})", ratio(r)));
        }
    }
    let _ = writeln!(md);
    if task == Task::Count {
        let verdict = if slow.is_empty() {
            "at every N of the table".to_string()
        } else {
            format!("except at {}", slow.join(", "))
        };
        let _ = writeln!(
            md,
            "`auto` is within {:.0}% of the fastest kernel this CPU runs {verdict} (issue 29's bound, for N = 0 to 13).\n",
            (AUTO_WITHIN - 1.0) * 100.0
        );
    }
}

/// A table cell per kernel of `kernels`: its time in `times`, and but for
/// `base`'s own cell, in brackets, that time over `base`'s; "–" where it
/// was not timed.
fn relative_cells(kernels: &[Kernel], times: &BTreeMap<Kernel, f64>, base: Kernel) -> Vec<String> {
    let base_time = times.get(&base).copied();
    kernels
        .iter()
        .map(|k| match (times.get(k), base_time) {
            (Some(&t), Some(b)) if *k != base => format!("{} ({:.2})", time(t), t / b),
            (Some(&t), _) => time(t),
            (None, _) => "–".into(),
        })
        .collect()
}

/// One row of a time table: N, each kernel's time (and its ratio to
/// `portable`), the fastest kernel, `auto`'s, and `auto`'s time over the
/// fastest's (also returned, where both were timed).
fn time_row(
    task: Task,
    n: usize,
    kernels: &[Kernel],
    times: &BTreeMap<Kernel, f64>,
) -> (String, Option<f64>) {
    let cells = relative_cells(kernels, times, Kernel::Portable);
    let label = if n == 8 {
        "**8**".into()
    } else {
        n.to_string()
    };
    let fastest = fastest(times, |_| true);
    let picked = auto(task, n);
    let auto_over_fastest = fastest.and_then(|(_, f)| Some(times.get(&picked)? / f));
    let row = format!(
        "| {label} | {} | {} | {} | {} |",
        cells.join(" | "),
        fastest.map_or("–".into(), |(k, _)| code(k)),
        code(picked),
        auto_over_fastest.map_or("–".into(), |r| format!("{r:.2}")),
    );
    (row, auto_over_fastest)
}

/// A sentence of iai's counts for `kernels` in the benchmark functions
/// `benches` (each with its N), or nothing if iai counted none of them.
fn iai_sentence(
    md: &mut String,
    instructions: &Instructions,
    kernels: &[Kernel],
    benches: &[(&str, usize)],
) {
    let parts: Vec<String> = benches
        .iter()
        .filter_map(|&(bench, n)| {
            let counts: Vec<String> = kernels
                .iter()
                .filter_map(|&k| {
                    iai(instructions, bench, k).map(|c| format!("{} {}", code(k), group_digits(c)))
                })
                .collect();
            (!counts.is_empty()).then(|| format!("N = {n}: {}", counts.join(", ")))
        })
        .collect();
    if parts.is_empty() {
        let _ = writeln!(
            md,
            "(No instruction counts: run `cargo bench --bench iai -- --save-summary=json`.)\n"
        );
    } else {
        let _ = writeln!(
            md,
            "Instructions per count (`cargo bench --bench iai`, [Instructions](#instructions); valgrind runs no AVX-512, so the AVX-512 kernels have none): {}.\n",
            parts.join("; ")
        );
    }
}

/// The `lanes/<N>` groups: the lane kernels beside the walkers they run in
/// lanes, with `c-eightway` of the same run where `targets/` timed it.
fn lanes_table(md: &mut String, medians: &Medians, instructions: &Instructions) {
    heading(md, "Lane kernels");
    let _ = writeln!(
        md,
        "`lanes/<N>/<kernel>` of `cargo bench --bench simd`: criterion's median per count, one thread; in brackets, the time relative to `symmetric-bmi`, whose walkers the lane kernels run 8 or 16 at once (below 1: faster). `c-eightway`: the 8-way symmetric C program of `targets/<N>/c-eightway`, same run, where that group times N. \"`auto`\": the library's choice for counting on this CPU.\n"
    );
    let table = kernels_by_size(medians, "lanes");
    if table.is_empty() {
        missing(md, "`cargo bench --bench simd -- lanes/`");
        return;
    }
    let kernels = kernel_columns(md, &table, &["`c-eightway`", "fastest", "`auto`"]);
    for (&n, times) in &table {
        let cells = relative_cells(&kernels, times, Kernel::SymmetricBmi);
        let eightway = median(medians, "targets", &n.to_string(), "c-eightway");
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {} | {} |",
            cells.join(" | "),
            eightway.map_or("–".into(), time),
            fastest(times, |_| true).map_or("–".into(), |(k, _)| code(k)),
            code(auto(Task::Count, n))
        );
    }
    let _ = writeln!(md);
    iai_sentence(
        md,
        instructions,
        &kernels,
        &[("count_8", 8), ("count_12", 12)],
    );
}

/// The `join/<N>` groups: the join kernels beside the searches, on both
/// sides of the first N `auto` counts with the join.
fn join_table(md: &mut String, medians: &Medians, instructions: &Instructions) {
    let is_join = |k: Kernel| k.method() == Some(Method::Join);
    heading(md, "Join kernels");
    let _ = writeln!(
        md,
        "`join/<N>/<kernel>` of `cargo bench --bench simd` (N = 16 with `QUEENS_SIMD_BENCH_LARGE=1`): criterion's median per count, one thread, the join kernels beside the lane and symmetric kernels. \"join / search\": the fastest join kernel's time over the fastest search's (below 1: the join wins); `auto` counts with the join from N = {}. \"`auto`\": the library's choice for counting on this CPU.\n",
        join_from(),
    );
    let table = kernels_by_size(medians, "join");
    if table.is_empty() {
        missing(md, "`cargo bench --bench simd -- join/`");
        return;
    }
    let kernels = kernel_columns(
        md,
        &table,
        &["fastest search", "fastest join", "join / search", "`auto`"],
    );
    for (&n, times) in &table {
        let cells: Vec<String> = kernels
            .iter()
            .map(|k| times.get(k).map_or("–".into(), |&t| time(t)))
            .collect();
        let search = fastest(times, |k| !is_join(k));
        let join = fastest(times, is_join);
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {} | {} | {} |",
            cells.join(" | "),
            search.map_or("–".into(), |(k, _)| code(k)),
            join.map_or("–".into(), |(k, _)| code(k)),
            search
                .zip(join)
                .map_or("–".into(), |((_, s), (_, j))| format!("{:.2}", j / s)),
            code(auto(Task::Count, n))
        );
    }
    let _ = writeln!(md);
    iai_sentence(md, instructions, &kernels, &[("count_12", 12)]);
}

/// The C baselines of the `targets` group, as `benches/simd.rs` names them.
const C_BASELINES: [&str; 2] = ["c-mirror", "c-eightway"];

/// `c-eightway`'s place in [`C_BASELINES`].
const EIGHTWAY: usize = 1;

/// The kernel whose iai count of N = 8 equals `count`: which kernel a
/// benchmark of `auto` ran under valgrind, whose CPU lacks AVX-512.
fn iai_kernel_of(instructions: &Instructions, count: u64) -> Option<Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .find(|&k| iai(instructions, "count_8", k) == Some(count))
}

/// The `targets` group: our kernel (the one `auto` picks for N) beside the
/// classic C baselines (mirror symmetry, and all 8 symmetries), all from
/// this run, and the issue's targets and peer figures for reference.
fn targets_table(md: &mut String, medians: &Medians, instructions: &Instructions) {
    let group = "targets";
    heading(md, "Targets");
    let _ = writeln!(
        md,
        "`targets/<N>/...` of `cargo bench --bench simd` (N = 16 and 17 with `QUEENS_SIMD_BENCH_LARGE=1`), counting on one core: the kernel `auto` picks for N, called directly, beside two classic C bitmask solvers, `c-mirror` with mirror symmetry (`benches/c/mirror.c`) and `c-eightway` with all 8 symmetries of the square, Takaken's method (`benches/c/eightway.c`), both `cc -O3 -march=native`, criterion medians of this run. The targets and the best public peers are the fastest-kernel issues' figures, measured by their authors, not by this run (N = 8: issue 29, on an Intel Xeon with AVX-512; the rest: issue 6, on the project's 2-core EPYC):\n"
    );
    let rows: Vec<_> = TARGETS
        .iter()
        .filter_map(|&(n, target, peer, peer_ns)| {
            let function = n.to_string();
            let (kernel, ours) = medians
                .iter()
                .find(|((g, f, v), _)| {
                    g == group && *f == function && !C_BASELINES.contains(&v.as_str())
                })
                .map(|((_, _, v), &t)| (v.clone(), t))?;
            let c = C_BASELINES.map(|name| median(medians, group, &function, name));
            Some((n, kernel, ours, c, target, peer, peer_ns))
        })
        .collect();
    if rows.is_empty() {
        missing(md, "`cargo bench --bench simd -- targets/`");
        return;
    }
    let _ = writeln!(
        md,
        "| N | ours (kernel) | `c-mirror` | `c-mirror` / ours | `c-eightway` | `c-eightway` / ours | target | met | best public peer (its figure) | peer / ours |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for (n, kernel, ours, c, target, peer, peer_ns) in &rows {
        let baselines: Vec<String> = c
            .iter()
            .flat_map(|c| {
                [
                    c.map_or("–".into(), time),
                    c.map_or("–".into(), |c| ratio(c / ours)),
                ]
            })
            .collect();
        let (bound, limit) = match *target {
            Target::Time(ns) => (format!("≤ {}", time(ns)), Some(ns)),
            Target::OfEightway(f) => (format!("≤ {f} × `c-eightway`"), c[EIGHTWAY].map(|c| f * c)),
        };
        let met = limit.map_or("–", |l| if *ours <= l { "yes" } else { "no" });
        let _ = writeln!(
            md,
            "| {n} | {} (`{kernel}`) | {} | {bound} | {met} | {peer}: {} | {} |",
            time(*ours),
            baselines.join(" | "),
            time(*peer_ns),
            ratio(peer_ns / ours),
        );
    }
    let _ = writeln!(md);
    if let Some((_, name, ours, ..)) = rows.iter().find(|r| r.0 == 8) {
        // The kernel timed may have no count (valgrind runs no AVX-512):
        // then the one `auto` runs under valgrind stands in.
        let timed = Kernel::from_name(name);
        let counted = timed
            .and_then(|k| iai(instructions, "count_8", k).map(|c| (k, c)))
            .or_else(|| {
                let held = *instructions.get("dispatch_held.held")?;
                iai_kernel_of(instructions, held).map(|k| (k, held))
            });
        let count = match counted {
            Some((k, c)) if Some(k) == timed => {
                format!("`{name}` counts in {} instructions", group_digits(c))
            }
            Some((k, c)) => format!(
                "`{name}` has no instruction count (valgrind runs no AVX-512); {}, which `auto` runs under valgrind, counts in {} instructions",
                code(k),
                group_digits(c)
            ),
            None => format!("`{name}` has no instruction count in this run"),
        };
        let _ = writeln!(
            md,
            "At N = 8, {count} (`cargo bench --bench iai`; the issue's target ≤ {}), and `{name}` is {} times faster than davidad's original program ({}, about {} instructions, the issue's figure; its target ≥ 18).\n",
            group_digits(TARGET_INSTRUCTIONS_8),
            ratio(DAVIDAD_ORIGINAL_US * 1e3 / ours),
            time(DAVIDAD_ORIGINAL_US * 1e3),
            group_digits(DAVIDAD_ORIGINAL_INSTRUCTIONS),
        );
    }
}

/// The `threads` group: `auto`'s plan of each N on 1 and 2 threads, the
/// speed-up, and the threads issue's targets beside NQueensFAF.
fn threads_table(md: &mut String, medians: &Medians) {
    let group = "threads";
    heading(md, "Threads");
    let _ = writeln!(
        md,
        "`threads/<N>/<threads>` of `cargo bench --bench simd` (N = 17 and 18 with `QUEENS_SIMD_BENCH_LARGE=1`): counting through `auto`'s plan of N (`dispatch::plan_for(Kernel::Auto, n)`, as `queens_simd::count_on_threads` does), criterion medians of this run; the plan and the kernel that counts it are the library's on this CPU ([Plan sizes](#plan-sizes)). Targets and NQueensFAF's figures (Java, 2 threads) are the threads issue's, measured by its author on the project's machine:\n"
    );
    let sizes: BTreeSet<usize> = medians
        .keys()
        .filter(|(g, ..)| g == group)
        .filter_map(|(_, f, _)| f.parse().ok())
        .collect();
    if sizes.is_empty() {
        missing(md, "`cargo bench --bench simd -- threads/`");
        return;
    }
    let _ = writeln!(
        md,
        "| N | plan (kernel) | 1 thread | 2 threads | speed-up | target (2 threads) | met | NQueensFAF, 2 threads | FAF / ours |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|");
    for n in sizes {
        let function = n.to_string();
        let one = median(medians, group, &function, "1");
        let two = median(medians, group, &function, "2");
        let target = THREAD_TARGETS.iter().find(|t| t.0 == n);
        let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n)
            .and_then(|plan| {
                let kernel = Options::new()
                    .with_threads(2)
                    .counting_kernel(plan.method())?;
                Ok(format!("{} ({})", plan.method(), code(kernel)))
            })
            .unwrap_or_else(|e| format!("error: {e}"));
        let _ = writeln!(
            md,
            "| {n} | {plan} | {} | {} | {} | {} | {} | {} | {} |",
            one.map_or("–".into(), time),
            two.map_or("–".into(), time),
            one.zip(two)
                .map_or("–".into(), |(one, two)| ratio(one / two)),
            target.map_or("–".into(), |t| format!("≤ {}", time(t.1))),
            match (target, two) {
                (Some(t), Some(two)) =>
                    if two <= t.1 {
                        "yes"
                    } else {
                        "no"
                    },
                _ => "–",
            },
            target.map_or("–".into(), |t| time(t.2)),
            target
                .zip(two)
                .map_or("–".into(), |(t, two)| ratio(t.2 / two)),
        );
    }
    let _ = writeln!(md);
}

/// The dispatch's cost per call: `auto`'s count of N = 8 through
/// `queens_simd::count` against a held solver, in time (criterion's
/// `dispatch/8`) and in instructions (iai's `dispatch_held` and
/// `dispatch_through_count`), and whether it stays within 2%. Time on a
/// shared machine varies by more than that between runs; the instruction
/// counts do not. Under valgrind `auto` may pick another kernel than on
/// the CPU (valgrind runs no AVX-512): which one, the count of N = 8 that
/// the held solver's equals says.
fn dispatch_table(md: &mut String, medians: &Medians, instructions: &Instructions) {
    let n = DISPATCH_N;
    let group = format!("dispatch/{n}");
    heading(md, "Dispatch cost");
    let _ = writeln!(
        md,
        "`auto`'s count of N = {n} through `queens_simd::count` (which looks up `auto`'s cached choice and its solver on every call) and through a solver held across calls (`dispatch::solver_for(Kernel::Auto, Task::Count, n)` once): criterion's `{group}/held` and `{group}/through-count` of `cargo bench --bench simd`, and iai's `dispatch_held` and `dispatch_through_count` of `cargo bench --bench iai`. The bound: at most {:.0}% more. Criterion's medians vary by more than that from run to run on a shared machine; the instruction counts do not, and decide. \"kernel\": what `auto` counts N = {n} with: on this CPU for criterion (`dispatch::resolve_for`), and under valgrind, which runs no AVX-512, the kernel whose `count_8` instruction count the held solver's equals.\n",
        (DISPATCH_BOUND - 1.0) * 100.0
    );
    let held = median(medians, &group, "held", "");
    let through = median(medians, &group, "through-count", "");
    let held_ir = instructions.get("dispatch_held.held").copied();
    let through_ir = instructions
        .get("dispatch_through_count.through_count")
        .copied();
    if held.zip(through).is_none() && held_ir.zip(through_ir).is_none() {
        missing(
            md,
            &format!("`cargo bench --bench simd -- {group}/` and `cargo bench --bench iai`"),
        );
        return;
    }
    let _ = writeln!(
        md,
        "| measure | kernel | held | through `count` | difference | ratio | within {:.0}% |",
        (DISPATCH_BOUND - 1.0) * 100.0
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    let verdict = |ratio: f64| if ratio <= DISPATCH_BOUND { "yes" } else { "no" };
    if let (Some(held), Some(through)) = (held, through) {
        let ratio = through / held;
        let difference = through - held;
        let _ = writeln!(
            md,
            "| time (criterion) | {} | {} | {} | {}{} | {ratio:.3} | {} |",
            code(auto(Task::Count, n)),
            time(held),
            time(through),
            if difference < 0.0 { "−" } else { "" },
            time(difference.abs()),
            verdict(ratio)
        );
    }
    if let (Some(held), Some(through)) = (held_ir, through_ir) {
        let ratio = through as f64 / held as f64;
        let difference = through as i64 - held as i64;
        let _ = writeln!(
            md,
            "| instructions (iai) | {} | {} | {} | {}{} | {ratio:.4} | {} |",
            iai_kernel_of(instructions, held).map_or("–".into(), code),
            group_digits(held),
            group_digits(through),
            if difference < 0 { "−" } else { "" },
            group_digits(difference.unsigned_abs()),
            verdict(ratio)
        );
    }
    let _ = writeln!(md);
}

fn seeds_table(md: &mut String, medians: &Medians) {
    let group = "seeds/8";
    heading(md, "Seeds");
    let _ = writeln!(
        md,
        "`seeds/8/...` of `cargo bench --bench simd`: the seed articles' comparison at N = 8, criterion medians of this run, every program enumerating all 92 solutions (seed 001: its 12 classes). Each kernel column gives how many times faster that kernel, enumerating in the same group, is than the row. The articles' figures are their authors', on their machines (2011–2017); davidad's original program (seed 002) was timed by the issue's author on the project's machine, not by this bench:\n"
    );
    let ours: Vec<(&str, f64)> = fast_kernels()
        .iter()
        .filter_map(|(k, _)| median(medians, group, &format!("ours-{k}"), "").map(|t| (*k, t)))
        .collect();
    if ours.is_empty() {
        missing(md, "`cargo bench --bench simd -- seeds/`");
        return;
    }
    let _ = writeln!(
        md,
        "| seed | algorithm | article's figure (its machine) | this machine | {} |",
        ours.iter()
            .map(|(k, _)| format!("`{k}` ×"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(md, "|---|---|---|---|{}", "---|".repeat(ours.len()));
    let speedups = |t: f64| {
        ours.iter()
            .map(|(_, o)| ratio(t / o))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    for (name, seed, algorithm, article) in SEEDS {
        if let Some(t) = median(medians, group, name, "") {
            let _ = writeln!(
                md,
                "| {seed} | {algorithm} | {article} | {} | {} |",
                time(t),
                speedups(t)
            );
        }
    }
    // davidad's program counts (it exits with the count), so it is set
    // against our kernels counting at N = 8 in the same run.
    let counting: Vec<Option<f64>> = ours
        .iter()
        .map(|(k, _)| median(medians, "simd/count", "8", k))
        .collect();
    let davidad = DAVIDAD_ORIGINAL_US * 1e3;
    let _ = writeln!(
        md,
        "| 002 | davidad's original program, counting (timed by the issue's author on the project's 2-core EPYC, not by this bench); against our kernels counting (`simd/count/8`) | 11.2 µs | {} | {} |",
        time(davidad),
        counting
            .iter()
            .map(|t| t.map_or("–".into(), |t| ratio(davidad / t)))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(
        md,
        "\nOur kernels in the same group: {}.\n",
        ours.iter()
            .map(|(k, t)| format!("`{k}` {}", time(*t)))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

fn instruction_table(md: &mut String, counts: &Instructions) {
    heading(md, "Instructions");
    let _ = writeln!(
        md,
        "`cargo bench --bench iai` (iai-callgrind, callgrind): instructions per solve, the kernel and its Rust wrapper, every count checked; the same on every run and under any load. Valgrind runs no AVX-512: the AVX-512 kernels have no row of figures.\n"
    );
    if counts.is_empty() {
        missing(md, "`cargo bench --bench iai -- --save-summary=json`");
        return;
    }
    let _ = writeln!(
        md,
        "| kernel | count, N = 8 | enumerate, N = 8 | count, N = 12 |"
    );
    let _ = writeln!(md, "|---|---|---|---|");
    for &kernel in Kernel::ALL {
        let cell = |bench: &str| iai(counts, bench, kernel).map_or("–".into(), group_digits);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            code(kernel),
            cell("count_8"),
            cell("enumerate_8"),
            cell("count_12")
        );
    }
    let _ = writeln!(md);
}

/// The plans' sizes by method, and which one `auto` counts through: the
/// library's, not measured.
fn plan_table(md: &mut String) -> Result<(), String> {
    heading(md, "Plan sizes");
    let _ = writeln!(
        md,
        "Subproblems of each method's plan (`Plan::with_method(method, n).len()`), and the plan `auto` counts through on threads, in shards and from checkpoints (`dispatch::counts_through_plan`, `dispatch::plan_for(Kernel::Auto, n)`; below N = {} a count on threads counts the whole board on one): the library's, not measured. A plan depends on N, its method and the crate's version only.\n",
        split_from(),
    );
    let methods = Method::ALL;
    let _ = writeln!(
        md,
        "| N | {} | `auto` counts on threads through |",
        methods
            .iter()
            .map(|m| format!("{m} plan"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(md, "|---|{}---|", "---|".repeat(methods.len()));
    for n in PLAN_SIZES {
        let mut cells = Vec::new();
        for method in methods {
            let plan = Plan::with_method(method, n).map_err(|e| format!("N = {n}: {e}"))?;
            cells.push(group_digits(plan.len() as u64));
        }
        let through = if counts_through_plan(Kernel::Auto, n) {
            let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n)
                .map_err(|e| format!("N = {n}: {e}"))?;
            format!("{} plan", plan.method())
        } else {
            "no plan".into()
        };
        let _ = writeln!(md, "| {n} | {} | {through} |", cells.join(" | "));
    }
    let _ = writeln!(md);
    Ok(())
}

/// What `auto`'s count of N takes, as the library estimates it before it
/// starts (`Plan::memory_estimate`), and with `--cli`, the peak memory of
/// a few whole counts measured by GNU time.
fn memory_table(md: &mut String, cli: Option<&Path>) -> Result<(), String> {
    heading(md, "Memory");
    let limit = bytes(MEMORY_LIMIT);
    let _ = writeln!(
        md,
        "What `auto`'s count of N allocates, as the library estimates it before counting (`dispatch::plan_for(Kernel::Auto, n)?.memory_estimate(threads)`, which `--max-memory` checks; computed, not measured), on 1 and 2 threads, and the most threads whose estimate fits {limit}; beside it, the symmetric plan's estimate on 2 threads (`Plan::with_method(Method::Symmetric, n)`, what a symmetric or lane kernel's count takes). \"peak, whole process\": with `--cli`, the peak resident memory of `queens-simd N --count --threads {RSS_THREADS}` under `{GNU_TIME} -f %M`, one run each, right after the benches.\n"
    );
    let rss = match cli {
        Some(cli) if Path::new(GNU_TIME).exists() => Some(cli),
        Some(_) => {
            let _ = writeln!(
                md,
                "(No peak memory: `{GNU_TIME}` is missing; `apt-get install time` installs it.)\n"
            );
            None
        }
        None => None,
    };
    let _ = writeln!(
        md,
        "| N | plan (kernel) | 1 thread | 2 threads | threads that fit {limit} | symmetric plan, 2 threads | peak, whole process ({RSS_THREADS} threads) |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    for n in memory_sizes() {
        let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n)
            .map_err(|e| format!("N = {n}: {e}"))?;
        let kernel = Options::new()
            .with_threads(2)
            .counting_kernel(plan.method())
            .map_err(|e| format!("N = {n}: {e}"))?;
        let estimate = |threads: usize| plan.memory_estimate(threads);
        let (one, two) = (estimate(1), estimate(2));
        let fit = threads_that_fit(one, two, MEMORY_LIMIT, estimate);
        let symmetric = Plan::with_method(Method::Symmetric, n)
            .map_err(|e| format!("N = {n}: {e}"))?
            .memory_estimate(2);
        let peak = match rss {
            Some(cli) if RSS_SIZES.contains(&n) => bytes(peak_memory(cli, n)?),
            _ => "–".into(),
        };
        let _ = writeln!(
            md,
            "| {n} | {} ({}) | {} | {} | {} | {} | {peak} |",
            plan.method(),
            code(kernel),
            bytes(one),
            bytes(two),
            match fit {
                0 => "none".into(),
                t => group_digits(t as u64),
            },
            bytes(symmetric),
        );
    }
    let _ = writeln!(md);
    Ok(())
}

/// The most threads whose estimate fits `limit` (0 if not even one): the
/// estimate grows by the same amount per thread, so the first guess is
/// exact, and checked both ways.
fn threads_that_fit(one: u64, two: u64, limit: u64, estimate: impl Fn(usize) -> u64) -> usize {
    if one > limit {
        return 0;
    }
    let per_thread = two.saturating_sub(one).max(1);
    let mut threads = usize::try_from((limit - one) / per_thread)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    while threads > 1 && estimate(threads) > limit {
        threads -= 1;
    }
    while estimate(threads + 1) <= limit {
        threads += 1;
    }
    threads
}

/// The peak resident memory of `queens-simd n --count --threads 2`, in
/// bytes, its count checked against OEIS.
fn peak_memory(cli: &Path, n: usize) -> Result<u64, String> {
    let output = process::Command::new(GNU_TIME)
        .args(["-f", "%M"])
        .arg(cli)
        .args([
            &n.to_string(),
            "--count",
            "--threads",
            &RSS_THREADS.to_string(),
        ])
        .output()
        .map_err(|e| format!("{GNU_TIME}: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() || stdout.trim() != oracle::A000170[n].to_string() {
        return Err(format!(
            "{} {n} --count: status {}, stdout {stdout:?}, stderr {stderr:?}",
            cli.display(),
            output.status
        ));
    }
    let kib: u64 = stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("{GNU_TIME}: no peak memory in {stderr:?}"))?;
    Ok(kib << 10)
}

/// `--time` beside criterion: the CLI is run right after the benches, for
/// every fast kernel criterion measured, counting at N = 8, 10 and 12.
fn cli_table(md: &mut String, medians: &Medians, cli: Option<&Path>) -> Result<(), String> {
    heading(md, "CLI timing");
    let _ = writeln!(
        md,
        "`queens-simd N --count --time --threads 1 --kernel K`, run once each right after the benches, beside criterion's median of `simd/count/<N>/<K>`:\n"
    );
    let Some(cli) = cli else {
        missing(
            md,
            "the command line; `bench_report --cli target/release/queens-simd` runs it",
        );
        return Ok(());
    };
    let _ = writeln!(
        md,
        "| N | kernel | criterion | `--time` | `--time` / criterion |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    for n in [8, 10, 12] {
        for (k, _) in fast_kernels() {
            let Some(bench) = median(medians, "simd/count", &n.to_string(), k) else {
                continue;
            };
            let output = process::Command::new(cli)
                // One thread, as criterion's `simd/count` solves: from N = 12 the
                // CLI would count on every core.
                .args([
                    &n.to_string(),
                    "--count",
                    "--time",
                    "--threads",
                    "1",
                    "--kernel",
                    k,
                ])
                .output()
                .map_err(|e| format!("{}: {e}", cli.display()))?;
            let stderr = String::from_utf8_lossy(&output.stderr);
            let us: f64 = stderr
                .lines()
                .find_map(|l| l.strip_prefix("time: "))
                .and_then(|l| l.split(' ').next())
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| {
                    format!(
                        "no `time:` line from {} for {k} N={n}: {stderr}",
                        cli.display()
                    )
                })?;
            let _ = writeln!(
                md,
                "| {n} | `{k}` | {} | {} | {:.2} |",
                time(bench),
                time(us * 1e3),
                us * 1e3 / bench
            );
        }
    }
    let _ = writeln!(md);
    Ok(())
}

// --- plot --------------------------------------------------------------------

/// Kernels per row of the plot's legend.
const LEGEND_ROW: usize = 6;

/// Three panels, all on log scales (the kernels span three orders of
/// magnitude on small boards): count time across N, then count and
/// enumerate time relative to `portable`, where the kernels' differences
/// show.
fn plot(medians: &Medians) -> String {
    let kernels = fast_kernels();
    let (w, h) = (300.0, 260.0);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
"#,
        3.0 * w + 40.0,
        h + 70.0 + 16.0 * ((kernels.len().max(1) - 1) / LEGEND_ROW) as f64
    );
    let count = |k: &str, n: usize| median(medians, "simd/count", &n.to_string(), k);
    let enumerate = |k: &str, n: usize| median(medians, "simd/enumerate", &n.to_string(), k);
    panel(
        &mut svg,
        &kernels,
        10.0,
        "count: time per solve (log)",
        true,
        &|k, n| count(k, n).map(|t| t / 1e3),
        "µs",
    );
    panel(
        &mut svg,
        &kernels,
        20.0 + w,
        "count: time / portable (log)",
        true,
        &|k, n| Some(count(k, n)? / count("portable", n)?),
        "×",
    );
    panel(
        &mut svg,
        &kernels,
        30.0 + 2.0 * w,
        "enumerate: time / portable (log)",
        true,
        &|k, n| Some(enumerate(k, n)? / enumerate("portable", n)?),
        "×",
    );
    // Legend, in rows of LEGEND_ROW kernels across the width.
    let step = (3.0 * w - 60.0) / LEGEND_ROW as f64;
    for (i, (k, colour)) in kernels.iter().enumerate() {
        let x = 60.0 + (i % LEGEND_ROW) as f64 * step;
        let y = h + 50.0 + (i / LEGEND_ROW) as f64 * 16.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{k}</text>"#,
            x + 20.0,
            x + 25.0,
            y + 4.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn panel(
    svg: &mut String,
    kernels: &[(&str, &str)],
    left: f64,
    title: &str,
    log: bool,
    value: &dyn Fn(&str, usize) -> Option<f64>,
    unit: &str,
) {
    let (w, h, top) = (300.0, 260.0, 20.0);
    let (pl, pr, pt, pb) = (left + 45.0, left + w - 10.0, top + 20.0, top + h - 25.0);
    let ns: Vec<usize> = (4..=12).collect();
    let values: Vec<f64> = kernels
        .iter()
        .flat_map(|(k, _)| ns.iter().filter_map(|&n| value(k, n)))
        .collect();
    if values.is_empty() {
        return;
    }
    let (lo, hi) = values
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if log {
        (lo.log10().floor(), hi.log10().ceil())
    } else {
        (0.0, (hi * 1.1).max(1.2))
    };
    let scale = |v: f64| if log { v.log10() } else { v };
    let x = |n: usize| pl + (n - 4) as f64 / 8.0 * (pr - pl);
    let y = |v: f64| pb - (scale(v) - lo) / (hi - lo) * (pb - pt);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-weight="bold">{title}</text>"#,
        pl,
        top + 10.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{pl}" y="{pt}" width="{}" height="{}" fill="none" stroke="#888"/>"##,
        pr - pl,
        pb - pt
    );
    for &n in &ns {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{n}</text>"#,
            x(n),
            pb + 14.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">N</text>"#,
        (pl + pr) / 2.0,
        pb + 24.0
    );
    let ticks: Vec<f64> = if log {
        (lo as i32..=hi as i32).map(|e| 10f64.powi(e)).collect()
    } else {
        let step = if hi > 3.0 { 1.0 } else { 0.5 };
        (0..)
            .map(|i| i as f64 * step)
            .take_while(|&t| t <= hi)
            .collect()
    };
    for t in ticks {
        let label = if log {
            format!("{t}")
        } else {
            format!("{t:.1}")
        };
        let _ = writeln!(
            svg,
            r##"<line x1="{pl}" y1="{0}" x2="{pr}" y2="{0}" stroke="#ddd"/><text x="{1}" y="{2}" text-anchor="end">{label} {unit}</text>"##,
            y(t),
            pl - 3.0,
            y(t) + 4.0
        );
    }
    for &(k, colour) in kernels {
        let points: Vec<String> = ns
            .iter()
            .filter_map(|&n| value(k, n).map(|v| format!("{:.1},{:.1}", x(n), y(v))))
            .collect();
        if !points.is_empty() {
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5"/>"#,
                points.join(" ")
            );
        }
    }
}
