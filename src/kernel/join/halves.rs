//! The half-boards of one row set, joined from quarter-boards.
//!
//! A half-board of `side` on rows `S` is a north quarter-board on the
//! rows of `S` above [`super::split::Split::line`] and a south one on the
//! rest, on complementary columns of the half, whose queens share no inner
//! diagonal. For each column set `C` the north quarter holds on its rows,
//! every pair of a north quarter-board on `C` and a south one on the other
//! columns is tested with one AND of their inner bits; each pair that
//! passes is a half-board, kept as the OR of their crossing bits.
//!
//! The half-boards come out filed by class (their cut bits, see
//! [`super::matcher`]), as the matcher takes them.

use alloc::vec::Vec;

use super::cuts::Cuts;
use super::grow;
use super::matcher::Group;
use super::quarters::Quarters;
use super::split::Side;
use super::words::PatternWords;
use crate::Error;

/// Half-boards of one side, filed by class: those of class `c` are
/// `masks[starts[c]..starts[c + 1]]`.
#[derive(Default)]
pub(crate) struct Filed {
    /// The half-boards as joined, the first `len` of `joined`.
    joined: Vec<u64>,
    len: usize,
    /// By class, once filed by more than one class.
    masks: Vec<u64>,
    /// `2^cuts + 1` of them: where each class starts, then the end.
    starts: Vec<usize>,
    /// Four counts per class, interleaved, as filing counts them, then
    /// the next free place of each of the four as it fills.
    counts: Vec<[usize; 4]>,
    /// How many cut bits they are filed by.
    cuts: usize,
}

impl Filed {
    /// Joins the half-boards of `side` on rows `rows` (a board row set).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for the pairs is refused (they
    /// grow about three times per N: `memory::half_boards`).
    ///
    /// # Safety
    ///
    /// The CPU runs `W`'s instructions.
    #[inline(always)]
    pub(crate) unsafe fn join<W: PatternWords>(
        &mut self,
        quarters: &Quarters,
        side: Side,
        rows: u32,
    ) -> Result<(), Error> {
        let (north, south) = quarters.of(side);
        let (north_set, south_set) = (north.compact(rows), south.compact(rows));
        let all = north.all_columns();
        // Room for every pair, so that the joins below may write each
        // before they know whether to keep it, and 8 more; and for one
        // class. The buffer only grows: what it held before is
        // overwritten, not cleared.
        let mut room = 8;
        for &columns in north.columns_of(north_set) {
            room +=
                north.range(north_set, columns).len() * south.range(south_set, all ^ columns).len();
        }
        grow::at_least(&mut self.joined, room, 0)?;
        grow::reserve(&mut self.starts, 2)?;
        let out = self.joined.as_mut_ptr();
        let mut len = 0;
        for &columns in north.columns_of(north_set) {
            let south_range = south.range(south_set, all ^ columns);
            if south_range.is_empty() {
                continue;
            }
            let (south_inner, south_crossing) = (
                &south.inner[south_range.clone()],
                &south.crossing[south_range],
            );
            for at in north.range(north_set, columns) {
                // SAFETY: the CPU runs `W`'s instructions; `room` counts
                // every pair, so `len` plus this north quarter-board's
                // pairs plus 8 is within `joined`.
                len += unsafe {
                    W::join_pairs(
                        north.inner[at],
                        north.crossing[at],
                        south_inner,
                        south_crossing,
                        out.add(len),
                    )
                };
            }
        }
        self.len = len;
        self.cuts = 0;
        self.starts.clear();
        self.starts.extend([0, len]);
        Ok(())
    }

    /// How many half-boards the last join found.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The half-boards as joined, in no order (before they are filed).
    pub(crate) fn joined(&self) -> &[u64] {
        &self.joined[..self.len]
    }

