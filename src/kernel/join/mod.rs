//! The join kernels: counting by joining half-boards, with no search of
//! the whole board.
//!
//! The page docs/join.md shows each step below in pictures drawn from this
//! code's state on the 8-queens board.
//!
//! Cut the board into a west half (columns `0..n/2`) and an east half (the
//! rest; for odd `n`, the columns past the middle one, whose queen is
//! placed first: one *split* per row of that queen, `split.rs`). A
//! solution is a west half-board and an east half-board such that
//! 1. their queens stand in complementary sets of rows, and
//! 2. no west queen shares a diagonal with an east queen.
//!
//! So the count is a sum over the row sets `R` of the west half: join the
//! west half-boards on exactly the rows of `R` and the east ones on the
//! other rows, write each as the mask of the diagonals that cross between
//! the halves (at most 62 bits), and count the pairs of masks with no bit
//! in common: pairs of a west and an east half-board that attack nowhere.
//!
//! # Four steps
//!
//! 1. **Quarter-boards** (`quarters.rs`), of the rows a row set's first
//!    choices decide, kept while the next row sets share them: a line across
//!    the rows cuts each half into a north and a south quarter, and every
//!    placement of non-attacking queens in a quarter (any number, at most
//!    one per row and column) is kept, filed by the rows and columns it
//!    takes, as its *inner* bits (the diagonals it could share with the
//!    other quarter of its half) and its crossing bits.
//! 2. **Half-boards** (`halves.rs`), per row set: a north and a south
//!    quarter-board on the row set's rows and on complementary columns,
//!    kept if their inner bits are disjoint: one AND per pair, eight pairs
//!    at once with AVX-512 (`vptestnmq`, then `vpcompressq` packs the
//!    kept ones).
//! 3. **The sieve** (`matcher.rs`): both sides' half-boards filed by a few
//!    *cut* bits; a class of items is matched only against the classes of
//!    patterns that share none of its cut bits, gathered into one run (from
//!    ten cut bits on, one run for eight classes of items, in segments).
//! 4. **The matcher** (`matcher.rs`): the patterns bit-sliced, so that
//!    one OR per set bit of an item matches it against 64, 256 or 512
//!    patterns at once and a popcount counts the conflicts. This is where
//!    the time goes as N grows, and what the kernels differ in: `join`
//!    with `u64` in plain Rust, `join-avx2` with 256-bit vectors,
//!    `join-avx512` with 512-bit ones and `vpopcntq`, `join-avx512bw` with
//!    512-bit ones and a popcount by `vpshufb` (AVX-512 CPUs without
//!    VPOPCNTDQ). The algorithm is written once, generic over
//!    `words::PatternWords`; each kernel compiles it inside one
//!    `#[target_feature]` function (`avx2.rs`, `avx512.rs`, `avx512bw.rs`).
//!
//! # Symmetry
//!
//! The flip top to bottom and the mirror left to right map row set `R`
//! to others that count the same (`split::orbit`): each class of row sets
//! is joined once, by its smallest member, and counted for all. The
//! transpose, which the halves do not survive, still halves the work for
//! odd N and cuts it by up to a quarter for even N, by weighing solutions
//! so that each class of the eight symmetries adds up right
//! (`transpose.rs`): for odd N a split keeps only the solutions whose
//! middle row's queen is further from the centre than its middle
//! column's, twice each; for even N a pair counts twice if one half holds
//! the queens of both long diagonals, not at all if the two halves hold
//! one each (`matcher::weight`), and with a band of two, the pairs that
//! weigh 1 there are weighed again by the band's rule: by the sides of the
//! centre the band's and the middle rows' queens stand on, and their
//! distances from it (`transpose::MiddleRows`).
//!
//! # Pieces
//!
//! The row sets are cut into chunks by their first choices of rows
//! (`split::Chunk`): the numbered pieces of `pieces.rs`, which a plan
//! (`plan`, with the `std` feature) counts on threads, in shards and from checkpoints.
//! The kernels count; they do not enumerate or find fundamental solutions
//! ([`Error::CountOnly`]). Memory is each thread's quarter-boards, only
//! those that agree with the first choices of the row set it joins
//! (`quarters::HeldQuarters`), and its half-boards of one row set
//! (`memory::estimate` says how much before a count starts). Those buffers
//! grow fallibly (`grow.rs`): a refused allocation stops the count with
//! [`Error::OutOfMemory`] rather than aborting the program that links it.

