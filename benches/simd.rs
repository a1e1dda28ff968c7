//! `cargo bench --bench simd`: solve time per kernel, in microseconds.
//!
//! Seven kinds of group, named so that criterion's reports put kernels side
//! by side:
//! - `simd/count/<N>/<kernel>`: every fast kernel this CPU runs, counting,
//!   N = 0..=13 (N = 8 is davidad's headline): the report checks `auto`'s
//!   choice against the fastest of each N;
//! - `simd/enumerate/<N>/<kernel>`: the same kernels visiting every
//!   solution, N = 4..=12;
//! - `seeds/8/<seed>-<algorithm>`: the seed articles' own comparison at
//!   N = 8 (brute force, Heap's permutations, the bitboard, threat masks with
//!   symmetry dedup) beside every fast kernel (`ours-<kernel>`; seed 002,
//!   davidad's machine, is `ours-sse41` and `ours-asm-sse41`), all
//!   enumerating as the articles did;
//! - `targets/<N>/<name>`: the headline sizes of the fastest-kernel issue,
//!   counting: the kernel `auto` picks for N (named by that kernel) beside
//!   two C baselines, each compiled by this bench with `$CC` or `cc`,
//!   `-O3 -march=native`, and timed by its own clock around its loop:
//!   `c-mirror`, the classic C bitmask solver with mirror symmetry
//!   (`benches/c/mirror.c`), and `c-eightway`, the same search with all 8
//!   symmetries of the square, Takaken's method (`benches/c/eightway.c`:
//!   one board per class, counted with its class's size). N = 8 and 12
//!   always; N = 16 and 17 (about 7 minutes, nearly all of it the C
//!   baselines) only with `QUEENS_SIMD_BENCH_LARGE=1`;
//! - `lanes/<N>/<kernel>`: the lane kernels (`lanes-avx512`,
//!   `lanes-avx2`) beside `symmetric-bmi`, whose walkers they run in lanes
//!   (and `portable` up to N = 10), counting on one thread, N = 8, 10, 12,
//!   13, 14 and 15;
//! - `join/<N>/<kernel>`: the join kernels beside the lane and symmetric
//!   kernels, counting on one thread, N = 12 to 15 (where `auto` turns to
//!   the join), and N = 16 with
//!   `QUEENS_SIMD_BENCH_LARGE=1`;
//! - `threads/<N>/<threads>`: counting through `auto`'s plan of N
//!   (`dispatch::plan_for(Kernel::Auto, n)`: a join plan where `auto`
//!   counts with the join), as `queens_simd::count_on_threads` does, on 1
//!   and 2 threads, N = 14, 15 and 16; with `QUEENS_SIMD_BENCH_LARGE=1`
//!   also N = 17 and 18, about a minute more;
//! - `dispatch/8/<how>`: `auto`'s count of N = 8 through
//!   `queens_simd::count` (`through-count`) and through a solver held
//!   across calls (`held`): what the dispatch costs per call.
//!
//! Each kernel is called directly, never through `auto`. Every timed solve
//! checks its count against OEIS (`tests/common/oracle.rs`, the tests' own
//! oracle, through `benches/common`) and panics on a mismatch, so a fast
//! wrong answer fails the bench.
//! Throughput is in solutions per second.
//!
//! `cli/examples/bench_report.rs` turns a run's `target/criterion` into the tables
//! and plot of BENCHMARKS.md.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use queens_simd::dispatch::Options;
use queens_simd::kernel::Task;
use queens_simd::{Count, Kernel, Solver, fundamental};

mod common;
use common::{A000170, A002562, count, enumerate, fast_kernels, solver};

/// The sizes of `simd/count`: every N up to the last that `auto` counts
/// with a search (it counts with the join from N = 14), so that the
/// report can hold `auto`'s choice against the fastest kernel at each.
const COUNT_SIZES: core::ops::RangeInclusive<usize> = 0..=13;

