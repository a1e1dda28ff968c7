//! Every public function refuses input outside its domain with an `Err`,
//! never a panic (debug builds) or garbage (release builds): each is called
//! just past its limit and with huge values, and at the edge of its domain,
//! which it serves.

use core::ops::ControlFlow;
use std::time::{Duration, Instant};

use queens_simd::dispatch::Options;
use queens_simd::kernel::portable::Solutions;
use queens_simd::kernel::symmetric::for_each_class;
use queens_simd::kernel::{Method, Role, Task};
use queens_simd::plan::{PartialBoard, Plan, Shard};
use queens_simd::reference::{bitboard64, brute_force, threat_masks};
use queens_simd::symmetry::Symmetry;
use queens_simd::verify::{self, MAX_VERIFY_N};
use queens_simd::{Board, Error, Kernel, MAX_N, dispatch, fundamental};

/// Sizes past every kernel's range: the first, the first a `u32` shift
/// cannot take, and the largest.
const TOO_LARGE: [usize; 4] = [MAX_N + 1, 64, 1000, usize::MAX];

/// Whether `result` is the refusal of size `n` by `kernel`.
fn refuses_size<T>(result: Result<T, Error>, kernel: Kernel, n: usize) -> bool {
    matches!(result, Err(Error::SizeOutOfRange { n: got, kernel: k, .. }) if got == n && k == kernel)
}

fn never_called(_: &Board) -> ControlFlow<()> {
    unreachable!("no board of a refused size")
}

#[test]
fn bitboard64_ok_takes_squares_0_to_63() {
    for square in [64, 65, 1 << 32, usize::MAX] {
        assert_eq!(
            bitboard64::ok(0, square),
            Err(Error::BitboardSquareOutOfRange { square })
        );
    }
    // (7, 7): free on an empty board, on the diagonal of a queen on (0, 0).
    assert_eq!(bitboard64::ok(0, 63), Ok(true));
    assert_eq!(bitboard64::ok(1, 63), Ok(false));
}

#[test]
fn brute_force_queen_mask_takes_rows_and_columns_0_to_7() {
    for (row, column) in [(8, 0), (0, 8), (8, 8), (u32::MAX, 0), (0, u32::MAX)] {
        assert_eq!(
            brute_force::queen_mask(row, column),
            Err(Error::SquareOffBoard {
                row: row as usize,
                column: column as usize,
                n: 8
            })
        );
    }
    // Still a `const fn`.
    const CORNER: Result<u64, Error> = brute_force::queen_mask(7, 7);
    let row_7 = 0xff << 56;
    let column_7 = 0x8080_8080_8080_8080;
    let diagonal = 0x8040_2010_0804_0201;
    assert_eq!(CORNER, Ok(row_7 | column_7 | diagonal));
}

#[test]
fn threat_masks_is_threatened_takes_squares_0_to_63() {
    for (a, b, square) in [
        (64, 0, 64),
        (0, 64, 64),
        (usize::MAX, 0, usize::MAX),
        (0, usize::MAX, usize::MAX),
        (64, usize::MAX, 64),
    ] {
        assert_eq!(
            threat_masks::is_threatened(a, b),
            Err(Error::BitboardSquareOutOfRange { square }),
            "({a}, {b})"
        );
    }
    // (7, 7) against (0, 0) and (0, 1).
    assert_eq!(threat_masks::is_threatened(63, 0), Ok(true));
    assert_eq!(threat_masks::is_threatened(63, 1), Ok(false));
}

