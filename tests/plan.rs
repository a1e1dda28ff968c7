//! The subproblem API and the parallel solver: plans cover every solution
//! exactly once, in any order, on any number of threads, in any shards.

mod common;

use std::collections::BTreeSet;

use common::A000170;
use proptest::prelude::*;
use queens_simd::plan::{Options, PartialBoard, Plan, Shard, SubproblemKind};
use queens_simd::{Count, Error, Kernel};

/// The kernels that count subproblems, among those this run covers.
fn counting_kernels() -> Vec<Kernel> {
    common::kernels_under_test()
        .into_iter()
        .filter(|k| matches!(k, Kernel::Symmetric | Kernel::SymmetricBmi))
        .collect()
}

fn max_n() -> usize {
    if cfg!(debug_assertions) { 12 } else { 16 }
}

#[test]
fn one_and_two_threads_give_the_published_counts() {
    for kernel in counting_kernels() {
        for (n, &expected) in A000170.iter().enumerate().take(max_n() + 1) {
            let plan = Plan::new(n).unwrap();
            for threads in [1, 2] {
                let options = Options::threads(threads).with_kernel(kernel);
                let count = plan.count(plan.all(), &options, |_, _| {}).unwrap();
                assert_eq!(count, expected, "N = {n}, {threads} threads, {kernel}");
            }
        }
    }
}

#[test]
fn more_threads_than_subproblems_or_cores_give_the_same_count() {
    for n in [4, 9, 12] {
        let plan = Plan::new(n).unwrap();
        let count = plan
            .count(plan.all(), &Options::threads(64), |_, _| {})
            .unwrap();
        assert_eq!(count, A000170[n], "N = {n}");
    }
}

#[test]
fn every_subproblem_is_reported_once_with_its_own_count() {
    for n in [1, 5, 8, 11, 12, 13] {
        let plan = Plan::new(n).unwrap();
        let mut reported = vec![None; plan.len()];
        let total = plan
            .count(plan.all(), &Options::threads(2), |index, count| {
                assert!(reported[index].replace(count).is_none(), "{index} twice");
            })
            .unwrap();
        let mut sum: Count = 0;
        for (sub, got) in plan.subproblems().iter().zip(&reported) {
            let alone = sub.count(Kernel::Auto).unwrap();
            assert_eq!(Some(alone), *got, "N = {n}, {sub}");
            sum += alone;
        }
        assert_eq!(sum, total);
        assert_eq!(total, A000170[n]);
    }
}

#[test]
fn plans_number_their_subproblems_and_order_them_all() {
    for n in 0..=20 {
        let plan = Plan::new(n).unwrap();
        assert!(!plan.is_empty());
        let mut order: Vec<usize> = plan.all().to_vec();
        order.sort_unstable();
        assert_eq!(order, (0..plan.len()).collect::<Vec<_>>(), "N = {n}");
        for (i, sub) in plan.subproblems().iter().enumerate() {
            assert_eq!(sub.index(), i);
            assert_eq!(sub.n(), n);
            // Pre-placed queens are on the board, one per row, and do not
            // attack each other.
            let queens = sub.queens();
            for (a, &(ra, ca)) in queens.iter().enumerate() {
                assert!(ra < n && ca < n, "{sub}");
                for &(rb, cb) in &queens[a + 1..] {
                    assert!(
                        ra != rb && ca != cb && ra.abs_diff(rb) != ca.abs_diff(cb),
                        "{sub}"
                    );
                }
            }
            if n < 4 {
                assert_eq!(sub.kind(), SubproblemKind::WholeBoard);
            } else {
                assert_ne!(sub.kind(), SubproblemKind::WholeBoard);
            }
        }
    }
    // The same N gives the same plan; another N another fingerprint.
    assert_eq!(
        Plan::new(14).unwrap().fingerprint(),
        Plan::new(14).unwrap().fingerprint()
    );
    assert_ne!(
        Plan::new(14).unwrap().fingerprint(),
        Plan::new(15).unwrap().fingerprint()
    );
}

#[test]
fn shards_cover_every_subproblem_once_and_add_up() {
    for n in [3, 8, 12, 14] {
        let plan = Plan::new(n).unwrap();
        for m in [1, 2, 3, 7, plan.len(), plan.len() + 3] {
            let mut seen = BTreeSet::new();
            let mut total: Count = 0;
            for i in 0..m {
                let shard = plan.shard(Shard::new(i, m).unwrap());
                for &index in &shard {
                    assert!(seen.insert(index), "N = {n}: {index} in two of {m} shards");
                }
                total += plan.count(&shard, &Options::threads(2), |_, _| {}).unwrap();
            }
            assert_eq!(seen.len(), plan.len(), "N = {n}, {m} shards");
            assert_eq!(total, A000170[n], "N = {n}, {m} shards");
        }
    }
}