    /// Files the joined half-boards by their class of `cuts` (no cut bit:
    /// one class, as joined): a count of each class, then each mask to its
    /// class's place, its class read again (`W::class`: cheaper than
    /// storing it). Both passes take the masks four at a time, each of the
    /// four with counts and places of its own ([`count_by`],
    /// [`scatter_by`]).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for the filed half-boards (as
    /// many as joined) is refused, or that of the counts and starts
    /// (`2^cuts` each: kilobytes, but asked for between the large buffers,
    /// where the memory may just have run out).
    ///
    /// # Safety
    ///
    /// The CPU runs `W`'s instructions.
    #[inline(always)]
    pub(crate) unsafe fn file<W: PatternWords>(&mut self, cuts: &Cuts) -> Result<(), Error> {
        let classes = 1 << cuts.len();
        grow::reserve(&mut self.starts, classes + 1)?;
        self.cuts = cuts.len();
        self.starts.clear();
        self.starts.push(0);
        if cuts.len() == 0 {
            self.starts.push(self.len);
            return Ok(());
        }
        grow::at_least(&mut self.masks, self.len, 0)?;
        grow::refill(&mut self.counts, classes, [0; 4])?;
        // SAFETY: `W::class` asks only that the CPU runs `W`'s instructions
        // (BMI2's `pext` for `__m512i`, which a `JoinAvx512` proves), as this
        // function's caller vouches.
        let class = |mask| unsafe { W::class(cuts, mask) };
        let joined = &self.joined[..self.len];
        count_by(joined, &mut self.counts, class);
        for count in &self.counts {
            let start = self.starts[self.starts.len() - 1];
            self.starts.push(start + count.iter().sum::<usize>());
        }
        places_from(&mut self.counts, &self.starts);
        scatter_by(joined, &mut self.masks[..self.len], &mut self.counts, class);
        Ok(())
    }

    /// The half-boards, by class.
    pub(crate) fn group(&self) -> Group<'_> {
        let masks = if self.cuts == 0 {
            &self.joined[..self.len]
        } else {
            &self.masks[..self.len]
        };
        Group {
            masks,
            starts: &self.starts,
            cuts: self.cuts,
        }
    }
}

/// Adds to `counts[key(mask)][i % 4]` one for each mask `i` of `masks`:
/// four counts per key, so that an increment never waits for the one
/// before (consecutive masks often share a key).
#[inline(always)]
fn count_by(masks: &[u64], counts: &mut [[usize; 4]], key: impl Fn(u64) -> usize) {
    let mut fours = masks.chunks_exact(4);
    for four in &mut fours {
        for (lane, &mask) in four.iter().enumerate() {
            counts[key(mask)][lane] += 1;
        }
    }
    for (lane, &mask) in fours.remainder().iter().enumerate() {
        counts[key(mask)][lane] += 1;
    }
}

/// Turns the four counts of each key into the four's first places: key
/// `k`'s from `starts[k]`, one lane's after the other's.
#[inline(always)]
fn places_from(counts: &mut [[usize; 4]], starts: &[usize]) {
    for (count, &start) in counts.iter_mut().zip(starts) {
        let mut next = start;
        for lane in count.iter_mut() {
            (*lane, next) = (next, next + *lane);
        }
    }
}

/// Writes each mask `i` of `from` to `to` at the next place of lane `i % 4`
/// of its key ([`places_from`]).
#[inline(always)]
fn scatter_by(from: &[u64], to: &mut [u64], places: &mut [[usize; 4]], key: impl Fn(u64) -> usize) {
    let mut fours = from.chunks_exact(4);
    for four in &mut fours {
        for (lane, &mask) in four.iter().enumerate() {
            let slot = &mut places[key(mask)][lane];
            to[*slot] = mask;
            *slot += 1;
        }
    }
    for (lane, &mask) in fours.remainder().iter().enumerate() {
        let slot = &mut places[key(mask)][lane];
        to[*slot] = mask;
        *slot += 1;
    }
}
