//! What both benches share: the oracle, building a kernel's solver, and one
//! checked solve per mode. A solve panics on a wrong count, so a fast wrong
//! answer fails the bench.
#![allow(dead_code)]

use std::hint::black_box;
use std::ops::ControlFlow;

use queens_simd::kernel::Role;
use queens_simd::{Count, Kernel, Solver};

#[path = "../../tests/common/oracle.rs"]
mod oracle;
// Each bench uses the part it needs.
#[allow(unused_imports)]
pub use oracle::{A000170, A002562};

/// Every fast kernel this CPU runs, in `Kernel::ALL` order.
pub fn fast_kernels() -> impl Iterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|k| k.role() == Role::Fast && k.is_available())
}

/// The kernel's solver for `n`; panics with the reason if this CPU cannot
/// run it.
pub fn solver(kernel: Kernel, n: usize) -> &'static dyn Solver {
    queens_simd::dispatch::solver_for(kernel, queens_simd::kernel::Task::Count, n)
        .unwrap_or_else(|e| panic!("cannot benchmark {kernel} at N={n}: {e}"))
        .solver()
}

/// One counting solve, checked against OEIS A000170.
pub fn count(solver: &dyn Solver, n: usize) -> Count {
    let count = solver.count(black_box(n)).expect("size checked");
    assert_eq!(count, A000170[n], "{} N={n}: wrong count", solver.kernel());
    count
}

/// One enumerating solve: every solution is handed to the visitor (and to
/// `black_box`, so it must be produced); the number visited is checked
/// against OEIS A000170.
pub fn enumerate(solver: &dyn Solver, n: usize) -> Count {
    let mut visited: Count = 0;
    let _ = solver.for_each_solution(black_box(n), &mut |board| {
        black_box(board);
        visited += 1;
        ControlFlow::Continue(())
    });
    assert_eq!(
        visited,
        A000170[n],
        "{} N={n}: wrong count",
        solver.kernel()
    );
    visited
}