#[test]
fn threat_masks_canonical_takes_queens_on_the_board() {
    // A move mask marks queens with 0: 0 is a queen on every square.
    assert_eq!(
        threat_masks::canonical(0, 0),
        Err(Error::SquareOffBoard {
            row: 0,
            column: 0,
            n: 0
        })
    );
    for n in [9, 64, usize::MAX] {
        assert_eq!(
            threat_masks::canonical(n, threat_masks::EMPTY_MASK),
            Err(Error::BitboardTooSmall { n })
        );
    }
    for (row, column) in [(4, 0), (0, 4), (7, 7)] {
        let mmask = !(1u64 << (row * 8 + column));
        assert_eq!(
            threat_masks::canonical(4, mmask),
            Err(Error::SquareOffBoard { row, column, n: 4 })
        );
    }
    assert_eq!(
        threat_masks::canonical(0, threat_masks::EMPTY_MASK),
        Ok(threat_masks::EMPTY_MASK)
    );
    // Seed 000's example solution: its canonical form is its own.
    let mmask = !Board::from_columns(&[0, 4, 7, 5, 2, 6, 1, 3])
        .unwrap()
        .to_bitboard()
        .unwrap();
    let canonical = threat_masks::canonical(8, mmask).unwrap();
    assert!(canonical <= mmask);
    assert_eq!(threat_masks::canonical(8, canonical), Ok(canonical));
}

#[test]
fn threat_masks_fundamental_takes_0_to_8() {
    for n in [9, 64, usize::MAX] {
        assert!(refuses_size(
            threat_masks::fundamental(n),
            Kernel::ThreatMasks,
            n
        ));
    }
    assert_eq!(threat_masks::fundamental(8).map(|c| c.len()), Ok(12));
}

#[test]
fn map_square_takes_squares_of_the_board() {
    for symmetry in Symmetry::ALL {
        for (n, row, column) in [
            (8, 8, 0),
            (8, 0, 8),
            (0, 0, 0),
            (8, usize::MAX, 0),
            (usize::MAX, usize::MAX, 0),
        ] {
            assert_eq!(
                symmetry.map_square(n, row, column),
                Err(Error::SquareOffBoard { row, column, n }),
                "{symmetry:?}"
            );
        }
        // Any side: the last square of the largest board.
        let last = usize::MAX - 1;
        let (row, column) = symmetry.map_square(usize::MAX, last, last).unwrap();
        assert!([0, last].contains(&row) && [0, last].contains(&column));
        assert!(symmetry.map_square(8, 7, 7).is_ok());
    }
}

#[test]
fn verify_refuses_sizes_past_its_limit_at_once() {
    let started = Instant::now();
    for n in [MAX_VERIFY_N + 1, 64, usize::MAX] {
        let refused = Error::VerifyTooLarge {
            max_n: n,
            limit: MAX_VERIFY_N,
        };
        assert_eq!(verify::check(n).err(), Some(refused.clone()));
        assert_eq!(verify::run(n, |_| unreachable!()), Err(refused));
    }
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(verify::check(0).unwrap().agrees());
}

#[test]
fn kernels_refuse_sizes_past_their_range() {
    let kernels = Kernel::ALIASES.iter().chain(Kernel::ALL).copied();
    for kernel in kernels {
        let max = *kernel.sizes().end();
        for n in [max + 1].into_iter().chain(TOO_LARGE) {
            assert!(
                refuses_size(kernel.check_size(n).map_err(Error::from), kernel, n),
                "{kernel}"
            );
            // Every entry point, whether or not the kernel runs here: the
            // size is checked first, and in the name the caller used.
            assert!(
                refuses_size(
                    queens_simd::dispatch::solver_for(kernel, queens_simd::kernel::Task::Count, n),
                    kernel,
                    n
                ),
                "{kernel}"
            );
            for task in Task::ALL {
                let solver = queens_simd::dispatch::solver_for(kernel, task, n);
                assert!(refuses_size(solver, kernel, n), "{kernel} {task:?}");
            }
            assert!(
                refuses_size(queens_simd::dispatch::count(kernel, n), kernel, n),
                "{kernel}"
            );
            assert!(
                refuses_size(queens_simd::dispatch::solutions(kernel, n), kernel, n),
                "{kernel}"
            );
            let visited = queens_simd::dispatch::for_each_solution(kernel, n, &mut never_called);
            assert!(refuses_size(visited, kernel, n), "{kernel}");
            let visited = queens_simd::dispatch::for_each_solution_in_first_row(
                kernel,
                n,
                1,
                &mut never_called,
            );
            assert!(refuses_size(visited, kernel, n), "{kernel}");
            let visited = fundamental::for_each(kernel, n, &mut never_called);
            assert!(refuses_size(visited, kernel, n), "{kernel}");
            assert!(refuses_size(fundamental::count(kernel, n), kernel, n));
            assert!(refuses_size(fundamental::solutions(kernel, n), kernel, n));
        }
        assert_eq!(kernel.check_size(max), Ok(()), "{kernel}");
    }
}

