//! The blocks kernels: boards up to N = 8 searched two rows at a time, each
//! choice an AND of 64-bit sets, the last two rows counted by one `popcnt`.
//!
//! # Blocks and their shapes
//!
//! The rows are cut into blocks of two: rows 0 and 1, 2 and 3, and so on
//! (for odd N, row 0 stands alone and the pairs are rows 1 and 2, 3 and
//! 4, ...). A block's *shape* is the pair of columns `(x0, x1)` of its two
//! queens, which differ by at least 2 (else they attack each other). A
//! shape is numbered `8 * x0 + x1`, so that any set of shapes is one `u64`
//! (`Shapes`): byte `x0` holds the columns `x1` that go with `x0`.
//!
//! # The search
//!
//! A queen attacks each square of a later row independently of the other
//! queens, so the shapes of a block that one queen leaves are one table
//! row, `free[e][c]`: those of a block whose first row is `e` rows below a
//! queen in column `c` (`ShapeTables::free`). The shapes a whole block `x`
//! leaves to a block `d` rows below it are then `free[d][x0] &
//! free[d - 1][x1]`.
//!
//! The search keeps one set per block still to fill. Choosing a shape for
//! the first of them ANDs each later set with what that shape leaves; the
//! last block needs no choice, its set's `popcnt` counts its shapes. At
//! N = 8 that is three nested loops (the shapes of rows 0-1, 2-3 and 4-5)
//! and a `popcnt` of rows 6-7, about 470 steps in all where a search one
//! row at a time makes about 1,000 for half the board (BENCHMARKS.md,
//! "The blocks kernel").
//!
//! # Symmetry
//!
//! A count uses the mirror image: a first block whose row-0 queen is in
//! the left half counts twice, one in the middle column (odd N) once. An
//! enumeration visits every first block.
//!
//! The tables are built at each call, from N alone: they hold which
//! squares attack which, never a count.
//!
//! Two builds of the same code, as for the symmetric kernel: `blocks`
//! (plain Rust, every target) and `blocks-bmi` (x86-64 with BMI1 and
//! POPCNT, for `tzcnt` and `popcnt` as one instruction each).

#[cfg(x86_kernels)]
use crate::vocabulary::kernel::target_features;
use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::{Board, Count, Error, Kernel, Solver};

/// The largest N: a block's shapes must fit one `u64`, 8 columns by 8
/// (the kernel table's sizes for the blocks kernels).
pub const MAX_N: usize = *Kernel::Blocks.sizes().end();

/// A set of a block's shapes: bit `8 * x0 + x1` for the queens of its
/// first and second row in columns `x0` and `x1`.
type Shapes = u64;

/// The shape-set tables of one N, built from the rules of attack.
struct ShapeTables {
    /// Board size, 1 to [`MAX_N`].
    n: usize,
    /// Every shape of a block: its queens two or more columns apart.
    every: Shapes,
    /// `free[e][c]`: the shapes of a block whose first row is `e` rows
    /// below a queen in column `c` that the queen does not attack (for `e`
    /// from 1 to `n - 2`; other rows are 0).
    free: [[Shapes; MAX_N]; MAX_N],
    /// `two[x]`: the shapes that block shape `x` leaves to the block right
    /// below it (two rows down).
    two: [Shapes; 64],
    /// `four[x]`: the same for the block below that one (four rows down).
    four: [Shapes; 64],
}

