//! The seed articles' reference solvers against the portable oracle: same
//! solution sets, same counts, same fundamental classes, and sizes beyond
//! their range refused.

use queens_simd::kernel::{Role, Task};
use queens_simd::reference::threat_masks;
use queens_simd::{Board, Count, Error, Kernel, fundamental, symmetry};

/// Every kernel with `Role::Reference`.
fn reference_kernels() -> Vec<Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|k| matches!(k.role(), Role::Reference { .. }))
        .collect()
}

fn sorted_solutions(kernel: Kernel, n: usize) -> Vec<Board> {
    let mut all = queens_simd::dispatch::solutions(kernel, n).unwrap();
    all.sort_unstable();
    all
}

#[test]
fn the_four_seeds_are_registered() {
    let kernels = reference_kernels();
    assert_eq!(
        kernels,
        [
            Kernel::Bitboard64,
            Kernel::ThreatMasks,
            Kernel::BruteForce,
            Kernel::HeapPermutations
        ]
    );
    let seeds: Vec<Role> = kernels.iter().map(|k| k.role()).collect();
    assert_eq!(
        seeds,
        [0, 1, 3, 4].map(|seed| Role::Reference { seed }),
        "seed numbers"
    );
    for kernel in kernels {
        assert!(kernel.is_available(), "{kernel}");
        assert_eq!(kernel.name().parse::<Kernel>().unwrap(), kernel);
        for n in kernel.sizes() {
            for task in Task::ALL {
                assert_ne!(
                    queens_simd::dispatch::resolve_for(Kernel::Auto, task, n),
                    kernel,
                    "auto never picks {kernel}"
                );
            }
        }
    }
}

#[test]
fn same_solutions_as_portable() {
    for kernel in reference_kernels() {
        for n in kernel.sizes() {
            let expected = sorted_solutions(Kernel::Portable, n);
            let got = sorted_solutions(kernel, n);
            assert_eq!(got, expected, "{kernel}, n = {n}");
            assert_eq!(
                queens_simd::dispatch::count(kernel, n).unwrap(),
                expected.len() as Count,
                "{kernel} count, n = {n}"
            );
        }
    }
}

#[test]
fn seed_001_classes_match_fundamental_solutions() {
    for n in 0..=8 {
        let mut classes: Vec<Board> = threat_masks::fundamental(n)
            .unwrap()
            .iter()
            .map(symmetry::canonical)
            .collect();
        classes.sort_unstable();
        let expected = fundamental::solutions(Kernel::Portable, n).unwrap();
        assert_eq!(classes, expected, "n = {n}");
    }
    assert_eq!(threat_masks::fundamental(8).unwrap().len(), 12);
}

#[test]
fn sizes_above_the_maximum_are_refused() {
    for kernel in reference_kernels() {
        let max = *kernel.sizes().end();
        for n in [max + 1, max + 7, 1000] {
            let refused = Error::SizeOutOfRange {
                n,
                kernel,
                min: 0,
                max,
            };
            assert_eq!(
                queens_simd::dispatch::count(kernel, n),
                Err(refused.clone()),
                "{kernel}"
            );
            assert_eq!(
                queens_simd::dispatch::solutions(kernel, n),
                Err(refused.clone()),
                "{kernel}"
            );
            let solver =
                queens_simd::dispatch::solver_for(kernel, queens_simd::kernel::Task::Count, max)
                    .unwrap()
                    .solver();
            assert_eq!(solver.count(n), Err(refused.clone()), "{kernel} solver");
            assert!(
                solver
                    .for_each_solution(n, &mut |_| core::ops::ControlFlow::Continue(()))
                    .is_err(),
                "{kernel} solver"
            );
        }
    }
    assert!(matches!(
        threat_masks::fundamental(9),
        Err(Error::SizeOutOfRange { n: 9, max: 8, .. })
    ));
}