#[test]
fn every_solver_method_refuses_sizes_past_its_range() {
    for &kernel in Kernel::ALL.iter().filter(|k| k.is_available()) {
        let max = *kernel.sizes().end();
        // The kernel's own solver, which takes any N (a held one keeps its own).
        let solver =
            queens_simd::dispatch::solver_for(kernel, queens_simd::kernel::Task::Count, max)
                .unwrap()
                .solver();
        for n in [max + 1].into_iter().chain(TOO_LARGE) {
            assert!(refuses_size(solver.count(n), kernel, n), "{kernel}");
            assert!(refuses_size(solver.solutions(n), kernel, n), "{kernel}");
            let visited = solver.for_each_solution(n, &mut never_called);
            assert!(refuses_size(visited, kernel, n), "{kernel}");
            for first_row in [0, u32::MAX] {
                let visited =
                    solver.for_each_solution_in_first_row(n, first_row, &mut never_called);
                assert!(refuses_size(visited, kernel, n), "{kernel}");
            }
            let visited = solver.for_each_fundamental(n, &mut never_called);
            assert!(refuses_size(visited, kernel, n), "{kernel}, N = {n}");
            let classes = solver.count_fundamental(n);
            assert!(refuses_size(classes, kernel, n), "{kernel}, N = {n}");
        }
        // The smallest size, served; every first row mask.
        assert_eq!(solver.count(0), Ok(1), "{kernel}");
        let visited = solver.for_each_solution_in_first_row(0, 0, &mut |_| ControlFlow::Break(()));
        // A kernel that only counts says so, whatever the size.
        let expected = if kernel.enumerates() {
            Ok(ControlFlow::Break(()))
        } else {
            Err(queens_simd::Error::CountOnly(kernel))
        };
        assert_eq!(visited, expected, "{kernel}");
    }
}

#[test]
fn auto_resolves_every_size_and_refuses_those_past_32() {
    for n in TOO_LARGE {
        for task in Task::ALL {
            // Nothing to resolve to: `auto` stays itself, as `asm` does
            // where no encoding runs, and its size check refuses.
            assert_eq!(
                queens_simd::dispatch::resolve_for(Kernel::Auto, task, n),
                Kernel::Auto
            );
            let held = dispatch::solver_for(Kernel::Auto, task, n);
            assert!(refuses_size(held, Kernel::Auto, n));
            let preference = dispatch::auto_preference(task, n);
            assert!(refuses_size(preference, Kernel::Auto, n));
        }
        assert_eq!(
            queens_simd::dispatch::resolve_for(Kernel::Auto, queens_simd::kernel::Task::Count, n),
            Kernel::Auto
        );
        assert!(refuses_size(queens_simd::count(n), Kernel::Auto, n));
        assert!(refuses_size(queens_simd::solutions(n), Kernel::Auto, n));
        let on_threads = queens_simd::count_on_threads(n, 2);
        assert!(refuses_size(on_threads, Kernel::Auto, n));
    }
    for task in Task::ALL {
        let picked = dispatch::resolve_for(Kernel::Auto, task, MAX_N);
        assert_eq!(picked.role(), Role::Fast);
        assert_eq!(
            dispatch::solver_for(Kernel::Auto, task, MAX_N).map(|held| held.kernel()),
            Ok(picked)
        );
        let preference = dispatch::auto_preference(task, MAX_N).unwrap();
        assert!(preference.contains(&picked));
    }
    assert_eq!(
        queens_simd::count_on_threads(8, 0),
        Err(Error::InvalidThreads)
    );
    // Any number of threads from 1: no more start than there is work.
    assert_eq!(queens_simd::count_on_threads(12, usize::MAX), Ok(14_200));
}

