//! Turns one run of both benches into BENCHMARKS.md's tables and plot, so
//! that every number there comes from the data, not from a hand copy.
//!
//! ```text
//! cargo bench --bench simd
//! cargo bench --bench iai -- --save-summary=json
//! cargo build --release
//! cargo run --release --example bench_report -- \
//!     --cli target/release/queens-simd --update BENCHMARKS.md
//! ```
//!
//! With `--cli`, it also runs `queens-simd N --count --time --threads 1 --kernel K` for
//! every fast kernel at N = 8, 10, 12 and sets the CLI's figure beside
//! criterion's. `--plot FILE` moves the plot elsewhere.
//!
//! Reads criterion's `target/criterion/*/**/new/{benchmark,estimates}.json`
//! (the median of each benchmark) and iai-callgrind's
//! `target/iai/**/summary.json` (instructions), describes this machine, and
//! writes the tables between the `<!-- bench_report:begin -->` and
//! `<!-- bench_report:end -->` lines of the file given to `--update` (or to
//! stdout without it), and the plot to `benches/results/kernels.svg`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs, process};

use queens_simd::Kernel;
use queens_simd::kernel::Role;
use serde_json::Value;

const BEGIN: &str = "<!-- bench_report:begin -->";
const END: &str = "<!-- bench_report:end -->";
const PLOT: &str = "benches/results/kernels.svg";

