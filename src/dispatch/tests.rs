//! The dispatcher's tests: the policy against the table and the CPU, the
//! registry against the table, and plans counted through both.

use super::policy::*;
use super::registry::*;
use crate::Error;
use crate::kernel::pieces::PieceCounter;
use crate::kernel::{Method, Role, Task};
#[cfg(not(simd_kernels))]
use crate::vocabulary::kernel::absent_because;
use crate::vocabulary::kernel::{Build, Family};
use crate::{Kernel, MAX_N};

/// davidad's machine in intrinsics (the `Davidad` family's rows built
/// with `simd_kernels`), each needing one feature of the CPU.
fn davidad_intrinsics() -> impl Iterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|k| k.family() == Family::Davidad && k.build() == Build::Simd)
}

#[cfg(simd_kernels)]
#[test]
fn simd_kernels_exist_exactly_where_the_cpu_has_their_feature() {
    let mut checked = 0;
    for kernel in davidad_intrinsics() {
        // The standard library's answer, not the crate's own.
        let detected = match kernel.cpu_feature_names().collect::<Vec<_>>()[..] {
            ["sse4.1"] => std::arch::is_x86_feature_detected!("sse4.1"),
            ["avx"] => std::arch::is_x86_feature_detected!("avx"),
            ref other => panic!("{kernel}: no check for {other:?}"),
        };
        assert_eq!(build(kernel).is_some(), detected, "{kernel}");
        assert_eq!(kernel.is_available(), detected, "{kernel}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}

#[cfg(not(simd_kernels))]
#[test]
fn simd_kernels_are_absent_from_this_build() {
    for kernel in davidad_intrinsics() {
        assert!(!kernel.is_available());
        assert_eq!(
            kernel.unavailable_because(),
            absent_because(kernel),
            "{kernel}"
        );
        assert!(matches!(
            crate::dispatch::solver_for(kernel, crate::kernel::Task::Count, 8).err(),
            Some(Error::KernelUnavailable { kernel: k, .. }) if k == kernel
        ));
    }
    // The first of the symmetric family this build and CPU run.
    let symmetric_kernel = family(Family::Symmetric)
        .find(|k| k.is_available())
        .unwrap();
    for n in 0..=MAX_N {
        for task in Task::ALL {
            let symmetric_from = if task == Task::Fundamental {
                SYMMETRIC_FUNDAMENTAL_FROM
            } else {
                SYMMETRIC_FROM
            };
            let blocks = match task {
                Task::Count => BLOCKS_FROM..=crate::kernel::blocks::MAX_N,
                Task::Enumerate => BLOCKS_ENUMERATION_FROM..=crate::kernel::blocks::MAX_N,
                Task::Fundamental => 1..=0,
            };
            let expected = if task == Task::Count && n >= JOIN_FROM {
                // The portable join: the AVX2 matcher is not built.
                Kernel::Join
            } else if blocks.contains(&n) {
                // The blocks kernel without BMI: `blocks-bmi` is not built.
                Kernel::Blocks
            } else if n < symmetric_from {
                Kernel::Portable
            } else {
                symmetric_kernel
            };
            assert_eq!(auto_kernel(task, n), Ok(expected), "N = {n}, {task:?}");
        }
    }
}

#[test]
fn a_reason_is_given_exactly_for_unavailable_kernels() {
    for &kernel in Kernel::ALL.iter().chain(Kernel::ALIASES) {
        assert_eq!(
            kernel.unavailable_because().is_none(),
            kernel.is_available(),
            "{kernel}"
        );
        let fits = *kernel.sizes().start();
        assert_eq!(
            crate::dispatch::solver_for(kernel, crate::kernel::Task::Count, fits).is_ok(),
            kernel.is_available(),
            "{kernel}"
        );
    }
}

#[test]
fn every_solver_is_the_kernel_asked_for() {
    for &kernel in Kernel::ALL {
        if let Some(solver) = try_solver(kernel) {
            assert_eq!(solver.kernel(), kernel);
        }
    }
}

#[test]
fn auto_picks_the_first_preferred_kernel_that_runs_and_fits() {
    for task in Task::ALL {
        for n in 0..=MAX_N {
            let picked = auto_kernel(task, n).unwrap();
            assert_eq!(picked.role(), Role::Fast, "N = {n}, {task:?}");
            assert!(
                picked.is_available() && picked.sizes().contains(&n),
                "N = {n}, {task:?}"
            );
            // No kernel ahead of it in the preference list could have
            // served.
            for &ahead in auto_preference(task, n)
                .unwrap()
                .iter()
                .take_while(|&&k| k != picked)
            {
                assert!(
                    !ahead.is_available()
                        || !ahead.sizes().contains(&n)
                        || (task != Task::Count && !ahead.enumerates()),
                    "N = {n}, {task:?}: {ahead} could serve before {picked}"
                );
            }
            // The second call reads the cache and agrees.
            assert_eq!(auto_kernel(task, n), Ok(picked), "N = {n}, {task:?}");
            assert!(try_solver(picked).is_some());
        }
        for n in [MAX_N + 1, usize::MAX] {
            let refused = Error::from(Kernel::Auto.check_size(n).unwrap_err());
            assert_eq!(auto_kernel(task, n), Err(refused.clone()));
            assert_eq!(auto_preference(task, n), Err(refused));
        }
    }
}

#[test]
fn every_preference_lists_every_fast_kernel_once() {
    for (n, splits_512) in (0..=MAX_N).flat_map(|n| [(n, false), (n, true)]) {
        for task in Task::ALL {
            let mut listed = preference(task, n, splits_512).unwrap().to_vec();
            listed.sort();
            let mut fast: Vec<Kernel> = Kernel::ALL
                .iter()
                .copied()
                .filter(|k| k.role() == Role::Fast)
                .collect();
            fast.sort();
            assert_eq!(listed, fast, "N = {n}, {task:?}, {splits_512}");
        }
    }
}

/// Every kernel that its row of the kernel table says runs here
/// (`Kernel::is_available`: this build carries it and this CPU has its
/// features) is built, and no other: a kernel left out of `build` fails
/// here.
#[test]
fn every_kernel_the_table_says_runs_here_is_built() {
    for &kernel in Kernel::ALL {
        let runs = kernel.is_available();
        assert_eq!(build(kernel).is_some(), runs, "{kernel}");
    }
}

/// `build` makes a counter of pieces exactly for the kernels whose row
/// of the kernel table has a plan method, of that method; `counter`
/// hands it out for that method and refuses the other.
#[test]
fn the_kernels_that_split_count_their_own_plans() {
    for &kernel in Kernel::ALL {
        // Built exactly where it runs: the test above.
        let Some(built) = build(kernel) else {
            continue;
        };
        assert_eq!(built.solver.kernel(), kernel);
        assert_eq!(
            built.counter.map(PieceCounter::method),
            kernel.method(),
            "{kernel}"
        );
        for method in Method::ALL {
            let counter = counter(kernel, method);
            if kernel.method() == Some(method) {
                assert_eq!(counter.map(PieceCounter::kernel), Ok(kernel));
            } else {
                assert!(counter.is_err(), "{kernel}, {method}");
            }
        }
    }
    // `auto` counts a symmetric plan with the first kernel of its
    // large-N list that does: the one it counts the largest boards
    // below the join with, but on a CPU that splits 512-bit
    // instructions, where a whole board of N = 12 or 13 counts fastest
    // in 8 lanes and a plan's pieces, split further, in 16
    // (BENCHMARKS.md, "Ties in lanes"); and a join plan with the one it
    // counts large boards with.
    let large = preference(Task::Count, JOIN_FROM - 1, false).unwrap();
    assert_eq!(
        counter(Kernel::Auto, Method::Symmetric)
            .map(PieceCounter::kernel)
            .ok(),
        large.iter().copied().find(|k| k.is_available())
    );
    assert_eq!(
        counter(Kernel::Auto, Method::Join).map(PieceCounter::kernel),
        auto_kernel(Task::Count, MAX_N)
    );
}

/// A plan of either method counted on fewer threads than asked,
/// because the system refused the rest, or on the calling thread
/// alone, because it refused them all, counts the same and says on
/// how many threads it counted.
#[test]
fn plans_count_right_on_the_threads_the_system_starts() {
    use crate::dispatch::Options;
    use crate::plan::{Counted, Plan};
    for method in Method::ALL {
        let plan = Plan::with_method(method, 12).unwrap();
        for (allowed, threads, refused) in [(usize::MAX, 3, 0), (2, 2, 1), (0, 1, 3)] {
            let counted = crate::support::workers::refusing_after(allowed, || {
                Options::new()
                    .with_threads(3)
                    .count_reporting(&plan, plan.all(), |_, _| {})
            });
            let expected = Counted {
                count: 14_200,
                threads,
                refused,
            };
            assert_eq!(counted, Ok(expected), "{method:?}, {allowed} allowed");
        }
    }
}

/// On a CPU that splits 512-bit instructions, `lanes-avx2` leads
/// counting from N = `LANES_FROM` to `SPLIT_512_LANES_AVX2_UP_TO`, and
/// every other list is the one any CPU gets.
#[test]
fn a_split_512_cpu_counts_small_boards_in_8_lanes() {
    for task in Task::ALL {
        for n in 0..=MAX_N {
            let whole = preference(task, n, false).unwrap();
            let split = preference(task, n, true).unwrap();
            let moved =
                task == Task::Count && (LANES_FROM..=SPLIT_512_LANES_AVX2_UP_TO).contains(&n);
            if !moved {
                assert_eq!(whole, split, "N = {n}, {task:?}");
                continue;
            }
            // The lane kernels lead both, in the table's order but for
            // the one the rule moves ahead; the rest in the same order.
            let lanes: Vec<Kernel> = family(Family::Lanes).collect();
            assert_eq!(whole[..lanes.len()], lanes[..], "N = {n}");
            assert_eq!(split[0], SPLIT_512_LEADER, "N = {n}");
            let others = lanes.iter().filter(|&&k| k != SPLIT_512_LEADER);
            assert!(split[1..lanes.len()].iter().eq(others), "N = {n}");
            assert_eq!(split[lanes.len()..], whole[lanes.len()..], "N = {n}");
        }
    }
    assert_eq!(
        auto_preference(Task::Count, LANES_FROM).unwrap(),
        preference(
            Task::Count,
            LANES_FROM,
            crate::vocabulary::cpu::splits_512_bit_vectors()
        )
        .unwrap()
    );
}

/// `auto` enumerates N = `BLOCKS_ENUMERATION_FROM` to 8 with a blocks
/// kernel where one runs, and every other N with the list it had: the
/// same kernels, the blocks kernels moved to the front.
#[test]
fn boards_of_7_and_8_are_listed_by_the_blocks_kernels() {
    let blocks = BLOCKS_ENUMERATION_FROM..=crate::kernel::blocks::MAX_N;
    for n in 0..SYMMETRIC_FROM {
        let list = preference(Task::Enumerate, n, false).unwrap();
        let blocks_first = list.iter().copied().take(2).eq(family(Family::Blocks));
        assert_eq!(blocks_first, blocks.contains(&n), "N = {n}: {list:?}");
        let mut sorted = list.to_vec();
        let mut small = preference(Task::Enumerate, 0, false).unwrap().to_vec();
        sorted.sort_by_key(|k| k.name());
        small.sort_by_key(|k| k.name());
        assert_eq!(sorted, small, "N = {n}");
    }
    if Kernel::Blocks.is_available() {
        let picked = auto_kernel(Task::Enumerate, 8).unwrap();
        assert_eq!(picked.family(), Family::Blocks, "{picked}");
    }
}

/// The cache of `auto`'s choices has a slot per task, by its place in
/// `Task::ALL`, which is its discriminant.
#[test]
fn each_task_has_its_own_slot() {
    for (slot, &task) in Task::ALL.iter().enumerate() {
        assert_eq!(task as usize, slot, "{task:?}");
    }
    assert_eq!(AUTO_CHOICE.len(), Task::ALL.len());
}

#[test]
fn auto_counts_with_a_join_kernel_from_join_from() {
    for n in 0..=MAX_N {
        let picked = auto_kernel(Task::Count, n).unwrap();
        let join = picked.method() == Some(Method::Join);
        assert_eq!(join, n >= JOIN_FROM, "N = {n}: {picked}");
        for task in [Task::Enumerate, Task::Fundamental] {
            let picked = auto_kernel(task, n).unwrap();
            assert!(picked.enumerates(), "N = {n}, {task:?}: {picked}");
        }
    }
}

/// The kernels of `family`, in the table's order.
fn family(family: Family) -> impl Iterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(move |k| k.family() == family)
}