#[test]
fn portable_and_symmetric_searches_take_0_to_32() {
    for n in TOO_LARGE {
        assert!(refuses_size(Solutions::new(n), Kernel::Portable, n));
        for first_row in [0, u32::MAX] {
            let solutions = Solutions::in_first_row(n, first_row);
            assert!(refuses_size(solutions, Kernel::Portable, n));
        }
        let classes = for_each_class(n, &mut |_, _| unreachable!());
        assert!(refuses_size(classes, Kernel::Symmetric, n));
    }
    // Built lazily: the largest board costs nothing until iterated.
    assert!(Solutions::new(MAX_N).is_ok());
    assert_eq!(Solutions::in_first_row(MAX_N, 0).unwrap().next(), None);
    let mut classes = 0;
    let flow = for_each_class(0, &mut |board, orbit| {
        classes += 1;
        assert_eq!((board, orbit), (&Board::EMPTY, 1));
        ControlFlow::Continue(())
    });
    assert_eq!((flow, classes), (Ok(ControlFlow::Continue(())), 1));
}

#[test]
fn boards_refuse_what_is_not_one_queen_per_row_and_column() {
    let too_many: Vec<u8> = (0..=MAX_N as u8).collect();
    assert!(matches!(
        Board::from_columns(&too_many),
        Err(Error::InvalidBoard(_))
    ));
    assert!(matches!(
        Board::from_columns(&[0, 2]),
        Err(Error::InvalidBoard(_))
    ));
    assert!(matches!(
        Board::from_columns(&[u8::MAX]),
        Err(Error::InvalidBoard(_))
    ));
    let largest = Board::from_columns(&too_many[..MAX_N]).unwrap();
    assert_eq!(
        largest.to_bitboard(),
        Err(Error::BitboardTooSmall { n: MAX_N })
    );
    for n in [9, 64, usize::MAX] {
        assert_eq!(
            Board::from_bitboard(n, 0),
            Err(Error::BitboardTooSmall { n })
        );
    }
    assert!(matches!(
        Board::from_bitboard(8, u64::MAX),
        Err(Error::InvalidBoard(_))
    ));
    assert_eq!(
        Board::from_bitboard(8, 577094088726155265).map(|b| b.n()),
        Ok(8)
    );
}

#[test]
fn partial_boards_take_sizes_to_32_and_squares_on_the_board() {
    for n in TOO_LARGE {
        assert!(refuses_size(PartialBoard::new(n), Kernel::Symmetric, n));
    }
    let board = PartialBoard::new(8).unwrap();
    for (row, column) in [(8, 0), (0, 8), (usize::MAX, usize::MAX)] {
        assert_eq!(
            board.clone().with_queen(row, column),
            Err(Error::SquareOffBoard { row, column, n: 8 })
        );
    }
    assert_eq!(
        PartialBoard::new(0).unwrap().with_queen(0, 0),
        Err(Error::SquareOffBoard {
            row: 0,
            column: 0,
            n: 0
        })
    );
    let corner = board.with_queen(7, 7).unwrap();
    assert!(matches!(
        corner.clone().with_queen(7, 0),
        Err(Error::InvalidBoard(_))
    ));
    assert_eq!(
        queens_simd::dispatch::count_partial_board(Kernel::Symmetric, &corner),
        Ok(4)
    );
    assert!(PartialBoard::new(MAX_N).is_ok());
}