/// The bytes of `columns` spread out: byte `c` all ones where bit `c` of
/// `columns` is set (bits 0 to 7), in plain integer arithmetic.
fn spread(columns: u32) -> Shapes {
    // Byte c keeps bit c of the copy of `columns` it holds; adding 0x7F
    // carries into the byte's top bit exactly when that bit is set, and
    // never out of the byte.
    let one_bit_per_byte =
        (u64::from(columns & 0xFF) * 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    let top_bits = (one_bit_per_byte + 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080;
    (top_bits >> 7) * 0xFF
}

/// `columns` (bits 0 to 7) copied into every byte.
fn repeat(columns: u32) -> Shapes {
    u64::from(columns & 0xFF) * 0x0101_0101_0101_0101
}

/// The columns that a queen in column `c` does not attack `distance` rows
/// away, on a board whose columns are `full`.
fn unattacked(full: u32, c: usize, distance: usize) -> u32 {
    let queen = 1u32 << c;
    full & !(queen | queen << distance | queen >> distance)
}

impl ShapeTables {
    /// The tables of an `n`x`n` board, `n` from 1 to [`MAX_N`].
    ///
    /// Built in place, field by field, with plain index loops: built as
    /// local arrays and then moved into the struct, the tables (1.5 KiB)
    /// were zeroed, filled and copied, and an iterator's `skip` stayed a
    /// call, which together cost more than the whole search of N = 5.
    #[inline(always)]
    fn new(n: usize) -> ShapeTables {
        debug_assert!((1..=MAX_N).contains(&n));
        let full = (1u32 << n) - 1;
        let mut tables = ShapeTables {
            n,
            every: 0,
            free: [[0; MAX_N]; MAX_N],
            two: [0; 64],
            four: [0; 64],
        };
        // Byte x0 of `every` holds the columns that a queen in column x0
        // leaves to the row below it.
        for x0 in 0..n {
            tables.every |= repeat(unattacked(full, x0, 1)) & spread(1 << x0);
        }
        let every = tables.every;
        for e in 1..n.saturating_sub(1) {
            for c in 0..n {
                tables.free[e][c] =
                    spread(unattacked(full, c, e)) & repeat(unattacked(full, c, e + 1)) & every;
            }
        }
        let free = &tables.free;
        for x in bits(every) {
            let (x0, x1) = (x / 8, x % 8);
            tables.two[x] = free[2][x0] & free[1][x1];
            tables.four[x] = free[4][x0] & free[3][x1];
        }
        tables
    }

    /// The sets of the pair blocks below the first block (up to three),
    /// given that block: shape `first` for even `n`, the row-0 column
    /// `first` for odd `n`.
    #[inline(always)]
    fn below_first(&self, first: usize) -> [Shapes; 3] {
        if !self.n.is_multiple_of(2) {
            [
                self.free[1][first],
                self.free[3][first],
                self.free[5][first],
            ]
        } else {
            let (x0, x1) = (first / 8, first % 8);
            [
                self.two[first],
                self.four[first],
                self.free[6][x0] & self.free[5][x1],
            ]
        }
    }

    /// The first blocks of a count: the row-0 columns (odd `n`) or the
    /// shapes (even `n`) with the row-0 queen in the left half, each of
    /// which counts twice (its mirror image), and the middle column (odd
    /// `n`), which counts once.
    #[inline(always)]
    fn firsts(&self) -> (u64, Option<usize>) {
        let half = self.n / 2;
        if self.n.is_multiple_of(2) {
            (self.every & ((1u64 << (8 * half)) - 1), None)
        } else {
            ((1u64 << half) - 1, Some(half))
        }
    }

    /// The number of ways to fill the `blocks` (0 to 3) pair blocks whose
    /// sets are `sets`, in order down the board.
    #[inline(always)]
    fn count_below(&self, sets: [Shapes; 3], blocks: usize) -> Count {
        match blocks {
            0 => 1,
            1 => Count::from(sets[0].count_ones()),
            2 => {
                let mut total = 0u32;
                for b in bits(sets[0]) {
                    total += (sets[1] & self.two[b]).count_ones();
                }
                Count::from(total)
            }
            _ => {
                let mut total = 0u32;
                for b in bits(sets[0]) {
                    let fourth = sets[2] & self.four[b];
                    for c in bits(sets[1] & self.two[b]) {
                        total += (fourth & self.two[c]).count_ones();
                    }
                }
                Count::from(total)
            }
        }
    }

    /// The number of pair blocks below the first block.
    fn blocks_below(&self) -> usize {
        (self.n - 1) / 2
    }
}

/// The positions of the set bits of `set`, lowest first.
#[inline(always)]
fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    core::iter::from_fn(move || {
        (set != 0).then(|| {
            let bit = set.trailing_zeros() as usize;
            set &= set - 1;
            bit
        })
    })
}

/// The columns of the two queens of block shape `shape`.
fn queens(shape: usize) -> [u8; 2] {
    [(shape / 8) as u8, (shape % 8) as u8]
}

/// The solutions of an `n`x`n` board, `n` from 0 to [`MAX_N`].
#[inline(always)]
fn count_board(n: usize) -> Count {
    if n == 0 {
        return 1;
    }
    let tables = ShapeTables::new(n);
    let below = tables.blocks_below();
    let (twice, once) = tables.firsts();
    let mut total = 0;
    for first in bits(twice) {
        total += 2 * tables.count_below(tables.below_first(first), below);
    }
    if let Some(first) = once {
        total += tables.count_below(tables.below_first(first), below);
    }
    total
}

/// Calls `visit` with every solution of an `n`x`n` board, `n` from 0 to
/// [`MAX_N`], in the order of the blocks' shapes.
fn for_each_board(n: usize, visit: Visit<'_>) -> ControlFlow<()> {
    if n == 0 {
        return visit(&Board::EMPTY);
    }
    let tables = ShapeTables::new(n);
    let mut columns = [0u8; MAX_N];
    let odd = !n.is_multiple_of(2);
    let firsts = if odd { (1u64 << n) - 1 } else { tables.every };
    for first in bits(firsts) {
        // The first block's queens: row 0, or rows 0 and 1.
        if odd {
            columns[0] = first as u8;
        } else {
            columns[..2].copy_from_slice(&queens(first));
        }
        let sets = tables.below_first(first);
        visit_below(&tables, &mut columns, sets, tables.blocks_below(), visit)?;
    }
    ControlFlow::Continue(())
}

/// Fills the last `blocks` pair blocks of the board, each from its set in
/// `sets`, and visits each full board.
fn visit_below(
    tables: &ShapeTables,
    columns: &mut [u8; MAX_N],
    sets: [Shapes; 3],
    blocks: usize,
    visit: Visit<'_>,
) -> ControlFlow<()> {
    if blocks == 0 {
        return visit(&Board::from_permutation(&columns[..tables.n]));
    }
    // The first row of the block being filled.
    let top = tables.n - 2 * blocks;
    for x in bits(sets[0]) {
        columns[top..top + 2].copy_from_slice(&queens(x));
        let below = [sets[1] & tables.two[x], sets[2] & tables.four[x], 0];
        visit_below(tables, columns, below, blocks - 1, visit)?;
    }
    ControlFlow::Continue(())
}

kernel_type! {
    /// The `blocks` kernel: plain Rust, every target.
    pub struct Blocks = Kernel::Blocks;
}

#[cfg(x86_kernels)]
kernel_type! {
    /// The `blocks-bmi` kernel: the same code compiled with BMI1 and
    /// POPCNT. Holding one proves this CPU runs them.
    pub struct BlocksBmi = Kernel::BlocksBmi;
}

impl Solver for Blocks {
    fn kernel(&self) -> Kernel {
        Kernel::Blocks
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::Blocks.check_size(n)?;
        Ok(count_board(n))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::Blocks.check_size(n)?;
        Ok(for_each_board(n, visit))
    }
}

#[cfg(x86_kernels)]
target_features!(BlocksBmi => {
    /// [`count_board`] compiled with BMI1 and POPCNT.
    fn count_board_bmi(n: usize) -> Count {
        count_board(n)
    }
});

#[cfg(x86_kernels)]
impl Solver for BlocksBmi {
    fn kernel(&self) -> Kernel {
        Kernel::BlocksBmi
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::BlocksBmi.check_size(n)?;
        // SAFETY: a `BlocksBmi` exists only where `BlocksBmi::new` found
        // BMI1 and POPCNT on this CPU, the features `count_board_bmi` is
        // compiled with; it takes no pointers.
        Ok(unsafe { count_board_bmi(n) })
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::BlocksBmi.check_size(n)?;
        Ok(for_each_board(n, visit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::portable::Portable;
    use alloc::boxed::Box;
    use alloc::vec::Vec;

    #[test]
    fn spread_and_repeat_match_their_definitions() {
        for columns in 0u32..256 {
            let (mut spread_bytes, mut repeated) = (0u64, 0u64);
            for c in 0..8 {
                if columns >> c & 1 == 1 {
                    spread_bytes |= 0xFF << (8 * c);
                }
                repeated |= u64::from(columns) << (8 * c);
            }
            assert_eq!(spread(columns), spread_bytes, "{columns:#b}");
            assert_eq!(repeat(columns), repeated, "{columns:#b}");
        }
    }

    /// Whether queens at (row, column) `a` and `b` attack each other.
    fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
        a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
    }

    /// Every table row against the rules of attack, square by square.
    #[test]
    fn tables_hold_the_shapes_that_no_queen_attacks() {
        for n in 1..=MAX_N {
            let tables = ShapeTables::new(n);
            for x in 0..64 {
                let (x0, x1) = (x / 8, x % 8);
                let shape = x0 < n && x1 < n && !attack((0, x0), (1, x1));
                assert_eq!(tables.every >> x & 1 == 1, shape, "N = {n}, shape {x}");
                for e in 1..n - 1 {
                    for c in 0..n {
                        let free =
                            shape && !attack((0, c), (e, x0)) && !attack((0, c), (e + 1, x1));
                        assert_eq!(
                            tables.free[e][c] >> x & 1 == 1,
                            free,
                            "N = {n}, e {e}, c {c}"
                        );
                    }
                }
                for y in (0..64).filter(|_| shape) {
                    let (y0, y1) = (y / 8, y % 8);
                    let below = |d: usize| {
                        tables.every >> y & 1 == 1
                            && [(0, x0), (1, x1)]
                                .iter()
                                .all(|&q| !attack(q, (d, y0)) && !attack(q, (d + 1, y1)))
                    };
                    if n >= 4 {
                        assert_eq!(tables.two[x] >> y & 1 == 1, below(2), "N = {n}");
                    }
                    if n >= 6 {
                        assert_eq!(tables.four[x] >> y & 1 == 1, below(4), "N = {n}");
                    }
                }
            }
        }
    }

    /// The builds of the blocks kernel this CPU runs.
    fn builds() -> Vec<Box<dyn Solver>> {
        let mut builds: Vec<Box<dyn Solver>> = Vec::new();
        builds.extend(Blocks::new().map(|k| Box::new(k) as Box<dyn Solver>));
        #[cfg(x86_kernels)]
        builds.extend(BlocksBmi::new().map(|k| Box::new(k) as Box<dyn Solver>));
        builds
    }

    /// Counts and solutions of every build, against the portable kernel's.
    #[test]
    fn every_build_finds_what_the_portable_kernel_finds() {
        for solver in builds() {
            for n in 0..=MAX_N {
                let expected = Portable::default().count(n).unwrap();
                assert_eq!(
                    solver.count(n).unwrap(),
                    expected,
                    "{} N = {n}",
                    solver.kernel()
                );
                let mut found = solver.solutions(n).unwrap();
                let mut wanted = Portable::default().solutions(n).unwrap();
                found.sort_unstable();
                wanted.sort_unstable();
                assert_eq!(found, wanted, "{} N = {n}", solver.kernel());
            }
            let too_large = solver.count(MAX_N + 1);
            assert!(
                matches!(too_large, Err(Error::SizeOutOfRange { .. })),
                "{too_large:?}"
            );
        }
    }

    /// Where BMI1 and POPCNT are enabled at compile time (as in the second
    /// run of `.ci/miri`), the BMI build is there: the tests run it rather
    /// than skip it.
    #[test]
    #[cfg(x86_kernels)]
    fn bmi_build_is_there_where_its_features_are_enabled() {
        if cfg!(all(target_feature = "bmi1", target_feature = "popcnt")) {
            assert!(BlocksBmi::new().is_some());
        }
    }
}
