//! The subproblem API and the parallel solver: plans cover every solution
//! exactly once, in any order, on any number of threads, in any shards.

mod common;

use std::collections::BTreeSet;

use common::A000170;
use proptest::prelude::*;
use queens_simd::dispatch::Options;
use queens_simd::kernel::Method;
use queens_simd::plan::{PartialBoard, Plan, Shard, SubproblemKind};
use queens_simd::{Count, Error, Kernel};

/// The kernels that count subproblems, among those this run covers.
fn counting_kernels() -> Vec<Kernel> {
    common::kernels_under_test()
        .into_iter()
        .filter(|k| matches!(k, Kernel::Symmetric | Kernel::SymmetricBmi))
        .collect()
}

/// The join kernels, which count join plans, among those this run covers.
fn join_kernels() -> Vec<Kernel> {
    common::kernels_under_test()
        .into_iter()
        .filter(|&k| Method::of(k) == Some(Method::Join))
        .collect()
}

/// Largest N of the symmetric plans' counts: N = 16 (seconds a kernel) with
/// the long tests (CI).
fn max_n() -> usize {
    match (cfg!(debug_assertions), common::long_tests()) {
        (true, _) => 12,
        (false, false) => 15,
        (false, true) => 16,
    }
}

/// Largest N of the join plans' counts in shards.
fn max_join_n() -> usize {
    if cfg!(debug_assertions) { 11 } else { 15 }
}

/// The kernels of the table that count no plan (its `method` column
/// empty), and the `asm` alias: each refuses a plan.
fn unsplittable() -> impl Iterator<Item = Kernel> {
    Kernel::ALL
        .iter()
        .copied()
        .filter(|kernel| kernel.method().is_none())
        .chain([Kernel::Asm])
}

#[test]
fn one_and_two_threads_give_the_published_counts() {
    for kernel in counting_kernels() {
        for (n, &expected) in A000170.iter().enumerate().take(max_n() + 1) {
            let plan = Plan::with_method(Method::Symmetric, n).unwrap();
            for threads in [1, 2] {
                let options = Options::new().with_threads(threads).with_kernel(kernel);
                let count = options.count(&plan, plan.all(), |_, _| {}).unwrap();
                assert_eq!(count, expected, "N = {n}, {threads} threads, {kernel}");
            }
        }
    }
}

#[test]
fn more_threads_than_subproblems_or_cores_give_the_same_count() {
    for n in [4, 9, 12] {
        let plan = Plan::with_method(Method::Symmetric, n).unwrap();
        let count = Options::new()
            .with_threads(64)
            .count(&plan, plan.all(), |_, _| {})
            .unwrap();
        assert_eq!(count, A000170[n], "N = {n}");
    }
}

