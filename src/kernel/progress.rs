//! What a count of a plan's pieces reports as it goes ([`Progress`]), and
//! what it was handed of pieces begun by an earlier run ([`InFlight`]).
//!
//! A join piece is thousands of row sets at the largest N (hours of one
//! core at N = 28), so a count cuts it into *parts*: ranges of its row
//! sets, numbered from 0 in the order its chunk lists them
//! (`join::split::Chunk::row_sets`), dealt to the threads so that every
//! thread works on the piece in hand. Each part's count is reported as it
//! finishes, so that a checkpoint keeps how far each piece has got, and a
//! stop loses only the parts in flight. A symmetric piece is small and is
//! counted whole: only [`Progress::Done`] is reported for it.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::ops::Range;

use crate::Count;

/// What a count reports on the calling thread as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// Row sets `rows` of the `of` of subproblem `index` are counted:
    /// `count` is their share. Join pieces only.
    Part {
        /// The subproblem's number in its plan.
        index: usize,
        /// Which of its row sets.
        rows: Range<u32>,
        /// How many row sets it has in all.
        of: u32,
        /// Their solutions.
        count: Count,
    },
    /// Subproblem `index` is finished: `count` is its whole share, the
    /// parts counted by earlier runs ([`InFlight`]) included.
    Done {
        /// The subproblem's number in its plan.
        index: usize,
        /// Its solutions.
        count: Count,
    },
    /// Nothing finished since the last report, and the count goes on: sent
    /// now and then while threads count (each time the calling thread
    /// wakes to collect their results), so that a caller can show that it
    /// is alive (a checkpoint's heartbeat).
    Alive,
}

/// The row sets of one piece counted so far, and their count: what a
/// checkpoint keeps of a piece in flight.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartsDone {
    of: u32,
    /// Sorted, disjoint and not touching: touching ranges are joined.
    ranges: Vec<Range<u32>>,
    count: Count,
}

impl PartsDone {
    /// None of a piece of `of` row sets.
    pub fn new(of: u32) -> PartsDone {
        PartsDone {
            of,
            ranges: Vec::new(),
            count: 0,
        }
    }

    /// Adds row sets `rows`, whose share is `count`.
    ///
    /// # Errors
    ///
    /// A description, if `rows` is empty, past the piece's row sets, or
    /// holds some already added, or if the count overflows: a checkpoint
    /// that says so is not one a count wrote.
    pub fn add(&mut self, rows: Range<u32>, count: Count) -> Result<(), &'static str> {
        if rows.start >= rows.end || rows.end > self.of {
            return Err("a range of row sets that is empty or past the piece's");
        }
        let at = self.ranges.partition_point(|done| done.end <= rows.start);
        if self
            .ranges
            .get(at)
            .is_some_and(|next| next.start < rows.end)
        {
            return Err("row sets counted twice");
        }
        self.count = self.count.checked_add(count).ok_or("a count past 2^128")?;
        self.ranges.insert(at, rows);
        // Joined with the neighbours it touches.
        if at + 1 < self.ranges.len() && self.ranges[at].end == self.ranges[at + 1].start {
            self.ranges[at].end = self.ranges.remove(at + 1).end;
        }
        if at > 0 && self.ranges[at - 1].end == self.ranges[at].start {
            self.ranges[at - 1].end = self.ranges.remove(at).end;
        }
        Ok(())
    }

    /// How many row sets the piece has.
    pub fn of(&self) -> u32 {
        self.of
    }

    /// The row sets counted, as sorted ranges that do not touch.
    pub fn ranges(&self) -> &[Range<u32>] {
        &self.ranges
    }

    /// How many row sets are counted.
    pub fn len(&self) -> u32 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Their share of the piece's count.
    pub fn count(&self) -> Count {
        self.count
    }

    /// The row sets still to count, as sorted ranges.
    pub fn todo(&self) -> Vec<Range<u32>> {
        let mut todo = Vec::new();
        let mut from = 0;
        for done in &self.ranges {
            if from < done.start {
                todo.push(from..done.start);
            }
            from = done.end;
        }
        if from < self.of {
            todo.push(from..self.of);
        }
        todo
    }
}

/// The pieces an earlier run began and did not finish, by subproblem
/// number: handed to a count so that it counts only their other row sets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InFlight {
    pieces: BTreeMap<usize, PartsDone>,
}

impl InFlight {
    /// None.
    pub fn new() -> InFlight {
        InFlight::default()
    }

    /// What is done of subproblem `index`, if it was begun.
    pub fn get(&self, index: usize) -> Option<&PartsDone> {
        self.pieces.get(&index)
    }

    /// Records `parts` of subproblem `index` (replacing what was there).
    pub fn insert(&mut self, index: usize, parts: PartsDone) {
        self.pieces.insert(index, parts);
    }

    /// Forgets subproblem `index` (finished), returning what it held.
    pub fn remove(&mut self, index: usize) -> Option<PartsDone> {
        self.pieces.remove(&index)
    }

    /// Adds the part `rows` of `of` of subproblem `index`, whose share is
    /// `count` (the piece begun if it was not).
    ///
    /// # Errors
    ///
    /// As [`PartsDone::add`], and if the piece was begun with another
    /// number of row sets.
    pub fn add(
        &mut self,
        index: usize,
        rows: Range<u32>,
        of: u32,
        count: Count,
    ) -> Result<(), &'static str> {
        let parts = self
            .pieces
            .entry(index)
            .or_insert_with(|| PartsDone::new(of));
        if parts.of != of {
            return Err("a piece whose number of row sets changed");
        }
        parts.add(rows, count)
    }

    /// The pieces begun, by number.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &PartsDone)> {
        self.pieces.iter().map(|(&index, parts)| (index, parts))
    }

    /// How many pieces are begun.
    pub fn len(&self) -> usize {
        self.pieces.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The sum of their parts' counts.
    pub fn count(&self) -> Count {
        self.pieces.values().map(PartsDone::count).sum()
    }
}

#[cfg(test)]
mod tests {
    // One range in a list is what the lists here hold.
    #![allow(clippy::single_range_in_vec_init)]
    use super::*;

    #[test]
    fn parts_join_and_leave_the_rest_to_do() {
        let mut parts = PartsDone::new(10);
        assert_eq!(parts.todo(), [0..10]);
        parts.add(4..6, 3).unwrap();
        parts.add(0..2, 1).unwrap();
        assert_eq!(parts.ranges(), [0..2, 4..6]);
        assert_eq!(parts.todo(), [2..4, 6..10]);
        parts.add(2..4, 5).unwrap();
        assert_eq!(parts.ranges(), [0..6]);
        assert_eq!((parts.len(), parts.count()), (6, 9));
        parts.add(6..10, 0).unwrap();
        assert_eq!(parts.ranges(), [0..10]);
        assert!(parts.todo().is_empty());
    }

    #[test]
    fn overlapping_empty_or_outside_parts_are_refused() {
        let mut parts = PartsDone::new(10);
        parts.add(3..6, 1).unwrap();
        for bad in [5..7, 2..4, 3..6, 0..10, 4..4, 9..11] {
            assert!(parts.add(bad.clone(), 1).is_err(), "{bad:?}");
        }
        assert_eq!((parts.ranges(), parts.count()), (&[3..6][..], 1));
        let mut pieces = InFlight::new();
        pieces.add(7, 0..1, 4, 2).unwrap();
        assert!(pieces.add(7, 1..2, 5, 2).is_err());
        assert_eq!(pieces.count(), 2);
    }
}