#[test]
fn bad_requests_are_refused() {
    let plan = Plan::new(10).unwrap();
    let count = |indices: &[usize], options: &Options| plan.count(indices, options, |_, _| {});
    assert_eq!(
        count(plan.all(), &Options::threads(0)),
        Err(Error::InvalidThreads)
    );
    assert!(matches!(
        count(&[0, 0], &Options::threads(1)),
        Err(Error::InvalidShard(_))
    ));
    assert!(matches!(
        count(&[plan.len()], &Options::threads(1)),
        Err(Error::InvalidShard(_))
    ));
    for kernel in [Kernel::Portable, Kernel::Sse41, Kernel::Asm] {
        let options = Options::threads(2).with_kernel(kernel);
        assert!(
            matches!(
                count(plan.all(), &options),
                Err(Error::NotSplittable(_) | Error::KernelUnavailable { .. })
            ),
            "{kernel}"
        );
    }
    assert!(matches!(Plan::new(33), Err(Error::SizeOutOfRange { .. })));
    assert!(Shard::new(3, 3).is_err() && Shard::new(0, 0).is_err());
    // Nothing to count is a count of zero.
    assert_eq!(count(&[], &Options::threads(2)), Ok(0));
}

#[test]
fn partial_boards_count_the_solutions_that_hold_their_queens() {
    let n = 8;
    let solutions = Kernel::Portable.solutions(n).unwrap();
    let holding = |queens: &[(usize, usize)]| {
        solutions
            .iter()
            .filter(|b| {
                queens
                    .iter()
                    .all(|&(r, c)| usize::from(b.columns()[r]) == c)
            })
            .count() as Count
    };
    for row in 0..n {
        for column in 0..n {
            let board = PartialBoard::new(n)
                .unwrap()
                .with_queen(row, column)
                .unwrap();
            assert_eq!(
                board.count(Kernel::Auto),
                Ok(holding(&[(row, column)])),
                "({row}, {column})"
            );
        }
    }
    assert_eq!(
        PartialBoard::new(12).unwrap().count(Kernel::Symmetric),
        Ok(A000170[12])
    );
    assert_eq!(
        PartialBoard::new(1)
            .unwrap()
            .with_queen(0, 0)
            .unwrap()
            .count(Kernel::Auto),
        Ok(1)
    );
    let board = PartialBoard::new(5).unwrap().with_queen(1, 1).unwrap();
    assert!(
        board.clone().with_queen(1, 2).is_err(),
        "two queens in a row"
    );
    assert!(board.clone().with_queen(5, 0).is_err(), "off the board");
    // Queens that attack each other leave nothing.
    assert_eq!(board.with_queen(2, 2).unwrap().count(Kernel::Auto), Ok(0));
    assert!(
        PartialBoard::new(5)
            .unwrap()
            .count(Kernel::Portable)
            .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 24 } else { 128 }))]

    /// Any queens anywhere, against the solutions that hold them.
    #[test]
    fn partial_boards_agree_with_the_portable_kernel(
        n in 4usize..=10,
        squares in proptest::collection::vec((0usize..10, 0usize..10), 0..4),
    ) {
        let mut board = PartialBoard::new(n).unwrap();
        let mut rows = BTreeSet::new();
        for (row, column) in squares {
            let (row, column) = (row % n, column % n);
            if rows.insert(row) {
                board = board.with_queen(row, column).unwrap();
            }
        }
        let expected = Kernel::Portable
            .solutions(n)
            .unwrap()
            .iter()
            .filter(|b| board.queens().iter().all(|&(r, c)| usize::from(b.columns()[r]) == c))
            .count() as Count;
        for kernel in counting_kernels() {
            prop_assert_eq!(board.count(kernel), Ok(expected), "{}", board);
        }
    }
}

#[test]
fn count_on_threads_gives_the_published_counts() {
    for (n, &expected) in A000170.iter().enumerate().take(max_n().min(14) + 1) {
        for threads in [1, 2, 3] {
            assert_eq!(
                queens_simd::count_on_threads(n, threads),
                Ok(expected),
                "N = {n}, {threads} threads"
            );
        }
    }
    assert_eq!(
        queens_simd::count_on_threads(8, 0),
        Err(Error::InvalidThreads)
    );
    assert!(queens_simd::count_on_threads(33, 2).is_err());
}
