//! `cargo bench --bench iai`: instructions per solve under callgrind, for
//! every kernel. Unlike time, these counts are the same on every run and on
//! a busy machine, so they show small changes that criterion's noise hides.
//!
//! Needs valgrind and `iai-callgrind-runner` of exactly the version of the
//! `iai-callgrind` dependency (see README, "Benchmarks").
//!
//! `join-avx512` and `join-avx512bw` are not here: valgrind runs no AVX-512
//! instruction (its emulated CPU reports none), so their instructions
//! cannot be counted.
//!
//! Each benchmark runs once, in its own process under valgrind; only the
//! benchmark function is counted. The solver is built (CPU feature checks
//! included) in the argument expression, outside the count, and leaked so
//! that no deallocation is counted either. Each solve checks its count
//! against OEIS and panics on a mismatch (`benches/common`).

use std::hint::black_box;

use iai_callgrind::{library_benchmark, library_benchmark_group, main};

use queens_simd::kernel::Task;
use queens_simd::{Count, Kernel, Solver};

mod common;

/// The kernel's solver (the dispatcher hands out `&'static` ones). Panics
/// with the reason if this CPU cannot run the kernel.
fn solver(kernel: Kernel, n: usize) -> &'static dyn Solver {
    common::solver(kernel, n)
}

#[library_benchmark]
#[bench::blocks_bmi(solver(Kernel::BlocksBmi, 8))]
#[bench::blocks(solver(Kernel::Blocks, 8))]
#[bench::lanes_avx2(solver(Kernel::LanesAvx2, 8))]
#[bench::symmetric_bmi(solver(Kernel::SymmetricBmi, 8))]
#[bench::symmetric(solver(Kernel::Symmetric, 8))]
#[bench::join_avx2(solver(Kernel::JoinAvx2, 8))]
#[bench::join(solver(Kernel::Join, 8))]
#[bench::portable(solver(Kernel::Portable, 8))]
#[bench::sse41(solver(Kernel::Sse41, 8))]
#[bench::avx(solver(Kernel::Avx, 8))]
#[bench::asm_sse41(solver(Kernel::AsmSse41, 8))]
#[bench::asm_avx(solver(Kernel::AsmAvx, 8))]
#[bench::bitboard64(solver(Kernel::Bitboard64, 8))]
#[bench::threat_masks(solver(Kernel::ThreatMasks, 8))]
#[bench::brute_force(solver(Kernel::BruteForce, 8))]
#[bench::heap(solver(Kernel::HeapPermutations, 8))]
fn count_8(solver: &'static dyn Solver) -> Count {
    common::count(solver, 8)
}

#[library_benchmark]
#[bench::blocks_bmi(solver(Kernel::BlocksBmi, 8))]
#[bench::symmetric_bmi(solver(Kernel::SymmetricBmi, 8))]
#[bench::symmetric(solver(Kernel::Symmetric, 8))]
#[bench::portable(solver(Kernel::Portable, 8))]
#[bench::sse41(solver(Kernel::Sse41, 8))]
#[bench::avx(solver(Kernel::Avx, 8))]
#[bench::asm_sse41(solver(Kernel::AsmSse41, 8))]
#[bench::asm_avx(solver(Kernel::AsmAvx, 8))]
fn enumerate_8(solver: &'static dyn Solver) -> Count {
    common::enumerate(solver, 8)
}

// N = 12, where the branch predictor cannot learn the search, is where the
// fast kernels' time follows their instructions and mispredictions.
#[library_benchmark]
#[bench::lanes_avx2(solver(Kernel::LanesAvx2, 12))]
#[bench::symmetric_bmi(solver(Kernel::SymmetricBmi, 12))]
#[bench::symmetric(solver(Kernel::Symmetric, 12))]
#[bench::join_avx2(solver(Kernel::JoinAvx2, 12))]
#[bench::join(solver(Kernel::Join, 12))]
#[bench::portable(solver(Kernel::Portable, 12))]
#[bench::sse41(solver(Kernel::Sse41, 12))]
#[bench::avx(solver(Kernel::Avx, 12))]
#[bench::asm_sse41(solver(Kernel::AsmSse41, 12))]
#[bench::asm_avx(solver(Kernel::AsmAvx, 12))]
fn count_12(solver: &'static dyn Solver) -> Count {
    common::count(solver, 12)
}

// `auto`'s count of N = 8 by a solver held across calls, beside
// `dispatch_through_count`: the two differ by what one call to
// `queens_simd::count` spends on finding its solver.
#[library_benchmark]
#[bench::held(held_solver(8))]
fn dispatch_held(solver: &'static dyn Solver) -> Count {
    common::count(solver, 8)
}

/// `auto`'s kernel held for `n` (uncounted setup), counted through its own
/// solver as `count_8` counts: the report finds the kernel by the two
/// counts' equal instructions.
fn held_solver(n: usize) -> &'static dyn Solver {
    queens_simd::dispatch::solver_for(Kernel::Auto, Task::Count, n)
        .expect("auto runs")
        .solver()
}

// The same count through `queens_simd::count`, `auto`'s choice for N = 8
// already made (in the setup, uncounted) as in any call but the first.
#[library_benchmark]
#[bench::through_count(warmed(8))]
fn dispatch_through_count(n: usize) -> Count {
    let count = queens_simd::count(black_box(n)).expect("auto counts");
    assert_eq!(count, common::A000170[n], "N={n}: wrong count");
    count
}

/// `n` after one count through `queens_simd::count`, which caches `auto`'s
/// choice and the CPU's features.
fn warmed(n: usize) -> usize {
    queens_simd::count(n).expect("auto counts");
    n
}

library_benchmark_group!(
    name = instructions;
    benchmarks = count_8, enumerate_8, count_12, dispatch_held, dispatch_through_count
);
main!(library_benchmark_groups = instructions);