/// The sizes of `simd/enumerate`.
const ENUMERATE_SIZES: core::ops::RangeInclusive<usize> = 4..=12;

/// The size of the seeds' comparison.
const SEEDS_N: usize = 8;

/// Throughput in solutions per solve (every count here fits in a `u64`).
fn solutions(count: Count) -> Throughput {
    Throughput::Elements(u64::try_from(count).expect("N <= 17"))
}

fn simd(c: &mut Criterion) {
    type Solve = fn(&dyn Solver, usize) -> Count;
    let modes = [
        ("count", count as Solve, COUNT_SIZES),
        ("enumerate", enumerate, ENUMERATE_SIZES),
    ];
    for (mode, solve, sizes) in modes {
        let mut group = c.benchmark_group(format!("simd/{mode}"));
        for n in sizes {
            group.throughput(solutions(A000170[n]));
            // The join kernels only count.
            let fits = |k: &Kernel| k.sizes().contains(&n) && (mode == "count" || k.enumerates());
            for kernel in fast_kernels().filter(fits) {
                let solver = solver(kernel, n);
                let id = BenchmarkId::new(n.to_string(), kernel.name());
                group.bench_function(id, |b| b.iter(|| solve(&*solver, n)));
            }
        }
        group.finish();
    }
}

fn seeds(c: &mut Criterion) {
    let n = SEEDS_N;
    let mut group = c.benchmark_group(format!("seeds/{n}"));
    // Brute force takes about 0.1 s a solve: 10 samples are plenty.
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    group.throughput(solutions(A000170[n]));

    let seed_kernels = [
        ("000-bitboard64", Kernel::Bitboard64),
        ("003-brute-force", Kernel::BruteForce),
        ("004-heap", Kernel::HeapPermutations),
    ];
    for (name, kernel) in seed_kernels.into_iter().filter(|(_, k)| k.is_available()) {
        let solver = solver(kernel, n);
        group.bench_function(name, |b| b.iter(|| enumerate(&*solver, n)));
    }

    // Seed 001 enumerates with threat masks and keeps one solution per class
    // of the 8 symmetries: 12 fundamental solutions for N = 8.
    group.throughput(solutions(A002562[n]));
    group.bench_function("001-threat-masks-unique", |b| {
        b.iter(|| {
            let classes = fundamental::count(Kernel::ThreatMasks, black_box(n)).expect("N = 8");
            assert_eq!(classes, A002562[n], "threat masks N={n}: wrong class count");
            classes
        })
    });

    // Seed 002, davidad's machine, is `ours-sse41` and `ours-asm-sse41`:
    // its faithful ports.
    group.throughput(solutions(A000170[n]));
    // (The join kernels only count.)
    for kernel in fast_kernels().filter(|k| k.enumerates()) {
        let solver = solver(kernel, n);
        let id = format!("ours-{}", kernel.name());
        group.bench_function(id, |b| b.iter(|| enumerate(&*solver, n)));
    }
    group.finish();
}

/// The `targets` group's sizes: the fastest-kernel issue's table.
const TARGET_SIZES: [usize; 2] = [8, 12];
const LARGE_TARGET_SIZES: [usize; 2] = [16, 17];

/// The C baselines of the `targets` group: each `benches/c/<name>.c`, run as
/// `c-<name>`.
const C_BASELINES: [&str; 2] = ["mirror", "eightway"];

/// `benches/c/<name>.c` compiled into this bench's scratch directory as
/// `c-<name>`.
fn c_program(name: &str) -> PathBuf {
    // This package's root is benches/.
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("c")
        .join(format!("{name}.c"));
    let binary = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("c-{name}"));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-O3", "-march=native", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("cannot run the C compiler {cc:?}: {e}"));
    assert!(status.success(), "{cc} failed on {}", source.display());
    binary
}

