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

use super::matcher::{CLASSES, Group};
use super::quarters::Quarters;
use super::split::Side;
use super::words::PatternWords;

/// Half-boards of one side, filed by class: those of class `c` are
/// `masks[starts[c]..starts[c + 1]]`.
pub(crate) struct Filed {
    /// The half-boards as joined, the first `len` of `joined`.
    joined: Vec<u64>,
    len: usize,
    /// By class, once filed by more than one class.
    masks: Vec<u64>,
    starts: [usize; CLASSES + 1],
    /// How many cut bits they are filed by.
    cuts: usize,
}

impl Default for Filed {
    fn default() -> Filed {
        Filed {
            joined: Vec::new(),
            len: 0,
            masks: Vec::new(),
            starts: [0; CLASSES + 1],
            cuts: 0,
        }
    }
}

impl Filed {
    /// Joins the half-boards of `side` on rows `rows` (a board row set).
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
    ) {
        let (north, south) = quarters.of(side);
        let (north_set, south_set) = (north.compact(rows), south.compact(rows));
        let all = north.all_columns();
        // Room for every pair, so that the joins below may write each
        // before they know whether to keep it, and 8 more. The buffer only
        // grows: what it held before is overwritten, not cleared.
        let mut room = 8;
        for &columns in north.columns_of(north_set) {
            room +=
                north.range(north_set, columns).len() * south.range(south_set, all ^ columns).len();
        }
        if self.joined.len() < room {
            self.joined.resize(room, 0);
        }
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
    }

    /// How many half-boards the last join found.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Files the joined half-boards by their top `cuts` cut bits (none:
    /// one class, as joined): a count of each class (four counts in turn,
    /// so that no increment waits for the one before), then each mask to
    /// its class's next place.
    pub(crate) fn file(&mut self, cuts: usize) {
        self.cuts = cuts;
        if cuts == 0 {
            return;
        }
        let joined = &self.joined[..self.len];
        let shift = 64 - cuts as u32;
        let mut counts = [[0usize; CLASSES]; 4];
        let mut fours = joined.chunks_exact(4);
        for four in &mut fours {
            for (count, &mask) in counts.iter_mut().zip(four) {
                count[(mask >> shift) as usize] += 1;
            }
        }
        for &mask in fours.remainder() {
            counts[0][(mask >> shift) as usize] += 1;
        }
        self.starts[0] = 0;
        for class in 0..CLASSES {
            let count: usize = counts.iter().map(|c| c[class]).sum();
            self.starts[class + 1] = self.starts[class] + count;
        }
        let mut next = self.starts;
        if self.masks.len() < joined.len() {
            self.masks.resize(joined.len(), 0);
        }
        for &mask in joined {
            let slot = &mut next[(mask >> shift) as usize];
            self.masks[*slot] = mask;
            *slot += 1;
        }
    }

    /// The half-boards, by class.
    pub(crate) fn group(&self) -> Group<'_> {
        if self.cuts == 0 {
            let mut starts = [self.len; CLASSES + 1];
            starts[0] = 0;
            Group {
                masks: &self.joined[..self.len],
                starts,
                cuts: 0,
            }
        } else {
            Group {
                masks: &self.masks[..self.len],
                starts: self.starts,
                cuts: self.cuts,
            }
        }
    }
}
