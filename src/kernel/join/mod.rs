//! The join kernels: counting by joining half-boards, with no search of
//! the whole board.
//!
//! Cut the board into a west half (columns `0..n/2`) and an east half (the
//! rest; for odd `n`, the columns past the middle one, whose queen is
//! placed first). A solution is a west half-board and an east half-board
//! such that
//! 1. their queens stand in complementary sets of rows, and
//! 2. no west queen shares a diagonal with an east queen.
//!
//! So the count is a sum over the row sets `R` of the west half: find the
//! west half-boards on exactly the rows of `R` and the east ones on the
//! other rows (`halves.rs`), write each as the mask of the diagonals that
//! cross between the halves (at most 62 bits), and count the pairs of
//! masks with no bit in common (`matcher.rs`): pairs of a west and an east
//! half-board that attack nowhere. That last step is where most of the
//! time goes, and it is what the kernels differ in: `join` matches 64
//! patterns per step in plain Rust, `join-avx2` 256 with AVX2.
//!
//! The flip top to bottom and the mirror left to right map row set `R`
//! to others that count the same (`halves::orbit`): each class of row
//! sets is joined once, by its smallest member, and counted for all
//! (about a quarter of the work). The row sets are cut into chunks by
//! their first choices (`halves::Chunk`): independent pieces of work, each
//! holding only its own half-boards.
//!
//! The kernels count; they do not enumerate or find fundamental solutions
//! ([`Error::CountOnly`]). Memory stays small: one chunk's half-boards
//! (about 12 MB at N = 17, measured as the process's peak) and one
//! bit-sliced copy of one row set's at a time.

pub(crate) mod halves;
pub(crate) mod matcher;

#[cfg(simd_kernels)]
pub mod avx2;

use alloc::vec::Vec;
use core::ops::ControlFlow;

use crate::kernel::{Kernel, Solver, Visit};
use crate::{Count, Error};
use halves::{Chunk, Side, Split, orbit};
use matcher::{CLASSES, CUT_SHIFT, Group, Matcher};

/// The `join` kernel: the join with the portable matcher, any target.
#[derive(Clone, Copy, Debug, Default)]
pub struct Join(());

impl Join {
    /// Always `Some`: the portable matcher needs no CPU feature.
    pub fn new() -> Option<Join> {
        Some(Join(()))
    }

    /// This proof as a `'static` solver: what the dispatcher hands out
    /// (the type is zero-sized, so the reference costs nothing).
    pub(crate) fn as_static(self) -> &'static Join {
        &Join(())
    }
}

impl Join {
    /// The count on `threads` threads (see [`crate::Kernel::count_on_threads`]).
    #[cfg(feature = "std")]
    pub(crate) fn count_on_threads(self, n: usize, threads: usize) -> Count {
        count_on_threads(n, threads, matcher::Portable::default)
    }
}

impl Solver for Join {
    fn kernel(&self) -> Kernel {
        Kernel::Join
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        Kernel::Join.check_size(n)?;
        Ok(count(n, &mut matcher::Portable::default()))
    }

    fn for_each_solution(&self, n: usize, _visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        Kernel::Join.check_size(n)?;
        Err(Error::CountOnly(Kernel::Join))
    }
}

/// How many free rows (from the outside in) a chunk decides: two fewer
/// than half up to N = 17, one more for each N past 17. Measured under
/// callgrind at N = 15 and 16, and in time at N = 17, two fewer than half
/// is 2% to 12% faster than half: fewer chunks decide more of their rows
/// in the column search, where the search is cheapest. Past N = 17 each
/// row more halves a chunk's half-boards, which a chunk holds in memory
/// (the half-boards grow about 4.3 times per N), and its row sets fit a
/// bucket array of `16 * 2^(rows - len)` entries.
pub(crate) fn chunk_len(split: &Split) -> usize {
    (split.rows / 2).saturating_sub(2) + split.n.saturating_sub(17)
}

/// Buffers reused from one chunk to the next.
#[derive(Default)]
pub(crate) struct Scratch {
    found: Vec<(u32, u64)>,
    west: Filed,
    east: Filed,
}

/// Half-boards filed by key and, within a key, by class (see
/// [`matcher::CUT_SHIFT`]): those of key `k` and class `c` are
/// `masks[starts[8k + c]..starts[8k + c + 1]]`.
#[derive(Default)]
struct Filed {
    starts: Vec<u32>,
    masks: Vec<u64>,
}