/// `iterations` counts of N-Queens by the C program `binary`, timed by its
/// own clock; panics unless its count is OEIS A000170's.
fn time_c(binary: &Path, n: usize, iterations: u64) -> Duration {
    let name = binary
        .file_name()
        .map_or("C".into(), |f| f.to_string_lossy());
    let output = Command::new(binary)
        .args([n.to_string(), iterations.to_string()])
        .output()
        .unwrap_or_else(|e| panic!("{name} N={n} does not run: {e}"));
    assert!(output.status.success(), "{name} N={n}: {output:?}");
    let text = String::from_utf8(output.stdout).expect("the C programs print ASCII");
    let mut fields = text.split_whitespace().map(|f| f.parse::<u64>());
    let (Some(Ok(count)), Some(Ok(ns))) = (fields.next(), fields.next()) else {
        panic!("{name} N={n}: unexpected output {text:?}");
    };
    assert_eq!(Count::from(count), A000170[n], "{name} N={n}: wrong count");
    Duration::from_nanos(ns)
}

fn targets(c: &mut Criterion) {
    let large = std::env::var("QUEENS_SIMD_BENCH_LARGE").is_ok_and(|v| v == "1");
    let baselines: Vec<(String, PathBuf)> = C_BASELINES
        .into_iter()
        .map(|name| (format!("c-{name}"), c_program(name)))
        .collect();
    let mut group = c.benchmark_group("targets");
    let sizes = TARGET_SIZES
        .into_iter()
        .chain(LARGE_TARGET_SIZES.into_iter().filter(|_| large));
    for n in sizes {
        if n >= 16 {
            // 1 to 30 s a solve: criterion's minimum of 10 samples of one.
            group.sample_size(10).warm_up_time(Duration::from_millis(1));
        }
        group.throughput(solutions(A000170[n]));
        let kernel =
            queens_simd::dispatch::resolve_for(Kernel::Auto, queens_simd::kernel::Task::Count, n);
        let ours = solver(kernel, n);
        group.bench_function(BenchmarkId::new(n.to_string(), kernel.name()), |b| {
            b.iter(|| count(&*ours, n))
        });
        for (id, binary) in &baselines {
            group.bench_function(BenchmarkId::new(n.to_string(), id), |b| {
                b.iter_custom(|iterations| time_c(binary, n, iterations))
            });
        }
    }
    group.finish();
}

/// The sizes of the `join` group: on both sides of the N where `auto`
/// turns from the searches to the join.
const JOIN_SIZES: [usize; 4] = [12, 13, 14, 15];
const LARGE_JOIN_SIZES: [usize; 1] = [16];

/// The join kernels beside the lane and symmetric ones, one thread each,
/// around the N where a join first pays: `join/<N>/<kernel>`.
fn join(c: &mut Criterion) {
    let large = std::env::var("QUEENS_SIMD_BENCH_LARGE").is_ok_and(|v| v == "1");
    let sizes = JOIN_SIZES
        .into_iter()
        .chain(LARGE_JOIN_SIZES.into_iter().filter(|_| large));
    for n in sizes {
        let mut group = c.benchmark_group(format!("join/{n}"));
        group.sample_size(10).warm_up_time(Duration::from_millis(1));
        group.throughput(solutions(A000170[n]));
        // Every kernel that counts a plan's pieces: the searches (symmetric
        // and lane kernels) and the joins, from the kernel table.
        let kernels = Kernel::ALL.iter().copied().filter(|k| k.method().is_some());
        for kernel in kernels.filter(|k| k.is_available()) {
            let solver = solver(kernel, n);
            group.bench_function(kernel.name(), |b| b.iter(|| count(&*solver, n)));
        }
        group.finish();
    }
}