pub(crate) mod band;
#[cfg(feature = "std")]
pub(crate) mod check;
pub(crate) mod cuts;
#[cfg(feature = "std")]
pub(crate) mod deal;
#[cfg(test)]
mod depth;
pub(crate) mod grow;
pub(crate) mod halves;
pub(crate) mod matcher;
pub(crate) mod memory;
pub(crate) mod or_tables;
#[cfg(feature = "std")]
pub(crate) mod pieces;
pub(crate) mod quarters;
#[cfg(feature = "std")]
pub(crate) mod run;
#[cfg(feature = "std")]
pub(crate) mod sample;
pub(crate) mod split;
pub(crate) mod stats;
pub(crate) mod transpose;
pub(crate) mod words;

#[cfg(simd_kernels)]
pub mod avx2;
#[cfg(simd_kernels)]
pub mod avx512;
#[cfg(simd_kernels)]
pub mod avx512bw;

use alloc::vec::Vec;
use core::ops::ControlFlow;

use crate::kernel::{Visit, kernel_type};
use crate::{Count, Error, Kernel, Solver};
use cuts::Cuts;
use halves::Filed;
#[cfg(test)]
use matcher::Group;
use matcher::Weighing;
use quarters::HeldQuarters;
use split::{Chunk, Side, Split};
use transpose::MAX_TAGS;
use words::PatternWords;

kernel_type! {
    /// The `join` kernel: the join with `u64` vectors, any target.
    #[derive(Default)]
    pub struct Join = Kernel::Join;
}