#[test]
fn plans_and_shards_refuse_what_does_not_exist() {
    for n in TOO_LARGE {
        assert!(refuses_size(
            Plan::with_method(Method::Symmetric, n),
            Kernel::Symmetric,
            n
        ));
    }
    for (index, count) in [(0, 0), (1, 1), (usize::MAX, usize::MAX), (usize::MAX, 0)] {
        assert!(matches!(
            Shard::new(index, count),
            Err(Error::InvalidShard(_))
        ));
    }
    assert!(Shard::new(usize::MAX - 1, usize::MAX).is_ok());

    let plan = Plan::with_method(Method::Symmetric, 8).unwrap();
    let options = Options::new()
        .with_threads(1)
        .with_kernel(Kernel::Symmetric);
    for index in [plan.len(), usize::MAX] {
        assert_eq!(
            options.count(&plan, &[index], |_, _| {}),
            Err(Error::MissingSubproblem {
                index,
                n: 8,
                subproblems: plan.len()
            })
        );
    }
    assert_eq!(
        options.count(&plan, &[0, 0], |_, _| {}),
        Err(Error::RepeatedSubproblem { index: 0 })
    );
    let no_threads = Options::new()
        .with_threads(0)
        .with_kernel(Kernel::Symmetric);
    assert_eq!(
        no_threads.count(&plan, plan.all(), |_, _| {}),
        Err(Error::InvalidThreads)
    );
    let portable = options.clone().with_kernel(Kernel::Portable);
    assert_eq!(
        portable.count(&plan, plan.all(), |_, _| {}),
        Err(Error::NotSplittable(Kernel::Portable))
    );
    assert_eq!(options.count(&plan, plan.all(), |_, _| {}), Ok(92));
    let last = Shard::new(usize::MAX - 1, usize::MAX).unwrap();
    assert!(plan.shard(last).is_empty());
    assert!(Plan::with_method(Method::Symmetric, MAX_N).is_ok());
}

/// The asm kernel's own entry points, where it is built.
#[cfg(asm_kernels)]
mod asm {
    use queens_simd::kernel::asm::{MAX_N, RowMasks};
    use queens_simd::{Board, Error, Kernel, Solver};

    #[test]
    fn search_takes_1_to_16() {
        let Some(asm) = queens_simd::dispatch::best_asm() else {
            eprintln!("SKIPPED: the asm kernel does not run here");
            return;
        };
        for n in [0, MAX_N + 1, 64, usize::MAX] {
            assert_eq!(
                asm.search(n, u32::MAX).err(),
                Some(Error::SizeOutOfRange {
                    n,
                    kernel: asm.kernel(),
                    min: 1,
                    max: MAX_N
                })
            );
        }
        for first_row in [0, u32::MAX] {
            let search = asm.search(MAX_N, first_row).unwrap();
            assert_eq!(search.n(), MAX_N);
        }
        assert_eq!(asm.search(1, 1).unwrap().count_rest(), 1);
        assert_eq!(Kernel::Asm.check_size(MAX_N), Ok(()));
    }

    #[test]
    fn row_masks_are_a_board_only_with_one_queen_per_row_and_none_below() {
        for n in [MAX_N + 1, 64, usize::MAX] {
            assert!(matches!(
                RowMasks::default().to_board(n),
                Err(Error::InvalidBoard(_))
            ));
        }
        assert_eq!(RowMasks::default().to_board(0), Ok(Board::EMPTY));
        assert!(matches!(
            RowMasks::default().to_board(1),
            Err(Error::InvalidBoard(_))
        ));
    }

    #[test]
    fn a_buffer_reused_for_a_smaller_board_has_zero_rows_past_it() {
        let Some(asm) = queens_simd::dispatch::best_asm() else {
            eprintln!("SKIPPED: the asm kernel does not run here");
            return;
        };
        for small in [1, 4, 8, 15] {
            let mut buffer = [RowMasks::default(); 5];
            let large = asm.search(MAX_N, u32::MAX).unwrap().fill(&mut buffer);
            assert_eq!(large, buffer.len());
            assert!(buffer.iter().all(|r| r.masks().iter().all(|&m| m != 0)));
            let written = asm.search(small, u32::MAX).unwrap().fill(&mut buffer);
            assert!(written > 0, "N = {small}");
            for record in &buffer[..written] {
                let past_the_board = &record.masks()[small..];
                assert!(past_the_board.iter().all(|&m| m == 0), "N = {small}");
                assert!(record.to_board(small).unwrap().is_solution());
                // A record of a smaller board is no board of another size.
                assert!(record.to_board(MAX_N).is_err());
            }
        }
    }
}
