//! Uses queens-simd with default features off: counts, visits solutions
//! without an allocator, and holds a solver across calls; checks that the
//! join kernels come exactly with the library's `alloc` feature (this
//! crate's `alloc` and `std` turn on the library's). Exits non-zero (a
//! failed assertion) on any wrong answer.

use core::ops::ControlFlow;

use queens_simd::kernel::{Method, Role, Task};
use queens_simd::{Board, Kernel, dispatch};

/// OEIS A000170, N = 0..=12: the oracle for this crate's checks.
const A000170: [u128; 13] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

fn main() -> Result<(), queens_simd::Error> {
    // What this CPU runs, as the library (reading CPUID itself, without
    // `std`) sees it: `.ci/lean` compares this line on emulated CPUs.
    let fast: Vec<&str> = Kernel::ALL
        .iter()
        .filter(|k| k.role() == Role::Fast && k.is_available())
        .map(|k| k.name())
        .collect();
    println!("fast kernels available: {}", fast.join(" "));

    // Counting with auto's kernel, and with every kernel this CPU runs.
    for (n, &expected) in A000170.iter().enumerate() {
        assert_eq!(queens_simd::count(n)?, expected, "auto, N = {n}");
        for &kernel in Kernel::ALL {
            if kernel.is_available() && kernel.sizes().contains(&n) && n <= 10 {
                assert_eq!(dispatch::count(kernel, n)?, expected, "{kernel}, N = {n}");
            }
        }
    }

    // Visiting every solution, no allocator needed: count them, keep the
    // first, and check each one.
    let mut visited = 0u128;
    let mut first: Option<Board> = None;
    let flow = dispatch::for_each_solution(Kernel::Auto, 8, &mut |board| {
        assert!(board.is_solution());
        first.get_or_insert(*board);
        visited += 1;
        ControlFlow::Continue(())
    })?;
    assert_eq!(flow, ControlFlow::Continue(()));
    assert_eq!(visited, 92);
    println!(
        "first solution of N = 8 by auto's kernel:\n{}",
        first.unwrap()
    );

    // Holding the fastest counter for N = 10 and calling it in a loop.
    let solver = dispatch::solver_for(Kernel::Auto, Task::Count, 10)?;
    let total: u128 = (0..5).map(|_| solver.count()).sum::<Result<_, _>>()?;
    assert_eq!(total, 5 * 724);
    println!("held {} for N = 10: 5 counts of 724", solver.kernel());

    join_kernels_come_with_alloc()?;

    // Bad input is an error, not a panic.
    assert!(queens_simd::count(33).is_err());
    assert!(Kernel::from_name("no-such-kernel").is_none());
    println!("downstream: every check passed");
    Ok(())
}

/// The join kernels hold tables of half-boards, so they are built exactly
/// with the library's `alloc` feature (which its `std` turns on). Without
/// it they stay in `Kernel::ALL`, report themselves unavailable for that
/// reason, and `auto` counts N = 14 with another kernel.
fn join_kernels_come_with_alloc() -> Result<(), queens_simd::Error> {
    let alloc = cfg!(any(feature = "alloc", feature = "std"));
    let joins: Vec<Kernel> = Kernel::ALL
        .iter()
        .copied()
        .filter(|k| k.method() == Some(Method::Join))
        .collect();
    assert!(joins.contains(&Kernel::Join), "the join kernels are listed");
    let auto = dispatch::solver_for(Kernel::Auto, Task::Count, 14)?.kernel();
    if alloc {
        assert!(Kernel::Join.is_available(), "join is built with alloc");
        assert_eq!(dispatch::count(Kernel::Join, 10)?, 724);
        assert_eq!(auto.method(), Some(Method::Join), "auto at N = 14: {auto}");
    } else {
        for &kernel in &joins {
            assert!(!kernel.is_available(), "{kernel} is built without alloc");
            assert_eq!(
                kernel.unavailable_because(),
                Some("it needs the crate's alloc feature")
            );
            assert!(matches!(
                dispatch::count(kernel, 10),
                Err(queens_simd::Error::KernelUnavailable { .. })
            ));
        }
        assert_ne!(auto.method(), Some(Method::Join), "auto at N = 14: {auto}");
    }
    println!(
        "join kernels built: {}; auto counts N = 14 with {auto}",
        if alloc { "yes" } else { "no" }
    );
    Ok(())
}