/// The lane kernels beside the scalar walkers they run in lanes
/// (`symmetric-bmi`), one thread each, from N = 8 (mirror starts) to the
/// join's range: `lanes/<N>/<kernel>`.
fn lanes(c: &mut Criterion) {
    for n in [8, 10, 12, 13, 14, 15] {
        let mut group = c.benchmark_group(format!("lanes/{n}"));
        if n >= 13 {
            group
                .sample_size(20)
                .warm_up_time(Duration::from_millis(100));
        }
        group.throughput(solutions(A000170[n]));
        let kernels = [
            Kernel::LanesAvx512,
            Kernel::LanesAvx2,
            Kernel::SymmetricBmi,
            Kernel::Portable,
        ];
        for kernel in kernels.into_iter().filter(|k| k.is_available()) {
            if kernel == Kernel::Portable && n > 10 {
                continue;
            }
            let solver = solver(kernel, n);
            group.bench_function(kernel.name(), |b| b.iter(|| count(&*solver, n)));
        }
        group.finish();
    }
}

/// The sizes and thread counts of the `threads` group.
const THREAD_SIZES: [(usize, &[usize]); 3] = [(14, &[1, 2]), (15, &[1, 2]), (16, &[1, 2])];
const LARGE_THREAD_SIZES: [(usize, &[usize]); 2] = [(17, &[1, 2]), (18, &[1, 2])];

/// `threads/<N>/<threads>`: `auto`'s count of N through its plan (a join
/// plan where `auto` counts with the join), as
/// `queens_simd::count_on_threads` counts, on 1 and 2 threads.
fn threads(c: &mut Criterion) {
    let large = std::env::var("QUEENS_SIMD_BENCH_LARGE").is_ok_and(|v| v == "1");
    let mut group = c.benchmark_group("threads");
    let sizes = THREAD_SIZES
        .into_iter()
        .chain(LARGE_THREAD_SIZES.into_iter().filter(|_| large));
    for (n, thread_counts) in sizes {
        if n >= 17 {
            // Up to a few seconds a solve: criterion's minimum of 10 samples.
            group.sample_size(10).warm_up_time(Duration::from_millis(1));
        }
        group.throughput(solutions(A000170[n]));
        let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n).expect("N <= 32");
        for &threads in thread_counts {
            let options = Options::new().with_threads(threads);
            group.bench_function(BenchmarkId::new(n.to_string(), threads), |b| {
                b.iter(|| {
                    let count = options.count(&plan, plan.all(), |_, _| {}).expect("counts");
                    assert_eq!(count, A000170[n], "N={n} on {threads} threads: wrong count");
                    black_box(count)
                })
            });
        }
    }
    group.finish();
}

/// The size of the dispatch comparison: small enough that a call's fixed
/// cost would show.
const DISPATCH_N: usize = 8;

/// `dispatch/8/<how>`: the same count (`auto`'s kernel for N = 8) through
/// `queens_simd::count`, which resolves `auto` and finds its solver on every
/// call, and through a solver held across calls (`dispatch::solver_for` once).
/// The first may cost at most 2% more than the second.
fn dispatch(c: &mut Criterion) {
    let n = DISPATCH_N;
    let mut group = c.benchmark_group(format!("dispatch/{n}"));
    group.throughput(solutions(A000170[n]));
    let held = queens_simd::dispatch::solver_for(Kernel::Auto, Task::Count, n)
        .expect("auto runs everywhere");
    group.bench_function("held", |b| {
        b.iter(|| {
            let count = black_box(&held).count().expect("counts");
            assert_eq!(count, A000170[n], "N={n}: wrong count");
            count
        })
    });
    group.bench_function("through-count", |b| {
        b.iter(|| {
            let count = queens_simd::count(black_box(n)).expect("counts");
            assert_eq!(count, A000170[n], "N={n}: wrong count");
            count
        })
    });
    group.finish();
}

fn config() -> Criterion {
    // Shorter than criterion's defaults (3 s + 5 s), so that the ~350
    // benchmarks take about half an hour; one second of warm-up is
    // thousands of solves even at N = 12.
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = simd, seeds, targets, lanes, threads, join, dispatch
}
criterion_main!(benches);