#[test]
fn every_subproblem_is_reported_once_with_its_own_count() {
    for n in [1, 5, 8, 11, 12, 13] {
        let plan = Plan::with_method(Method::Symmetric, n).unwrap();
        let mut reported = vec![None; plan.len()];
        let total = Options::new()
            .with_threads(2)
            .count(&plan, plan.all(), |index, count| {
                assert!(reported[index].replace(count).is_none(), "{index} twice");
            })
            .unwrap();
        let mut sum: Count = 0;
        for (sub, got) in plan.subproblems().iter().zip(&reported) {
            let alone = queens_simd::dispatch::count_subproblem(Kernel::Auto, sub).unwrap();
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
        let plan = Plan::with_method(Method::Symmetric, n).unwrap();
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
        Plan::with_method(Method::Symmetric, 14)
            .unwrap()
            .fingerprint(),
        Plan::with_method(Method::Symmetric, 14)
            .unwrap()
            .fingerprint()
    );
    assert_ne!(
        Plan::with_method(Method::Symmetric, 14)
            .unwrap()
            .fingerprint(),
        Plan::with_method(Method::Symmetric, 15)
            .unwrap()
            .fingerprint()
    );
}

#[test]
fn shards_cover_every_subproblem_once_and_add_up() {
    for n in [3, 8, 12, 14] {
        let plan = Plan::with_method(Method::Symmetric, n).unwrap();
        for m in [1, 2, 3, 7, plan.len(), plan.len() + 3] {
            let mut seen = BTreeSet::new();
            let mut total: Count = 0;
            for i in 0..m {
                let shard = plan.shard(Shard::new(i, m).unwrap());
                for &index in &shard {
                    assert!(seen.insert(index), "N = {n}: {index} in two of {m} shards");
                }
                total += Options::new()
                    .with_threads(2)
                    .count(&plan, &shard, |_, _| {})
                    .unwrap();
            }
            assert_eq!(seen.len(), plan.len(), "N = {n}, {m} shards");
            assert_eq!(total, A000170[n], "N = {n}, {m} shards");
        }
    }
}

#[test]
fn bad_requests_are_refused() {
    let plan = Plan::with_method(Method::Symmetric, 10).unwrap();
    let count = |indices: &[usize], options: &Options| options.count(&plan, indices, |_, _| {});
    assert_eq!(
        count(plan.all(), &Options::new().with_threads(0)),
        Err(Error::InvalidThreads)
    );
    assert!(matches!(
        count(&[0, 0], &Options::new().with_threads(1)),
        Err(Error::RepeatedSubproblem { index: 0 })
    ));
    assert!(matches!(
        count(&[plan.len()], &Options::new().with_threads(1)),
        Err(Error::MissingSubproblem { index, .. }) if index == plan.len()
    ));
    for kernel in unsplittable() {
        let options = Options::new().with_threads(2).with_kernel(kernel);
        assert!(
            matches!(
                count(plan.all(), &options),
                Err(Error::NotSplittable(_) | Error::KernelUnavailable { .. })
            ),
            "{kernel}"
        );
    }
    assert!(matches!(
        Plan::with_method(Method::Symmetric, 33),
        Err(Error::SizeOutOfRange { .. })
    ));
    assert!(Shard::new(3, 3).is_err() && Shard::new(0, 0).is_err());
    // Nothing to count is a count of zero.
    assert_eq!(count(&[], &Options::new().with_threads(2)), Ok(0));
}

#[test]
fn partial_boards_count_the_solutions_that_hold_their_queens() {
    let n = 8;
    let solutions = queens_simd::dispatch::solutions(Kernel::Portable, n).unwrap();
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
                queens_simd::dispatch::count_partial_board(Kernel::Auto, &board),
                Ok(holding(&[(row, column)])),
                "({row}, {column})"
            );
        }
    }
    assert_eq!(
        queens_simd::dispatch::count_partial_board(
            Kernel::Symmetric,
            &PartialBoard::new(12).unwrap()
        ),
        Ok(A000170[12])
    );
    assert_eq!(
        queens_simd::dispatch::count_partial_board(
            Kernel::Auto,
            &PartialBoard::new(1).unwrap().with_queen(0, 0).unwrap()
        ),
        Ok(1)
    );
    let board = PartialBoard::new(5).unwrap().with_queen(1, 1).unwrap();
    assert!(
        board.clone().with_queen(1, 2).is_err(),
        "two queens in a row"
    );
    assert!(board.clone().with_queen(5, 0).is_err(), "off the board");
    // Queens that attack each other leave nothing.
    assert_eq!(
        queens_simd::dispatch::count_partial_board(Kernel::Auto, &board.with_queen(2, 2).unwrap()),
        Ok(0)
    );
    assert!(
        queens_simd::dispatch::count_partial_board(
            Kernel::Portable,
            &PartialBoard::new(5).unwrap()
        )
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
        let expected = queens_simd::dispatch::solutions(Kernel::Portable, n)
            .unwrap()
            .iter()
            .filter(|b| board.queens().iter().all(|&(r, c)| usize::from(b.columns()[r]) == c))
            .count() as Count;
        for kernel in counting_kernels() {
            prop_assert_eq!(queens_simd::dispatch::count_partial_board(kernel, &board), Ok(expected), "{}", board);
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

#[test]
fn join_plans_in_shards_give_the_published_counts() {
    for kernel in join_kernels() {
        for (n, &expected) in A000170.iter().enumerate().take(max_join_n() + 1) {
            let plan = Plan::with_method(Method::Join, n).unwrap();
            assert_eq!(plan.method(), Method::Join);
            for m in 1..=5 {
                let mut total: Count = 0;
                for i in 0..m {
                    let shard = plan.shard(Shard::new(i, m).unwrap());
                    let options = Options::new().with_threads(2).with_kernel(kernel);
                    total += options.count(&plan, &shard, |_, _| {}).unwrap();
                }
                assert_eq!(total, expected, "N = {n}, {m} shards, {kernel}");
            }
        }
    }
}

/// Each piece counted alone by the portable join (its own quarter-boards,
/// one thread) against the same piece counted in shards by each join kernel
/// on threads, and the total against the symmetric kernel's count: three
/// computations that share nothing but the plan.
#[test]
fn join_pieces_agree_with_the_portable_join_and_the_symmetric_kernel() {
    let max = if cfg!(debug_assertions) { 10 } else { 13 };
    for n in 0..=max {
        let plan = Plan::with_method(Method::Join, n).unwrap();
        let alone: Vec<Count> = plan
            .subproblems()
            .iter()
            .map(|sub| queens_simd::dispatch::count_subproblem(Kernel::Join, sub).unwrap())
            .collect();
        let symmetric = Plan::with_method(Method::Symmetric, n).unwrap();
        let by_symmetric = Options::new()
            .with_threads(2)
            .with_kernel(Kernel::Symmetric)
            .count(&symmetric, symmetric.all(), |_, _| {})
            .unwrap();
        assert_eq!(alone.iter().sum::<Count>(), by_symmetric, "N = {n}");
        for kernel in join_kernels() {
            for m in [1, 3] {
                for i in 0..m {
                    let shard = plan.shard(Shard::new(i, m).unwrap());
                    let options = Options::new().with_threads(2).with_kernel(kernel);
                    let mut reported = 0;
                    let total = options
                        .count(&plan, &shard, |index, count| {
                            reported += 1;
                            assert_eq!(count, alone[index], "N = {n}, {kernel}, piece {index}");
                        })
                        .unwrap();
                    let expected: Count = shard.iter().map(|&index| alone[index]).sum();
                    assert_eq!(total, expected, "N = {n}, {kernel}, shard {i}/{m}");
                    assert_eq!(reported, shard.len());
                }
            }
        }
    }
}

#[test]
fn join_plans_give_each_piece_the_same_count_on_any_number_of_threads() {
    let n = if cfg!(debug_assertions) { 11 } else { 15 };
    let plan = Plan::with_method(Method::Join, n).unwrap();
    for kernel in join_kernels().into_iter().chain([Kernel::Auto]) {
        let mut first: Option<Vec<Option<Count>>> = None;
        for threads in [1, 2, 3] {
            let mut counts = vec![None; plan.len()];
            let options = Options::new().with_threads(threads).with_kernel(kernel);
            let total = options
                .count(&plan, plan.all(), |index, count| {
                    assert!(counts[index].replace(count).is_none(), "{index} twice");
                })
                .unwrap();
            assert_eq!(total, A000170[n], "{kernel}, {threads} threads");
            assert!(counts.iter().all(Option::is_some));
            match &first {
                None => first = Some(counts),
                Some(one) => assert_eq!(&counts, one, "{kernel}, {threads} threads"),
            }
        }
    }
}

#[test]
fn join_plans_number_their_pieces_and_order_them_largest_first() {
    for (n, &solutions) in A000170.iter().enumerate().take(21) {
        let plan = Plan::with_method(Method::Join, n).unwrap();
        // Empty only where no board has a solution (its bands attack
        // every split: N = 3).
        assert!(!plan.is_empty() || solutions == 0, "N = {n}");
        let mut order: Vec<usize> = plan.all().to_vec();
        order.sort_unstable();
        assert_eq!(order, (0..plan.len()).collect::<Vec<_>>(), "N = {n}");
        let estimates: Vec<u64> = plan
            .all()
            .iter()
            .map(|&i| plan.get(i).unwrap().estimate())
            .collect();
        assert!(estimates.windows(2).all(|w| w[0] >= w[1]), "N = {n}");
        for (i, sub) in plan.subproblems().iter().enumerate() {
            assert_eq!((sub.index(), sub.n(), sub.method()), (i, n, Method::Join));
            let SubproblemKind::Join { band } = sub.kind() else {
                panic!("N = {n}: {sub}");
            };
            // Below N = 24 and 25: odd N, the middle column's queen, from
            // the top down to the centre; even N, no queen placed.
            let middle_row = band.queens().next().map(|(row, column)| {
                assert_eq!((band.len(), column), (1, n / 2), "{sub}");
                row
            });
            match middle_row {
                Some(row) => {
                    assert!(n % 2 == 1 && 2 * row < n, "N = {n}: {sub}");
                    assert_eq!(sub.queens(), [(row, n / 2)], "{sub}");
                    assert!(sub.to_string().contains(&format!("join middle row {row}")));
                }
                None => assert!(n % 2 == 0 && sub.queens().is_empty(), "N = {n}: {sub}"),
            }
            // The rows its choices decide, west or east, never both, never
            // the middle queen's, and named in its description.
            let (west, east) = sub.join_rows().unwrap();
            assert_eq!(west & east, 0, "{sub}");
            assert!(west | east < 1u32.checked_shl(n as u32).unwrap_or(u32::MAX));
            if let Some(row) = middle_row {
                assert_eq!((west | east) >> row & 1, 0, "{sub}");
            }
            let text = sub.to_string();
            assert!(text.starts_with(&format!("#{i} join")), "{text}");
            assert!(
                text.contains("west rows") && text.contains("east rows"),
                "{text}"
            );
            if west != 0 {
                let first = west.trailing_zeros();
                assert!(text.contains(&format!("west rows {first}")), "{text}");
            }
        }
    }
    // The symmetric subproblems say they have no join rows.
    assert!(
        Plan::with_method(Method::Symmetric, 12)
            .unwrap()
            .subproblems()[0]
            .join_rows()
            .is_none()
    );
    // Even N below 24: no band, and the kind says just that.
    assert_eq!(
        Plan::with_method(Method::Join, 14).unwrap().subproblems()[0]
            .kind()
            .to_string(),
        "join"
    );
}

#[test]
fn the_two_methods_fingerprint_differently_and_stably() {
    let mut seen = BTreeSet::new();
    for n in 0..=20 {
        let symmetric = Plan::with_method(Method::Symmetric, n).unwrap();
        let join = Plan::with_method(Method::Join, n).unwrap();
        assert_eq!(symmetric.method(), Method::Symmetric);
        assert_eq!(
            Plan::with_method(Method::Symmetric, n)
                .unwrap()
                .fingerprint(),
            symmetric.fingerprint(),
            "Plan::new is the symmetric plan"
        );
        assert_eq!(
            Plan::with_method(Method::Join, n).unwrap().fingerprint(),
            join.fingerprint(),
            "N = {n}: the same plan twice"
        );
        // Every plan of every N and method has a fingerprint of its own.
        assert!(seen.insert(symmetric.fingerprint()), "N = {n}");
        assert!(seen.insert(join.fingerprint()), "N = {n}");
    }
}

#[test]
fn each_kernel_counts_the_plan_of_its_method_only() {
    let join = Plan::with_method(Method::Join, 9).unwrap();
    let symmetric = Plan::with_method(Method::Symmetric, 9).unwrap();
    let count = |plan: &Plan, kernel| {
        Options::new()
            .with_threads(2)
            .with_kernel(kernel)
            .count(plan, plan.all(), |_, _| {})
    };
    for kernel in Method::Symmetric.kernels() {
        let refused = count(&join, kernel);
        assert!(
            matches!(refused, Err(Error::WrongMethod { kernel: k, method: Method::Join }) if k == kernel),
            "{kernel}: {refused:?}"
        );
        let line = refused.unwrap_err().to_string();
        assert!(line.contains("join plan") && !line.contains('\n'), "{line}");
        assert!(queens_simd::dispatch::count_subproblem(kernel, &join.subproblems()[0]).is_err());
    }
    for kernel in Method::Join.kernels() {
        assert!(
            matches!(
                count(&symmetric, kernel),
                Err(Error::WrongMethod {
                    method: Method::Symmetric,
                    ..
                })
            ),
            "{kernel}"
        );
        assert!(
            queens_simd::dispatch::count_subproblem(kernel, &symmetric.subproblems()[0]).is_err()
        );
        let on_join = count(&join, kernel);
        if kernel.is_available() {
            assert_eq!(on_join, Ok(A000170[9]), "{kernel}");
        } else {
            assert!(
                matches!(on_join, Err(Error::KernelUnavailable { .. })),
                "{kernel}"
            );
        }
    }
    for kernel in unsplittable() {
        for plan in [&join, &symmetric] {
            assert!(
                matches!(
                    count(plan, kernel),
                    Err(Error::NotSplittable(_) | Error::KernelUnavailable { .. })
                ),
                "{kernel}"
            );
        }
    }
    // `auto` counts each with the fastest kernel of its method.
    let options = Options::new().with_threads(1);
    assert_eq!(count(&join, Kernel::Auto), Ok(A000170[9]));
    assert_eq!(
        Method::of(options.counting_kernel(join.method()).unwrap()),
        Some(Method::Join)
    );
    assert_eq!(
        Method::of(options.counting_kernel(symmetric.method()).unwrap()),
        Some(Method::Symmetric)
    );
    assert!(matches!(
        Options::new()
            .with_threads(0)
            .count(&join, join.all(), |_, _| {}),
        Err(Error::InvalidThreads)
    ));
    assert!(matches!(
        options.count(&join, &[0, 0], |_, _| {}),
        Err(Error::RepeatedSubproblem { index: 0 })
    ));
    assert_eq!(options.count(&join, &[], |_, _| {}), Ok(0));
}

#[test]
fn each_kernel_has_the_plan_it_counts() {
    use queens_simd::dispatch::auto_preference;
    use queens_simd::kernel::Task;
    let mut join_from = None;
    for n in 0..=queens_simd::MAX_N {
        // (The method alone: building every plan to N = 32 takes long in a
        // debug build.)
        let auto = queens_simd::dispatch::plan_method(Kernel::Auto, n).unwrap();
        let auto_counts_with =
            queens_simd::dispatch::resolve_for(Kernel::Auto, queens_simd::kernel::Task::Count, n);
        assert_eq!(
            auto == Method::Join,
            Method::of(auto_counts_with) == Some(Method::Join),
            "N = {n}"
        );
        // The join plan where the policy's list puts a join kernel first
        // (the portable `join` runs everywhere), from one N up.
        let join_leads = Method::of(auto_preference(Task::Count, n).unwrap()[0]);
        assert_eq!(
            auto == Method::Join,
            join_leads == Some(Method::Join),
            "N = {n}"
        );
        if auto == Method::Join {
            join_from.get_or_insert(n);
        }
        assert_eq!(auto == Method::Join, join_from.is_some(), "N = {n}");
    }
    let join_from = join_from.expect("auto counts the largest boards with a join kernel");
    for n in [join_from - 1, join_from] {
        assert_eq!(
            queens_simd::dispatch::plan_for(Kernel::Auto, n)
                .unwrap()
                .method(),
            queens_simd::dispatch::plan_method(Kernel::Auto, n).unwrap()
        );
    }
    // Every kernel of the table: the join kernels count join plans, the
    // symmetric and lane kernels symmetric ones, the rest none.
    for &kernel in Kernel::ALL {
        let n = 9.min(*kernel.sizes().end());
        let method = match kernel.name() {
            name if name.starts_with("join") => Some(Method::Join),
            name if name.starts_with("symmetric") || name.starts_with("lanes") => {
                Some(Method::Symmetric)
            }
            _ => None,
        };
        assert_eq!(kernel.method(), method, "{kernel}");
        let Some(method) = method else {
            assert_eq!(
                queens_simd::dispatch::plan_for(kernel, n).map(|p| p.method()),
                Err(Error::NotSplittable(kernel))
            );
            continue;
        };
        assert_eq!(
            queens_simd::dispatch::plan_method(kernel, n),
            Ok(method),
            "{kernel}"
        );
        assert_eq!(
            queens_simd::dispatch::plan_for(kernel, n).unwrap().method(),
            method
        );
    }
    assert_eq!(
        queens_simd::dispatch::plan_for(Kernel::Portable, 9).map(|p| p.method()),
        Err(Error::NotSplittable(Kernel::Portable))
    );
    assert!(matches!(
        queens_simd::dispatch::plan_for(Kernel::Join, 33),
        Err(Error::SizeOutOfRange { .. })
    ));
    assert!(matches!(
        Plan::with_method(Method::Join, 33),
        Err(Error::SizeOutOfRange { .. })
    ));
    for method in Method::ALL {
        assert_eq!(method.to_string().parse::<Method>(), Ok(method));
    }
    assert!("joins".parse::<Method>().is_err());
}

#[test]
fn memory_estimates_are_small_for_symmetric_plans_and_grow_for_join_plans() {
    for n in 4..=20 {
        let join = Plan::with_method(Method::Join, n).unwrap();
        let symmetric = Plan::with_method(Method::Symmetric, n).unwrap();
        let (one, two) = (join.memory_estimate(1), join.memory_estimate(2));
        assert!(two > one, "N = {n}");
        assert!(symmetric.memory_estimate(2) < 1 << 20, "N = {n}");
    }
    // N = 18 on two threads, as measured: 70 MB peak for the whole process.
    let eighteen = Plan::with_method(Method::Join, 18)
        .unwrap()
        .memory_estimate(2);
    assert!((64 << 20..256 << 20).contains(&eighteen), "{eighteen}");
    assert!(
        Plan::with_method(Method::Symmetric, 32)
            .unwrap()
            .memory_estimate(2)
            < 1 << 20
    );
}

/// A join plan's shards are runs: each holds pieces of few groups of
/// first choices (so few quarter-boards are built by two shards), and
/// together they hold every piece once.
#[test]
fn join_shards_are_runs_of_pieces_that_share_their_first_choices() {
    let plan = Plan::with_method(Method::Join, 16).unwrap();
    let m = 8;
    let mut seen = vec![0; plan.len()];
    let mut groups_per_shard = Vec::new();
    for i in 0..m {
        let mine = plan.shard(Shard::new(i, m).unwrap());
        let mut groups: Vec<(u32, u32)> = Vec::new();
        for &index in &mine {
            seen[index] += 1;
            let (west, east) = plan.get(index).unwrap().join_rows().unwrap();
            // The first four choices: rows 0, 15, 1 and 14.
            let outer = 0b1100_0000_0000_0011;
            groups.push((west & outer, east & outer));
        }
        groups.sort_unstable();
        groups.dedup();
        groups_per_shard.push(groups.len());
    }
    assert!(seen.iter().all(|&times| times == 1));
    // 16 groups of four choices, cut into 8 runs: about two each, and a
    // few that a run shares with the next.
    let total: usize = groups_per_shard.iter().sum();
    assert!(total <= 16 + m, "{groups_per_shard:?}");
}

/// A sample projects the count it samples: within four standard errors of
/// A000170 (a fixed seed, so the test is the same every run), with a
/// standard error of a few percent, whatever the threads.
#[test]
fn a_sample_of_row_sets_projects_the_published_count() {
    let cases = join_kernels().into_iter().flat_map(|kernel| {
        [
            (kernel, 12, 1),
            (kernel, 13, 2),
            (kernel, max_join_n() + 1, 2),
        ]
    });
    for (kernel, n, threads) in cases {
        let plan = Plan::with_method(Method::Join, n).unwrap();
        let draws = std::num::NonZeroUsize::new(3000).unwrap();
        let options = Options::new().with_threads(threads).with_kernel(kernel);
        let sample = options.sample(&plan, draws, 12345).unwrap();
        assert_eq!(sample.observations().len(), 3000);
        let count = sample.count();
        let truth = A000170[n] as f64;
        assert!(
            (count.value - truth).abs() <= 4.0 * count.standard_error,
            "{kernel}, N = {n}: projected {count:?}, published {truth}"
        );
        assert!(count.relative_error() < 0.05, "N = {n}: {count:?}");
        let (join, tables) = (sample.join_seconds(), sample.table_seconds());
        assert!(join.value > 0.0 && tables.value > 0.0);
        assert!((sample.seconds().value - join.value - tables.value).abs() < 1e-9 * join.value);
        // The same seed draws the same row sets.
        let again = options.sample(&plan, draws, 12345).unwrap();
        let counts = |s: &queens_simd::plan::Sample| -> Vec<(u64, f64)> {
            s.observations()
                .iter()
                .map(|o| (o.count as u64, o.weight))
                .collect()
        };
        assert_eq!(counts(&sample), counts(&again));
    }
    // Only a join is sampled.
    let symmetric = Plan::with_method(Method::Symmetric, 12).unwrap();
    let one = std::num::NonZeroUsize::new(1).unwrap();
    assert!(matches!(
        Options::new().with_threads(1).sample(&symmetric, one, 1),
        Err(Error::WrongMethod { .. })
    ));
    assert_eq!(
        Options::new()
            .with_threads(0)
            .sample(&Plan::with_method(Method::Join, 12).unwrap(), one, 1)
            .unwrap_err(),
        Error::InvalidThreads
    );
}

/// From N = 24 (even) and 25 (odd) the join's cut places the queens of two
/// or three middle columns first: every piece names its band, the band's
/// queens attack no other, and the piece's rows are never theirs.
#[test]
fn wide_bands_name_their_queens() {
    for (n, width) in [(24usize, 2usize), (25, 3)] {
        let plan = Plan::with_method(Method::Join, n).unwrap();
        let mut bands = std::collections::BTreeSet::new();
        for sub in plan.subproblems() {
            let SubproblemKind::Join { band } = sub.kind() else {
                panic!("N = {n}: {sub}");
            };
            let queens: Vec<(usize, usize)> = band.queens().collect();
            assert_eq!(queens.len(), width, "{sub}");
            let first = (n - width) / 2;
            for (i, &(row, column)) in queens.iter().enumerate() {
                assert_eq!(column, first + i, "{sub}");
                for &(other_row, other_column) in &queens[..i] {
                    assert_ne!(row, other_row, "{sub}");
                    assert_ne!(row.abs_diff(other_row), column - other_column, "{sub}");
                }
            }
            let (west, east) = sub.join_rows().unwrap();
            assert!(queens.iter().all(|&(row, _)| (west | east) >> row & 1 == 0));
            let mut sorted = queens.clone();
            sorted.sort_unstable();
            assert_eq!(sub.queens(), sorted, "{sub}");
            let text = sub.to_string();
            let (row, column) = queens[0];
            assert!(
                text.contains(&format!("join band ({row}, {column})")),
                "{text}"
            );
            bands.insert(queens);
        }
        // Many splits, each the smallest of its class: no placement with
        // its mirror image also there.
        assert!(bands.len() > 100, "N = {n}: {} bands", bands.len());
        for queens in &bands {
            let mirrored: Vec<(usize, usize)> = queens
                .iter()
                .rev()
                .map(|&(row, column)| (row, n - 1 - column))
                .collect();
            assert!(
                !bands.contains(&mirrored),
                "N = {n}: {queens:?} and its mirror"
            );
        }
    }
}

/// `n` with a comma between each three digits, as the docs write numbers.
fn with_commas(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A file's text with its lines joined by single spaces and any `//!`
/// or `///` taken off, so that a sentence reads the same across lines.
fn prose(path: &str) -> String {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.lines()
        .map(|line| {
            line.trim()
                .trim_start_matches("//!")
                .trim_start_matches("///")
                .trim()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The plan sizes that docs/plan.md and the plan module's docs quote are
/// the plans' own: a change of the pieces that leaves the docs behind
/// fails here (they once quoted 131,483 pieces at N = 32 where the plan
/// had 59,640).
#[test]
fn the_plan_sizes_the_docs_quote_are_the_plans() {
    let size = |n, method| with_commas(Plan::with_method(method, n).unwrap().len());
    let (join, symmetric) = (Method::Join, Method::Symmetric);
    let join_sizes = format!(
        "{} at N = 18, {} at N = 21, {} at N = 32",
        size(18, join),
        size(21, join),
        size(32, join)
    );
    let symmetric_sizes = format!(
        "{} subproblems at N = 12, {} at N = 18, {} at N = 32",
        size(12, symmetric),
        size(18, symmetric),
        size(32, symmetric)
    );
    let (most, largest) = (1..=queens_simd::MAX_N)
        .filter_map(|n| Some((Plan::with_method(join, n).ok()?.len(), n)))
        .max()
        .unwrap();
    let largest = format!(
        "{} pieces of the join plan of N = {largest}, the largest",
        with_commas(most)
    );
    let guide = prose("docs/plan.md");
    let module = prose("src/plan/mod.rs");
    for (text, quoted) in [
        (
            &guide,
            format!("{} pieces at N = 14, {join_sizes}", size(14, join)),
        ),
        (&guide, symmetric_sizes.clone()),
        (&guide, largest),
        (
            &guide,
            format!("symmetric plan's {} subproblems", size(16, symmetric)),
        ),
        (
            &module,
            format!("{} pieces at N = 12, {join_sizes}", size(12, join)),
        ),
        (&module, symmetric_sizes),
    ] {
        assert!(text.contains(&quoted), "the docs should say: {quoted}");
    }
}