impl Filed {
    /// Files `found` by key and class (a counting sort), keys below `keys`.
    fn file(&mut self, found: &[(u32, u64)], keys: usize) {
        let bucket = |key: u32, mask: u64| key as usize * CLASSES + (mask >> CUT_SHIFT) as usize;
        let buckets = keys * CLASSES;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &(key, mask) in found {
            self.starts[bucket(key, mask) + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        self.masks.clear();
        self.masks.resize(found.len(), 0);
        // `starts[b]` walks through bucket b's places, ending where bucket
        // b + 1 begins; shifted back below.
        for &(key, mask) in found {
            let at = &mut self.starts[bucket(key, mask)];
            self.masks[*at as usize] = mask;
            *at += 1;
        }
        for b in (1..=buckets).rev() {
            self.starts[b] = self.starts[b - 1];
        }
        self.starts[0] = 0;
    }

    /// The half-boards of `key`, by class.
    fn get(&self, key: usize) -> Group<'_> {
        let first = self.starts[key * CLASSES] as usize;
        let starts = core::array::from_fn(|c| self.starts[key * CLASSES + c] as usize - first);
        let end = self.starts[(key + 1) * CLASSES] as usize;
        Group {
            masks: &self.masks[first..end],
            starts,
        }
    }
}

/// The solutions of the row sets of `chunk`, and of those they stand for
/// ([`halves::orbit`]).
pub(crate) fn count_chunk(
    split: &Split,
    chunk: &Chunk,
    matcher: &mut impl Matcher,
    scratch: &mut Scratch,
) -> Count {
    let keys = 1usize << (split.rows - chunk.len);
    for (side, filed) in [
        (Side::West, &mut scratch.west),
        (Side::East, &mut scratch.east),
    ] {
        scratch.found.clear();
        split.halves(side, chunk, &mut scratch.found);
        filed.file(&scratch.found, keys);
    }
    let mut total: Count = 0;
    for key in 0..keys {
        let (west, east) = (scratch.west.get(key), scratch.east.get(key));
        if west.len() == 0 || east.len() == 0 {
            continue;
        }
        // The larger set is sliced: fewer lanes of its last block are empty.
        let (items, patterns) = if west.len() <= east.len() {
            (west, east)
        } else {
            (east, west)
        };
        let images = orbit(split, chunk.rows(split, key as u32));
        debug_assert!(images > 0);
        total += Count::from(images) * Count::from(matcher.disjoint_pairs(items, patterns));
    }
    total
}

/// The number of solutions on an `n`x`n` board, `n` up to 32, on
/// `threads` threads, each with its own matcher from `matcher`: every
/// split's chunks, made two choices finer than on one thread so that there
/// are enough to share, handed out in turn from a shared cursor.
#[cfg(feature = "std")]
pub(crate) fn count_on_threads<M: Matcher>(
    n: usize,
    threads: usize,
    matcher: impl Fn() -> M + Sync,
) -> Count {
    use core::sync::atomic::{AtomicUsize, Ordering};
    if threads <= 1 {
        return count(n, &mut matcher());
    }
    let splits = Split::all(n);
    let work: Vec<(&Split, Chunk)> = splits
        .iter()
        .flat_map(|split| {
            Chunk::all(split, chunk_len(split) + 2)
                .into_iter()
                .map(move |chunk| (split, chunk))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let worker = || {
        let (mut matcher, mut scratch) = (matcher(), Scratch::default());
        let mut total: Count = 0;
        // Relaxed: the cursor only hands out positions; the work list was
        // written before the threads started.
        while let Some((split, chunk)) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
            total += count_chunk(split, chunk, &mut matcher, &mut scratch);
        }
        total
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(work.len()))
            .map(|_| scope.spawn(worker))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .sum()
    })
}

/// The number of solutions on an `n`x`n` board, `n` up to 32.
pub(crate) fn count(n: usize, matcher: &mut impl Matcher) -> Count {
    let mut scratch = Scratch::default();
    let mut total = 0;
    for split in Split::all(n) {
        for chunk in Chunk::all(&split, chunk_len(&split)) {
            total += count_chunk(&split, &chunk, matcher, &mut scratch);
        }
    }
    total
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
        if split.images == halves::Images::FlipAndMirror {
            images.extend([flip(rows), flip(complement)]);
        }
        images.into_iter().min().unwrap()
    }

    /// Each chunk counts exactly the solutions whose west half's row set
    /// (and middle row) it stands for, as the portable kernel lists them.
    #[test]
    fn every_chunk_counts_the_solutions_its_row_sets_stand_for() {
        for n in 2..=11 {
            let splits = Split::all(n);
            let mut expected = Vec::new();
            let mut chunks = Vec::new();
            for (s, split) in splits.iter().enumerate() {
                for chunk in Chunk::all(split, chunk_len(split)) {
                    chunks.push((s, chunk));
                    expected.push(0 as Count);
                }
            }
            for board in crate::Kernel::Portable.solutions(n).unwrap() {
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
                let west_rows = rows
                    .iter()
                    .enumerate()
                    .filter(|&(_, &row)| usize::from(columns[row]) < n / 2)
                    .fold(0u32, |set, (new_row, _)| set | 1 << new_row);
                let smallest = smallest_image(&splits[split], west_rows);
                let chunk = chunks
                    .iter()
                    .position(|&(s, c)| {
                        s == split
                            && (0..c.len).all(|at| {
                                let row = splits[s].row_at(at);
                                (smallest >> row & 1 != 0) == (c.pattern >> at & 1 != 0)
                            })
                    })
                    .expect("a chunk for every smallest row set");
                expected[chunk] += 1;
            }
            let mut scratch = Scratch::default();
            for (&(s, chunk), &want) in chunks.iter().zip(&expected) {
                let mut matcher = matcher::Portable::default();
                let got = count_chunk(&splits[s], &chunk, &mut matcher, &mut scratch);
                assert_eq!(got, want, "n = {n}, middle row {s}, chunk {chunk:?}");
            }
        }
    }

    #[test]
    fn the_portable_matcher_agrees_with_testing_every_pair() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut matcher = matcher::Portable::default();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (items, patterns) in [(0, 5), (3, 0), (1, 1), (7, 63), (9, 64), (5, 65), (40, 300)] {
            let items: Vec<u64> = (0..items).map(|_| next() & next()).collect();
            let patterns: Vec<u64> = (0..patterns).map(|_| next() & next()).collect();
            assert_eq!(
                matcher.disjoint_pairs(
                    matcher::group(&items, &mut a),
                    matcher::group(&patterns, &mut b)
                ),
                matcher::disjoint_pairs_one_by_one(&items, &patterns)
            );
        }
    }
}
