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
use super::transpose::{TAG_MASK, TAG_SHIFT};
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
    /// Four counts per class, interleaved, as filing counts them, and
    /// each class's next free place as it fills.
    counts: Vec<[usize; 4]>,
    next: Vec<usize>,
    /// How many cut bits they are filed by.
    cuts: usize,
    /// How many tags they are filed by, above the cut bits.
    tags: usize,
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
        self.tags = 1;
        self.starts.clear();
        self.starts.extend([0, len]);
        Ok(())
    }

    /// How many half-boards the last join found.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The half-boards as joined, in no order.
    pub(crate) fn joined(&self) -> &[u64] {
        &self.joined[..self.len]
    }

    /// Files the joined half-boards by their class of `cuts` under their
    /// tag (`index[mask >> TAG_SHIFT & 0x3f]`, one of `tags`; no cut bit
    /// and one tag: one class, as joined): a count of each class (four
    /// counts in turn, so that no increment waits for the one before),
    /// then each mask, its tag bits cleared, to its class's next place,
    /// its class read again (`W::class`: cheaper than storing it).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for the filed half-boards (as
    /// many as joined) is refused, or that of the counts, starts and next
    /// places (`tags * 2^cuts` each: kilobytes, but asked for between the
    /// large buffers, where the memory may just have run out).
    ///
    /// # Safety
    ///
    /// The CPU runs `W`'s instructions.
    #[inline(always)]
    pub(crate) unsafe fn file<W: PatternWords>(
        &mut self,
        cuts: &Cuts,
        index: &[u8; 64],
        tags: usize,
    ) -> Result<(), Error> {
        let classes = tags << cuts.len();
        grow::reserve(&mut self.starts, classes + 1)?;
        (self.cuts, self.tags) = (cuts.len(), tags);
        self.starts.clear();
        self.starts.push(0);
        if classes == 1 {
            self.starts.push(self.len);
            return Ok(());
        }
        grow::at_least(&mut self.masks, self.len, 0)?;
        grow::refill(&mut self.counts, classes, [0; 4])?;
        self.next.clear();
        grow::reserve(&mut self.next, classes + 1)?;
        let shift = cuts.len();
        // SAFETY: `W::class` asks only that the CPU runs `W`'s instructions
        // (BMI2's `pext` for `__m512i`, which the 512-bit join kernels' types prove), as this
        // function's caller vouches.
        let cut_class = |mask| unsafe { W::class(cuts, mask) };
        if tags == 1 {
            self.file_by(cut_class);
        } else {
            self.file_by(|mask| {
                usize::from(index[(mask >> TAG_SHIFT & 0x3f) as usize]) << shift | cut_class(mask)
            });
        }
        Ok(())
    }

    /// Files the joined half-boards by `class`, into room already made
    /// (`next` emptied).
    #[inline(always)]
    fn file_by(&mut self, class: impl Fn(u64) -> usize) {
        let joined = &self.joined[..self.len];
        let counts = &mut self.counts;
        let mut fours = joined.chunks_exact(4);
        for four in &mut fours {
            for (lane, &mask) in four.iter().enumerate() {
                counts[class(mask)][lane] += 1;
            }
        }
        for &mask in fours.remainder() {
            counts[class(mask)][0] += 1;
        }
        for (class, count) in counts.iter().enumerate() {
            let count: usize = count.iter().sum();
            self.starts.push(self.starts[class] + count);
        }
        let next = &mut self.next;
        next.extend_from_slice(&self.starts);
        for &mask in joined {
            let slot = &mut next[class(mask)];
            self.masks[*slot] = mask & !TAG_MASK;
            *slot += 1;
        }
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
            tags: self.tags,
        }
    }
}