/// Plot colours, given to the fast kernels in `Kernel::ALL` order.
const COLOURS: [&str; 10] = [
    "#222222", "#1f77b4", "#17becf", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#bcbd22",
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

/// The fastest-kernel issue's table, row by row: N, our target (ns), the
/// best public peer measured on the project's machine by the issue's author
/// and its figure (ns). Not reproduced by our benches: the peers' code is
/// not ours to build.
const TARGETS: [(usize, f64, &str, f64); 4] = [
    (
        8,
        750.0,
        "C with 8-way symmetry (Takaken-style), ~23k instructions",
        1_500.0,
    ),
    (12, 0.65e6, "C with 8-way symmetry (Takaken-style)", 1.3e6),
    (
        16,
        0.70e9,
        "constellations (NQueensFAF, its C port)",
        1.39e9,
    ),
    (17, 4.7e9, "constellations (NQueensFAF, its C port)", 9.4e9),
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

type Medians = BTreeMap<(String, String, String), f64>;

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
    for mode in ["count", "enumerate"] {
        time_table(&mut md, &medians, mode);
    }
    targets_table(&mut md, &medians, &instructions);
    threads_table(&mut md, &medians);
    dispatch_table(&mut md, &medians, &instructions);
    seeds_table(&mut md, &medians);
    instruction_table(&mut md, &instructions);
    if let Some(cli) = cli {
        cli_table(&mut md, &medians, &cli)?;
    }

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

/// "function.id" (e.g. "count_8.asm_avx") → instructions, from
/// iai-callgrind's `--save-summary=json`.
fn iai_instructions(root: &Path) -> Result<BTreeMap<String, u64>, String> {
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
    let rustc = process::Command::new("rustc")
        .arg("-V")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    let rustflags = env::var("RUSTFLAGS").unwrap_or_default();
    let _ = writeln!(md, "Machine of this run:\n");
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
        "- RUSTFLAGS: {}\n",
        if rustflags.is_empty() {
            "none (no `-C target-cpu`)".into()
        } else {
            format!("`{rustflags}`")
        }
    );
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

fn time_table(md: &mut String, medians: &Medians, mode: &str) {
    let group = format!("simd/{mode}");
    let kernels = fast_kernels();
    let _ = writeln!(
        md,
        "**`{group}`**, criterion median per solve (`cargo bench --bench simd`); in brackets, the time relative to `portable` (below 1: faster):\n"
    );
    let _ = writeln!(
        md,
        "| N | {} |",
        kernels
            .iter()
            .map(|(k, _)| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(md, "|---|{}", "---|".repeat(kernels.len()));
    for n in 4..=12 {
        let base = median(medians, &group, &n.to_string(), "portable");
        let cells: Vec<String> = kernels
            .iter()
            .map(
                |&(k, _)| match (median(medians, &group, &n.to_string(), k), base) {
                    (Some(t), Some(b)) if k != "portable" => format!("{} ({:.2})", time(t), t / b),
                    (Some(t), _) => time(t),
                    (None, _) => "–".into(),
                },
            )
            .collect();
        let n = if n == 8 {
            "**8**".into()
        } else {
            n.to_string()
        };
        let _ = writeln!(md, "| {n} | {} |", cells.join(" | "));
    }
    let _ = writeln!(md);
}

/// The C baselines of the `targets` group, as `benches/simd.rs` names them.
const C_BASELINES: [&str; 2] = ["c-mirror", "c-eightway"];

/// The `targets` group: our kernel (the one `auto` picks for N) beside the
/// classic C baselines (mirror symmetry, and all 8 symmetries), all from
/// this run, and the issue's targets and peer figures for reference.
fn targets_table(md: &mut String, medians: &Medians, instructions: &BTreeMap<String, u64>) {
    let group = "targets";
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
        return;
    }
    let _ = writeln!(
        md,
        "**Targets** (`targets/<N>/...` of `cargo bench --bench simd`, counting on one core; N = 16 and 17 with `QUEENS_SIMD_BENCH_LARGE=1`): the kernel `auto` picks for N beside two classic C bitmask solvers, `c-mirror` with mirror symmetry (`benches/c/mirror.c`) and `c-eightway` with all 8 symmetries of the square, Takaken's method (`benches/c/eightway.c`), both `cc -O3 -march=native`, criterion medians of this run. The target and the best public peer are the issue's figures, measured by its author on the project's machine, not by this run:\n"
    );
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
        let _ = writeln!(
            md,
            "| {n} | {} (`{kernel}`) | {} | ≤ {} | {} | {peer}: {} | {} |",
            time(*ours),
            baselines.join(" | "),
            time(*target),
            if ours <= target { "yes" } else { "no" },
            time(*peer_ns),
            ratio(peer_ns / ours),
        );
    }
    let _ = writeln!(md);
    if let Some((_, kernel, ours, ..)) = rows.iter().find(|r| r.0 == 8) {
        let count_8 = instructions.get(&format!("count_8.{}", kernel.replace('-', "_")));
        let _ = writeln!(
            md,
            "At N = 8, `{kernel}` counts in {} instructions (`cargo bench --bench iai`; target ≤ {}), and is {} times faster than davidad's original program ({}, about {} instructions; target ≥ 18).\n",
            count_8.map_or("–".into(), |&c| group_digits(c)),
            group_digits(TARGET_INSTRUCTIONS_8),
            ratio(DAVIDAD_ORIGINAL_US * 1e3 / ours),
            time(DAVIDAD_ORIGINAL_US * 1e3),
            group_digits(DAVIDAD_ORIGINAL_INSTRUCTIONS),
        );
    }
}

/// The `threads` group: each N on 1 and 2 threads, the speed-up, and the
/// threads issue's targets beside NQueensFAF.
fn threads_table(md: &mut String, medians: &Medians) {
    let group = "threads";
    let sizes: std::collections::BTreeSet<usize> = medians
        .keys()
        .filter(|(g, ..)| g == group)
        .filter_map(|(_, f, _)| f.parse().ok())
        .collect();
    if sizes.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "**Threads** (`threads/<N>/<threads>` of `cargo bench --bench simd`: counting through the plan of N, `queens_simd::plan`; N = 17 and 18 with `QUEENS_SIMD_BENCH_LARGE=1`), criterion medians of this run. Targets and NQueensFAF's figures (Java, 2 threads) are the issue's, measured by its author on the project's machine:\n"
    );
    let _ = writeln!(
        md,
        "| N | 1 thread | 2 threads | speed-up | target (2 threads) | met | NQueensFAF, 2 threads | FAF / ours |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for n in sizes {
        let function = n.to_string();
        let one = median(medians, group, &function, "1");
        let two = median(medians, group, &function, "2");
        let target = THREAD_TARGETS.iter().find(|t| t.0 == n);
        let _ = writeln!(
            md,
            "| {n} | {} | {} | {} | {} | {} | {} | {} |",
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
/// counts do not.
fn dispatch_table(md: &mut String, medians: &Medians, instructions: &BTreeMap<String, u64>) {
    let group = "dispatch/8";
    let time_of = |how: &str| median(medians, group, how, "");
    let held_ir = instructions.get("dispatch_held.held").copied();
    let through_ir = instructions
        .get("dispatch_through_count.through_count")
        .copied();
    let held = time_of("held");
    let through = time_of("through-count");
    if held.is_none() && held_ir.is_none() {
        return;
    }
    let _ = writeln!(
        md,
        "**Dispatch per call**: `auto`'s count of N = 8 through `queens_simd::count` (resolves `auto` and finds its solver on every call) and through a solver held across calls (`Kernel::solver_for` once). Target: at most 2% more. Criterion's `dispatch/8` medians vary by more than 2% from run to run on a shared machine; iai-callgrind's instruction counts (`dispatch_held`, `dispatch_through_count`) do not, and decide.\n"
    );
    let _ = writeln!(
        md,
        "| measure | held | through `count` | ratio | within 2% |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|");
    let verdict = |ratio: f64| if ratio <= 1.02 { "yes" } else { "no" };
    if let (Some(held), Some(through)) = (held, through) {
        let ratio = through / held;
        let _ = writeln!(
            md,
            "| time (criterion) | {} | {} | {ratio:.3} | {} |",
            time(held),
            time(through),
            verdict(ratio)
        );
    }
    if let (Some(held), Some(through)) = (held_ir, through_ir) {
        let ratio = through as f64 / held as f64;
        let _ = writeln!(
            md,
            "| instructions (iai) | {held} | {through} | {ratio:.4} | {} |",
            verdict(ratio)
        );
    }
    let _ = writeln!(md);
}

fn seeds_table(md: &mut String, medians: &Medians) {
    let group = "seeds/8";
    let ours: Vec<(&str, f64)> = fast_kernels()
        .iter()
        .filter_map(|(k, _)| median(medians, group, &format!("ours-{k}"), "").map(|t| (*k, t)))
        .collect();
    if ours.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "**`seeds/8`**, the seeds' comparison at N = 8, criterion medians of one run, every program enumerating all 92 solutions (seed 001: its 12 classes). Each kernel column gives how many times faster that kernel, enumerating in the same run, is than the row:\n"
    );
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

fn instruction_table(md: &mut String, counts: &BTreeMap<String, u64>) {
    if counts.is_empty() {
        let _ = writeln!(
            md,
            "(No iai-callgrind results: run `cargo bench --bench iai -- --save-summary=json`.)\n"
        );
        return;
    }
    let _ = writeln!(
        md,
        "**Instructions per solve** (`cargo bench --bench iai`, callgrind; the kernel and its Rust wrapper, counts checked):\n"
    );
    let _ = writeln!(
        md,
        "| kernel | count, N = 8 | enumerate, N = 8 | count, N = 12 |"
    );
    let _ = writeln!(md, "|---|---|---|---|");
    // The iai bench's ids are the kernels' names with `_` for `-`.
    for id in Kernel::ALL.iter().map(|k| k.name().replace('-', "_")) {
        let cell = |bench: &str| {
            counts
                .get(&format!("{bench}.{id}"))
                .map_or("–".into(), |&c| group_digits(c))
        };
        let _ = writeln!(
            md,
            "| `{}` | {} | {} | {} |",
            id.replace('_', "-"),
            cell("count_8"),
            cell("enumerate_8"),
            cell("count_12")
        );
    }
    let _ = writeln!(md);
}

/// `--time` beside criterion: the CLI is run right after the benches, for
/// every fast kernel criterion measured, counting at N = 8, 10 and 12.
fn cli_table(md: &mut String, medians: &Medians, cli: &Path) -> Result<(), String> {
    let _ = writeln!(
        md,
        "**`--time` beside criterion**, counting: criterion's median (`simd/count`) and `queens-simd N --count --time --threads 1 --kernel K`, run once each right after the benches:\n"
    );
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

// --- plot --------------------------------------------------------------------

/// Three panels: count time (log scale) across N, then count and enumerate
/// time relative to `portable`, where the kernels' differences show.
fn plot(medians: &Medians) -> String {
    let kernels = fast_kernels();
    let (w, h) = (300.0, 260.0);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
"#,
        3.0 * w + 40.0,
        h + 70.0
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
        "count: time / portable",
        false,
        &|k, n| Some(count(k, n)? / count("portable", n)?),
        "×",
    );
    panel(
        &mut svg,
        &kernels,
        30.0 + 2.0 * w,
        "enumerate: time / portable",
        false,
        &|k, n| Some(enumerate(k, n)? / enumerate("portable", n)?),
        "×",
    );
    // Legend, one entry per kernel across the width.
    let step = (3.0 * w - 60.0) / kernels.len().max(1) as f64;
    for (i, (k, colour)) in kernels.iter().enumerate() {
        let x = 60.0 + i as f64 * step;
        let y = h + 50.0;
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
