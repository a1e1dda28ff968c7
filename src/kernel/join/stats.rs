//! What the joins of some row sets did, added up: the sizes of their lists
//! of half-boards, the pairs the sieve let through to the matcher and the
//! pairs found. `--sample` reports them per row set and projects them over
//! the count, which says what grows with N (BENCHMARKS.md, "What grows").

/// What the join of one or more row sets did, added up (row sets with an
/// empty side are not joined and add nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JoinStats {
    /// Row sets joined.
    pub row_sets: u64,
    /// West half-boards.
    pub west: u64,
    /// East half-boards.
    pub east: u64,
    /// Pairs of a west and an east half-board: `west × east` per row set.
    pub pairs: u64,
    /// The pairs the sieve let through to the matcher: those of classes
    /// that share no cut bit.
    pub scanned: u64,
    /// The lanes of the vectors they were scanned in: `scanned` and the
    /// lanes that held no pattern (a class's last word, a run's last
    /// vector).
    pub lanes: u64,
    /// The pairs that share no bit, unweighed: what the row sets' images
    /// and the transpose's weights turn into solutions.
    pub found: u64,
    /// Cut bits, added up over the row sets.
    pub cuts: u64,
    /// Classes with half-boards, both sides, added up over the row sets.
    pub classes: u64,
}

impl JoinStats {
    /// `self` plus `other`, saturating.
    // For the users of `plan::JoinStats` (with `std`); the kernels, which
    // add up their own counters, never add two whole records.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub fn add(&mut self, other: &JoinStats) {
        let add = |a: &mut u64, b: u64| *a = a.saturating_add(b);
        add(&mut self.row_sets, other.row_sets);
        add(&mut self.west, other.west);
        add(&mut self.east, other.east);
        add(&mut self.pairs, other.pairs);
        add(&mut self.scanned, other.scanned);
        add(&mut self.lanes, other.lanes);
        add(&mut self.found, other.found);
        add(&mut self.cuts, other.cuts);
        add(&mut self.classes, other.classes);
    }
}