/// A join kernel of one ISA, as [`crate::kernel::lanes`] declares its lane
/// kernels: its type (`kernel_type!`), the join ([`count_row_sets`]) and, for
/// the tests, the matcher compiled with its row's features
/// (`target_features!`) over its vector type, whose [`words::PatternWords`]
/// (the ISA's own intrinsics) the invoking file writes, and its
/// [`Joiner`]. `$name` is its variant of [`Kernel`]. The compiled
/// functions sit in the invoking module: `cli/tests/program/disassembly.rs` finds
/// `join::avx2::count_row_sets` by that path.
#[cfg(simd_kernels)]
macro_rules! join_kernel {
    ($(#[$doc:meta])* $name:ident, $vector:ty) => {
        $crate::kernel::kernel_type! {
            $(#[$doc])*
            pub struct $name = $crate::Kernel::$name;
        }

        impl super::Joiner for $name {
            fn kernel(&self) -> $crate::Kernel {
                $crate::Kernel::$name
            }

            fn count_row_sets(
                &self,
                split: &super::split::Split,
                quarters: &mut super::quarters::HeldQuarters,
                row_sets: &[(u32, u32)],
                scratch: &mut super::Scratch,
            ) -> Result<$crate::Count, $crate::Error> {
                // SAFETY: `self` exists only where its `new` found the
                // kernel's features, those `count_row_sets` is compiled
                // with; the arguments are references, valid for the call.
                unsafe { count_row_sets(split, quarters, row_sets, scratch) }
            }

            #[cfg(test)]
            fn disjoint_pairs(
                &self,
                items: super::matcher::Group<'_>,
                patterns: super::matcher::Group<'_>,
                weighing: &super::matcher::Weighing,
                scratch: &mut super::Scratch,
            ) -> u64 {
                // SAFETY: as in `count_row_sets`.
                unsafe { disjoint_pairs(items, patterns, weighing, scratch) }
                    .expect("the tests' masks fit in memory")
            }
        }

        $crate::vocabulary::kernel::target_features!($name => {
            /// [`super::count_row_sets`] compiled with the kernel's
            /// features, over its vectors.
            ///
            /// # Safety
            ///
            /// The CPU (and its operating system) runs the features of the
            /// kernel's row of the kernel table.
            unsafe fn count_row_sets(
                split: &super::split::Split,
                quarters: &mut super::quarters::HeldQuarters,
                row_sets: &[(u32, u32)],
                scratch: &mut super::Scratch,
            ) -> Result<$crate::Count, $crate::Error> {
                // SAFETY: this function's features are the vectors'
                // instructions.
                unsafe { super::count_row_sets::<$vector>(split, quarters, row_sets, scratch) }
            }
        });

        #[cfg(test)]
        $crate::vocabulary::kernel::target_features!($name => {
            /// [`super::matcher::disjoint_pairs`] compiled likewise, for
            /// the tests.
            ///
            /// # Safety
            ///
            /// As for [`count_row_sets`].
            unsafe fn disjoint_pairs(
                items: super::matcher::Group<'_>,
                patterns: super::matcher::Group<'_>,
                weighing: &super::matcher::Weighing,
                scratch: &mut super::Scratch,
            ) -> Result<u64, $crate::Error> {
                // SAFETY: as for `count_row_sets`.
                unsafe {
                    super::matcher::disjoint_pairs::<$vector>(
                        items,
                        patterns,
                        weighing,
                        &mut scratch.matcher,
                    )
                }
            }
        });
    };
}
#[cfg(simd_kernels)]
use join_kernel;

/// A join kernel: this module's algorithm compiled for one kind of vector
/// ([`PatternWords`]). Holding one proves that the CPU runs it. It is also
/// what counts a join plan's pieces (`run::count`).
pub(crate) trait Joiner: Send + Sync {
    /// The kernel it is.
    fn kernel(&self) -> Kernel;

    /// The solutions of `row_sets` (each `(rows, images)`: the smallest
    /// row set of its class and how many it stands for, as
    /// [`Chunk::row_sets`] lists them) and of those they stand for
    /// ([`count_row_sets`]).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a large buffer's allocation is refused.
    fn count_row_sets(
        &self,
        split: &Split,
        quarters: &mut HeldQuarters,
        row_sets: &[(u32, u32)],
        scratch: &mut Scratch,
    ) -> Result<Count, Error>;

    /// The solutions of the row sets of `chunk` and of those they stand
    /// for: [`Joiner::count_row_sets`] of its list.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a large buffer's allocation, or the
    /// list's, is refused.
    fn count_chunk(
        &self,
        split: &Split,
        quarters: &mut HeldQuarters,
        chunk: &Chunk,
        scratch: &mut Scratch,
    ) -> Result<Count, Error> {
        let mut row_sets = core::mem::take(&mut scratch.row_sets);
        let listed = chunk.row_sets(split, &mut row_sets);
        let counted =
            listed.and_then(|()| self.count_row_sets(split, quarters, &row_sets, scratch));
        scratch.row_sets = row_sets;
        counted
    }

    /// The matcher alone ([`matcher::disjoint_pairs`]), for the tests.
    #[cfg(test)]
    fn disjoint_pairs(
        &self,
        items: Group<'_>,
        patterns: Group<'_>,
        weighing: &Weighing,
        scratch: &mut Scratch,
    ) -> u64;
}

impl Joiner for Join {
    fn kernel(&self) -> Kernel {
        Kernel::Join
    }

    fn count_row_sets(
        &self,
        split: &Split,
        quarters: &mut HeldQuarters,
        row_sets: &[(u32, u32)],
        scratch: &mut Scratch,
    ) -> Result<Count, Error> {
        // SAFETY: `u64`'s instructions run on every CPU.
        unsafe { count_row_sets::<u64>(split, quarters, row_sets, scratch) }
    }

    #[cfg(test)]
    fn disjoint_pairs(
        &self,
        items: Group<'_>,
        patterns: Group<'_>,
        weighing: &Weighing,
        scratch: &mut Scratch,
    ) -> u64 {
        // SAFETY: as above.
        unsafe { matcher::disjoint_pairs::<u64>(items, patterns, weighing, &mut scratch.matcher) }
            .expect("the tests' masks fit in memory")
    }
}

/// Every join kernel is a [`Solver`] that counts and lists nothing.
impl<J: Joiner> Solver for J {
    fn kernel(&self) -> Kernel {
        Joiner::kernel(self)
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Joiner::kernel(self).check_size(n)?;
        count(self, n)
    }

    fn for_each_solution(&self, n: usize, _visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        let kernel = Joiner::kernel(self);
        kernel.check_size(n)?;
        Err(Error::CountOnly(kernel))
    }
}

/// Buffers reused from one row set to the next, and what the joins did.
#[derive(Default)]
pub(crate) struct Scratch {
    row_sets: Vec<(u32, u32)>,
    west: Filed,
    east: Filed,
    cuts: Cuts,
    policy: cuts::Policy,
    matcher: matcher::MatcherScratch,
}

/// The solutions of `row_sets` (each the smallest of its class, with how
/// many row sets it stands for: [`split::orbit`]), with vectors of `W`.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if a large buffer's allocation is refused (the
/// tables, the half-boards, the slices: `grow.rs`); what was counted is
/// dropped, and `scratch` and `quarters` stay usable.
///
/// # Safety
///
/// The CPU runs `W`'s instructions.
#[inline(always)]
pub(crate) unsafe fn count_row_sets<W: PatternWords>(
    split: &Split,
    quarters: &mut HeldQuarters,
    row_sets: &[(u32, u32)],
    scratch: &mut Scratch,
) -> Result<Count, Error> {
    // A loop, not a closure: a closure would be compiled apart from the
    // kernel's `#[target_feature]` function, without its instructions.
    let mut total: Count = 0;
    for &(rows, images) in row_sets {
        // SAFETY: the caller's.
        let pairs = unsafe { join_row_set::<W>(split, quarters, rows, scratch)? };
        total += Count::from(images * split.weight) * Count::from(pairs);
    }
    Ok(total)
}

/// The pairs of a west and an east half-board on row set `rows` (and its
/// complement) that attack nowhere, with vectors of `W`.
///
/// # Errors
///
/// As [`count_row_sets`].
///
/// # Safety
///
/// The CPU runs `W`'s instructions.
#[inline(always)]
unsafe fn join_row_set<W: PatternWords>(
    split: &Split,
    quarters: &mut HeldQuarters,
    rows: u32,
    scratch: &mut Scratch,
) -> Result<u64, Error> {
    let quarters = quarters.for_rows(split, rows)?;
    // SAFETY: `Filed::join` asks only that the CPU runs `W`'s instructions,
    // which this function's caller vouches for (it holds `W`'s join kernel).
    unsafe { scratch.west.join::<W>(quarters, Side::West, rows)? };
    if scratch.west.len() == 0 {
        return Ok(0);
    }
    let east_rows = split.side_rows(Side::East, rows);
    // SAFETY: as above: the CPU runs `W`'s instructions (this function's
    // contract).
    unsafe { scratch.east.join::<W>(quarters, Side::East, east_rows)? };
    if scratch.east.len() == 0 {
        return Ok(0);
    }
    let tags = split.tag_weights(rows);
    sieve(
        split,
        &scratch.west,
        &scratch.east,
        scratch.policy,
        &mut scratch.cuts,
    );
    // SAFETY: `Filed::file` asks only that the CPU runs `W`'s instructions,
    // which this function's caller vouches for (it holds `W`'s join kernel).
    unsafe {
        scratch
            .west
            .file::<W>(&scratch.cuts, &tags.index[0], tags.tags[0])?
    };
    // SAFETY: as above: the CPU runs `W`'s instructions (this function's
    // contract).
    unsafe {
        scratch
            .east
            .file::<W>(&scratch.cuts, &tags.index[1], tags.tags[1])?
    };
    let (west, east) = (scratch.west.group(), scratch.east.group());
    let stats = &mut scratch.matcher.stats;
    stats.row_sets += 1;
    stats.west += west.len() as u64;
    stats.east += east.len() as u64;
    stats.pairs = stats
        .pairs
        .saturating_add(west.len() as u64 * east.len() as u64);
    stats.cuts += scratch.cuts.len() as u64;
    let mut weighing = Weighing {
        diagonals: split.diagonals,
        tags: tags.weight,
    };
    // The larger set is sliced: fewer lanes of its last vector are empty;
    // but a side filed by tag is, so that its tags of weight 0 are never
    // gathered into a run, and the items' classes stay whole.
    let west_items = match tags.tags {
        [1, 1] => west.len() <= east.len(),
        [west_tags, _] => west_tags == 1,
    };
    let (items, patterns) = if west_items {
        (west, east)
    } else {
        weighing.tags = transposed(&tags.weight);
        (east, west)
    };
    // SAFETY: the caller's.
    unsafe { matcher::disjoint_pairs::<W>(items, patterns, &weighing, &mut scratch.matcher) }
}

/// `weights` with its rows and columns swapped: the east's tags first.
#[inline(always)]
fn transposed(weights: &[[u8; MAX_TAGS]; MAX_TAGS]) -> [[u8; MAX_TAGS]; MAX_TAGS] {
    core::array::from_fn(|i| core::array::from_fn(|j| weights[j][i]))
}

/// Sets `cuts` to the cut bits of the row set whose half-boards are
/// `west` and `east`: as many as `policy` gives the shorter list
/// ([`cuts::Policy::cuts`]); from its `chosen_from` of them, the bits both
/// lists have most ([`cuts::chosen`]), below, the split's top bits
/// ([`cuts::top`]). For even N at least the long diagonals that weigh the
/// pairs (the split's top bits). The band's tags, which file one side
/// further, take no cut bit: counting a tag's share of the list instead
/// of the whole (both sides filed by tag, as tried) left more pairs to
/// scan than the tags saved, 1.3 times the joins' time at N = 24.
#[inline(always)]
pub(crate) fn sieve(
    split: &Split,
    west: &Filed,
    east: &Filed,
    policy: cuts::Policy,
    cuts: &mut Cuts,
) {
    let len = policy
        .cuts(west.len().min(east.len()))
        .max(split.diagonals.bits());
    cuts.set(if len < policy.chosen_from {
        cuts::top(len)
    } else {
        cuts::chosen(west.joined(), east.joined(), len, split.diagonals.mask())
    });
}

/// The number of solutions on an `n`x`n` board, `n` up to 32, on this
/// thread.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if a large buffer's allocation is refused (about
/// [`memory::estimate`]`(n, 1)` bytes in all).
pub(crate) fn count(joiner: &impl Joiner, n: usize) -> Result<Count, Error> {
    count_with(joiner, n, Scratch::default())
}

/// [`count`] with `scratch`'s sieve policy.
fn count_with(joiner: &(impl Joiner + ?Sized), n: usize, scratch: Scratch) -> Result<Count, Error> {
    count_bands(joiner, n, band::bands(n), scratch)
}

/// [`count`] with the splits of `bands` (all of a board's of one width)
/// and `scratch`'s sieve policy.
fn count_bands(
    joiner: &(impl Joiner + ?Sized),
    n: usize,
    bands: Vec<band::Band>,
    mut scratch: Scratch,
) -> Result<Count, Error> {
    let mut quarters = HeldQuarters::new(memory::Tables::of(n).depth);
    let splits = bands.len();
    let mut total = 0;
    for band in bands {
        let split = Split::new(n, band);
        if split.is_empty() {
            continue;
        }
        for chunk in Chunk::try_all(&split, split.piece_len(splits))? {
            total += joiner.count_chunk(&split, &mut quarters, &chunk, &mut scratch)?;
        }
    }
    Ok(total)
}

impl Scratch {
    /// What the joins did since the last call, and start again.
    #[cfg(feature = "std")]
    pub(crate) fn take_stats(&mut self) -> stats::JoinStats {
        core::mem::take(&mut self.matcher.stats)
    }
}

/// Says that a test of `kernel` is skipped because this CPU lacks it, or
/// fails if the run must cover everything (`QUEENS_SIMD_REQUIRE_ALL=1`)
/// and `QUEENS_SIMD_ALLOW_MISSING` does not name the kernel (the rule of
/// `tests/common`).
#[cfg(test)]
pub(crate) fn skip_missing(kernel: Kernel) {
    let required = std::env::var("QUEENS_SIMD_REQUIRE_ALL").is_ok_and(|v| v == "1");
    let allowed = std::env::var("QUEENS_SIMD_ALLOW_MISSING")
        .is_ok_and(|names| names.split(',').any(|name| name.trim() == kernel.name()));
    assert!(
        !required || allowed,
        "kernel {kernel} is not available here and QUEENS_SIMD_REQUIRE_ALL=1"
    );
    std::eprintln!("SKIPPED: kernel {kernel} is not available on this CPU");
}

/// Every join kernel of the kernel table (its `Join` family) that this
/// build and CPU run, those it lacks skipped ([`skip_missing`]): the tests'
/// list, written from the table's rows, so that a join kernel the table
/// adds is in it.
#[cfg(test)]
pub(crate) fn joiners() -> Vec<&'static dyn Joiner> {
    use crate::vocabulary::kernel::{Family, family_kernel};
    Kernel::ALL
        .iter()
        .copied()
        .filter(|kernel| kernel.family() == Family::Join)
        .filter_map(|kernel| {
            let joiner = family_kernel!(Join, kernel, |k| k.as_static() as &'static dyn Joiner);
            if joiner.is_none() {
                skip_missing(kernel);
            }
            joiner
        })
        .collect()
}

/// Whether the long sweeps run in full (`QUEENS_SIMD_LONG_TESTS=1`, set in
/// CI; the rule of `tests/common`'s `long_tests`): without it the join's
/// largest unit tests stop two N sooner, where each N costs twice or more.
#[cfg(test)]
pub(crate) fn long_tests() -> bool {
    std::env::var("QUEENS_SIMD_LONG_TESTS").is_ok_and(|v| v == "1")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest of `rows` and its images in `split`, or `None` if the
    /// smallest is in the split of the flipped middle row.
    fn smallest_image(split: &Split, rows: u32) -> u32 {
        let n = split.n;
        let flip = |r: u32| {
            if n == 0 {
                0
            } else {
                r.reverse_bits() >> (32 - n)
            }
        };
        let complement = split.free_rows & !rows;
        let mut images = vec![rows, complement];
        if split.images == split::Images::FlipAndMirror {
            images.extend([flip(rows), flip(complement)]);
        }
        images.into_iter().min().unwrap()
    }

    /// Each chunk counts exactly the solutions whose west half's row set
    /// (and middle row) it stands for, as the symmetric kernel lists them
    /// (a search of the whole board, one class of the eight symmetries at a
    /// time, expanded to every solution), each weighed as the transpose has
    /// it (see `Split::new`): for odd N off the centre, twice those whose
    /// middle row's queen is further from the centre than the middle
    /// column's, none of the others; for even N, twice those with queens on
    /// both long diagonals in one half, none of those with them in
    /// different halves. Every piece of every N up to 15.
    #[test]
    fn every_chunk_counts_the_solutions_its_row_sets_stand_for() {
        let largest = if cfg!(debug_assertions) { 11 } else { 15 };
        for n in 2..=largest {
            let splits = Split::all(n);
            let mut expected = Vec::new();
            let mut chunks = Vec::new();
            // Each split's chunks, by their patterns: chunk `c` of split
            // `s` is `chunks[at[s][c.pattern]]`.
            let mut at: Vec<Vec<usize>> = Vec::new();
            for (s, split) in splits.iter().enumerate() {
                let len = split.piece_len(splits.len());
                at.push(vec![usize::MAX; 1 << len.min(split.rows)]);
                for chunk in Chunk::all(split, len) {
                    at[s][chunk.pattern as usize] = chunks.len();
                    chunks.push((s, chunk));
                    expected.push(0 as Count);
                }
            }
            let mut visit = |board: &crate::Board| {
                let columns = board.columns();
                // The middle queen's row, flipped to the top half: the flip
                // maps the solution to one counted there, 2 for 1.
                let mut q = columns
                    .iter()
                    .position(|&c| n % 2 == 1 && usize::from(c) == n / 2);
                let mut rows: Vec<usize> = (0..n).collect();
                if q.is_some_and(|q| 2 * q + 1 > n) {
                    q = q.map(|q| n - 1 - q);
                    rows.reverse();
                }
                let split = q.map_or(0, |q| q);
                let weight = transpose_weight(columns, q);
                if weight > 0 {
                    let west_rows = rows
                        .iter()
                        .enumerate()
                        .filter(|&(_, &row)| usize::from(columns[row]) < n / 2)
                        .fold(0u32, |set, (new_row, _)| set | 1 << new_row);
                    let smallest = smallest_image(&splits[split], west_rows);
                    let len = splits[split]
                        .piece_len(splits.len())
                        .min(splits[split].rows);
                    let pattern = (0..len).fold(0usize, |pattern, i| {
                        pattern | ((smallest >> splits[split].row_at(i) & 1) as usize) << i
                    });
                    let chunk = at[split][pattern];
                    assert_ne!(chunk, usize::MAX, "a chunk for every smallest row set");
                    expected[chunk] += weight;
                }
                ControlFlow::Continue(())
            };
            let walked = crate::kernel::symmetric::Symmetric::new()
                .unwrap()
                .for_each_solution(n, &mut visit);
            assert!(walked.unwrap().is_continue());
            let mut scratch = Scratch::default();
            let mut quarters = HeldQuarters::new(0);
            for (&(s, chunk), &want) in chunks.iter().zip(&expected) {
                let got = Join(())
                    .count_chunk(&splits[s], &mut quarters, &chunk, &mut scratch)
                    .unwrap();
                assert_eq!(got, want, "n = {n}, middle row {s}, chunk {chunk:?}");
            }
        }
    }

    /// What the transpose makes of a solution (queen columns `columns`,
    /// row by row) as its split counts it (`q`: the middle column's queen's
    /// row, flipped to the top half, for odd N): for odd N off the centre,
    /// 2 if the middle row's queen is further from the centre than the
    /// middle column's, else 0; for even N, 2 with queens on both long
    /// diagonals in one half, 0 with them in different halves; else 1.
    fn transpose_weight(columns: &[u8], q: Option<usize>) -> Count {
        let n = columns.len();
        match q {
            Some(q) if 2 * q + 1 != n => {
                let centre = n / 2;
                let p = usize::from(columns[centre]);
                if p.abs_diff(centre) > q.abs_diff(centre) {
                    2
                } else {
                    0
                }
            }
            None if n >= 4 => {
                // The halves of the queens on the main diagonal
                // (row = column) and the anti-diagonal.
                let half = |column: usize| usize::from(column >= n / 2);
                let on = |diagonal: &dyn Fn(usize) -> usize| {
                    (0..n)
                        .find(|&r| usize::from(columns[r]) == diagonal(r))
                        .map(|r| half(diagonal(r)))
                };
                match (on(&|r| r), on(&|r| n - 1 - r)) {
                    (Some(a), Some(b)) if a == b => 2,
                    (Some(_), Some(_)) => 0,
                    _ => 1,
                }
            }
            _ => 1,
        }
    }

    /// Every row set's cut bits chosen for it (`cuts::chosen`), as many
    /// as its lists allow: the path that boards below N = 20 never take
    /// with the tuned policy, on boards small enough to count here, on
    /// every join kernel this CPU runs.
    #[test]
    fn cut_bits_chosen_per_row_set_count_right() {
        let largest = if cfg!(debug_assertions) { 10 } else { 13 };
        let policy = cuts::Policy {
            items_per_cut: 1,
            chosen_from: 0,
        };
        for n in 0..=largest {
            let want = crate::kernel::portable::oracle_count(n);
            let scratch = || Scratch {
                policy,
                ..Scratch::default()
            };
            for joiner in joiners() {
                assert_eq!(
                    count_with(joiner, n, scratch()).unwrap(),
                    want,
                    "{}, n = {n}",
                    joiner.kernel()
                );
            }
        }
    }

    /// Every width of band the kernels could place first, on every board
    /// small enough to count here: the splits of its classes, their
    /// weights, the row sets their stabilizers fold, the transpose's
    /// closed squares and long diagonals all add up to the board's count,
    /// with the tuned sieve and with one that chooses every row set's cut
    /// bits.
    #[test]
    fn every_band_width_counts_right() {
        let largest = match (cfg!(debug_assertions), long_tests()) {
            (true, _) => 10,
            (false, false) => 12,
            (false, true) => 14,
        };
        let every_row_set = cuts::Policy {
            items_per_cut: 1,
            chosen_from: 0,
        };
        for n in 0..=largest {
            let want = crate::kernel::portable::oracle_count(n);
            for width in (n % 2..=band::MAX_BAND.min(n)).step_by(2) {
                for policy in [cuts::Policy::TUNED, every_row_set] {
                    let scratch = Scratch {
                        policy,
                        ..Scratch::default()
                    };
                    let bands = band::bands_of_width(n, width);
                    assert_eq!(
                        count_bands(&Join(()), n, bands, scratch).unwrap(),
                        want,
                        "n = {n}, a band of {width}, {policy:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_portable_matcher_agrees_with_testing_every_pair() {
        let mut scratch = Scratch::default();
        matcher::check_against_the_oracle(|items, patterns, weighing| {
            Join(()).disjoint_pairs(items, patterns, weighing, &mut scratch)
        });
    }
}
