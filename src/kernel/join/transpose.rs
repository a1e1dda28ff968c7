//! The transpose, which does not keep the halves, used all the same: a
//! weight `f` on solutions with `f(s) + f(T(s)) = 2` for the transpose `T`
//! adds up to the count over every solution, and where `f` is 0 for half
//! of them, the join skips that half. Each way below keeps what the flip
//! and the mirror do to a solution (`f` is the same on its images), so
//! the splits' bands and row sets still fold by them.
//!
//! * **Odd N** ([`close_nearer_than_middle`]): `T` swaps the middle
//!   column's queen, in row `q` at distance `d` from the centre, with the
//!   middle row's, in column `p`. Every solution without a queen in the
//!   centre has `p` at another distance than `d` (at the same one the two
//!   queens share a diagonal), and of a solution and its transpose
//!   exactly one has the middle row's queen further out: a split off the
//!   centre keeps only those (2), closing the middle row's squares nearer
//!   the centre.
//! * **Even N** ([`weigh_long_diagonals`]): `T` leaves the main diagonal
//!   in place and swaps the halves of the anti-diagonal: of a solution with
//!   queens on both and its transpose, exactly one has them in one half
//!   (the band's west columns in the west half). Such a solution counts
//!   twice, one with the two queens in different halves not at all, and
//!   the matcher weighs the pairs by the long diagonals' bits
//!   ([`LongDiagonals`]). This saves only a tenth: few solutions have
//!   queens on both.
//!
//! * **Even N with a band of two** ([`MiddleRows`]): `T` also swaps the
//!   band's two queens (columns `n/2 - 1` and `n/2`, in rows at distances
//!   `b1 >= b2` from the centre) with the queens of the two middle rows
//!   (rows `n/2 - 1` and `n/2`, in columns at distances `m1 >= m2`), and
//!   the side of the centre column a middle row's queen stands on with
//!   the side of the centre row of the band queen it becomes. Of the
//!   solutions the long diagonals weigh 1 (they decide first, as their
//!   closed squares already have), those with the band's queens on one
//!   side and the middle rows' on one side weigh 2, 1 or 0 as `(m1, m2)`
//!   is further out than `(b1, b2)` (compared as words), as far, or
//!   nearer; those with only the band's on one side 0, only the middle
//!   rows' 2, neither 1 ([`TagWeights::of`]). The flip and the mirror keep
//!   every side and distance, so the folding holds. A row set says which
//!   half holds each middle row, so only the first case needs more: a tag
//!   on the crossing bits of each middle row's square ([`TAG_SHIFT`]), how
//!   its queen stands against `b1` and `b2`, by which the half that holds
//!   both middle rows files its half-boards, so that the matcher never
//!   scans pairs of weight 0.
//!
//! Tried and dropped: cutting the half-boards by their middle rows'
//! columns as cases of a split (shorter lists that lost the sieve as many
//! pairs as the weight saved, and three times the tables, at N = 24); and
//! weighing every row set by the distances, both halves filed by tag (a
//! quarter fewer pairs scanned at N = 24 to 28, and 1.06 to 1.55 times the
//! joins' time: the items' classes, cut five ways, no longer shared their
//! runs and tables of ORs).

use super::band::Band;
use crate::MAX_N;

/// Where a middle row's tag starts in a crossing mask: two fields of
/// three bits, row `n/2 - 1`'s then row `n/2`'s, just below the split's
/// ranked cut bits (`split::RANKED`), where the crossing bits of a board
/// up to 32x32 with a band of two never reach (58 of them at most, 48 of
/// them below the ranked ten).
pub(crate) const TAG_SHIFT: u32 = 48;

/// The bits of both tags.
pub(crate) const TAG_MASK: u64 = 0x3f << TAG_SHIFT;

/// The most tags a side's half-boards are filed by: further, as far and
/// nearer, where one side holds both middle rows (`TagWeights::of`).
pub(crate) const MAX_TAGS: usize = 3;

/// For odd `n` (see the module): closes the middle row's squares nearer
/// the centre than the middle column's queen, or none if that queen is the
/// centre's; returns the split's weight from the transpose: 1 for the
/// centre, 2 off it, and if the band holds the middle row's queen, 2 if it
/// stands further out than the middle column's, else 0.
pub(crate) fn close_nearer_than_middle(n: usize, band: &Band, open: &mut [u32; MAX_N]) -> u32 {
    let centre = n / 2;
    let Some((q, _)) = band.queens(n).find(|&(_, column)| column == centre) else {
        return 1;
    };
    if q == centre {
        return 1;
    }
    let distance = q.abs_diff(centre);
    if let Some((_, p)) = band.queens(n).find(|&(row, _)| row == centre) {
        return if p.abs_diff(centre) > distance { 2 } else { 0 };
    }
    for (column, rows) in open.iter_mut().enumerate().take(n) {
        if column.abs_diff(centre) <= distance {
            *rows &= !(1 << centre);
        }
    }
    2
}

/// For even `n` from 4 (see the module): how the split
/// weighs pairs by the long diagonals, its weight from them, and the
/// diagonals the matcher weighs, by id (falling `r - c + n - 1`, rising
/// `2n - 1 + r + c`, as `split::crossing_bits` numbers them): both if the
/// band holds neither's queen; if it holds one's, the other, whose squares
/// in the half opposite that queen are closed; if it holds both, none, and
/// the split counts twice (one half holds both) or not at all.
pub(crate) fn weigh_long_diagonals(
    n: usize,
    band: &Band,
    open: &mut [u32; MAX_N],
) -> (LongDiagonals, u32, [Option<usize>; 2]) {
    let half_of = |column: usize| usize::from(column >= n / 2);
    let main = band
        .queens(n)
        .find(|&(r, c)| r == c)
        .map(|(_, c)| half_of(c));
    let anti = band
        .queens(n)
        .find(|&(r, c)| r + c == n - 1)
        .map(|(_, c)| half_of(c));
    let (main_id, anti_id) = (n - 1, 2 * n - 1 + n - 1);
    match (main, anti) {
        (None, None) => (LongDiagonals::Both, 1, [Some(main_id), Some(anti_id)]),
        (Some(a), Some(b)) => (
            LongDiagonals::Unweighed,
            if a == b { 2 } else { 0 },
            [None; 2],
        ),
        (Some(half), None) | (None, Some(half)) => {
            let anti_free = main.is_some();
            for (column, rows) in open.iter_mut().enumerate().take(n) {
                if half_of(column) != half {
                    let row = if anti_free { n - 1 - column } else { column };
                    *rows &= !(1 << row);
                }
            }
            let id = if anti_free { anti_id } else { main_id };
            (LongDiagonals::One, 1, [Some(id), None])
        }
    }
}

/// How the pairs of a split are weighed by the board's two long diagonals,
/// the transpose's use for even `n` (see `Split::new`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LongDiagonals {
    /// Not at all: odd `n`, or a band that holds both long diagonals'
    /// queens (the split's weight says what they make of it).
    Unweighed,
    /// By both, the top two cut bits (main above anti): a pair counts twice
    /// if one half holds the queens of both, not at all if the halves hold
    /// one each.
    Both,
    /// By one, the top cut bit: the band holds the other's queen, and the
    /// squares of this one in the half that does not hold it are closed; a
    /// pair with a queen on it counts twice.
    One,
}

impl LongDiagonals {
    /// How many top cut bits it weighs by.
    pub(crate) fn bits(self) -> usize {
        match self {
            LongDiagonals::Unweighed => 0,
            LongDiagonals::One => 1,
            LongDiagonals::Both => 2,
        }
    }

    /// Those bits, at the top of a mask.
    pub(crate) fn mask(self) -> u64 {
        match self.bits() {
            0 => 0,
            bits => u64::MAX << (64 - bits),
        }
    }
}

/// The band's rule for even `n` with a band of two (see the module): how
/// far out the band's queens stand, and the middle rows' queens the band
/// holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MiddleRows {
    /// The band's queens' distances from the centre row, `|2r - (n - 1)|`,
    /// the larger first.
    band: [u32; 2],
    /// Per middle row (`n/2 - 1`, `n/2`): the tag of its queen where the
    /// band holds it, else 0.
    held: [u8; 2],
    /// The middle rows.
    rows: [usize; 2],
    /// Per middle row the band holds: bit `i` if its queen is in the
    /// band's west column.
    held_west: u8,
    /// Whether the band's queens are both north of the centre or both
    /// south.
    band_one_side: bool,
}

impl MiddleRows {
    /// The rule for `band`'s split of an even `n`, if the band has two
    /// queens and the long diagonals leave some pairs to it (weight 1).
    pub(crate) fn of(n: usize, band: &Band, diagonals: LongDiagonals) -> Option<MiddleRows> {
        if n % 2 == 1 || band.len() != 2 || diagonals == LongDiagonals::Unweighed {
            return None;
        }
        let distance = |at: usize| (2 * at).abs_diff(n - 1) as u32;
        let mut queens = band.queens(n);
        let (first, second) = (queens.next()?, queens.next()?);
        let (a, b) = (distance(first.0), distance(second.0));
        let mut rule = MiddleRows {
            band: [a.max(b), a.min(b)],
            held: [0; 2],
            rows: [n / 2 - 1, n / 2],
            held_west: 0,
            band_one_side: (first.0 < n / 2) == (second.0 < n / 2),
        };
        for (row, column) in [first, second] {
            if let Some(i) = rule.rows.iter().position(|&middle| middle == row) {
                rule.held[i] = rule.tag(distance(column));
                rule.held_west |= u8::from(column < n / 2) << i;
            }
        }
        Some(rule)
    }

    /// Whether the solutions whose middle rows' queens the west half holds
    /// as `west` (bit `i`: middle row `i`) and the east as `east` have
    /// both on one side of the centre column (in one half, or one in the
    /// band's column on that side).
    pub(crate) fn middle_one_side(&self, west: u8, east: u8) -> bool {
        let held = u8::from(self.held[0] != 0) | u8::from(self.held[1] != 0) << 1;
        let west_side = west | (held & self.held_west);
        let east_side = east | (held & !self.held_west);
        west_side == 0 || east_side == 0
    }

    /// Whether the band's queens are both north of the centre or both
    /// south.
    pub(crate) fn band_one_side(&self) -> bool {
        self.band_one_side
    }

    /// The tag of a middle row's queen at distance `x` from the centre
    /// column: 1 further out than `b1`, 2 at `b1`, 3 between, 4 at `b2`,
    /// 5 nearer than `b2` (never 3 or 4 when `b1 = b2`).
    pub(crate) fn tag(&self, x: u32) -> u8 {
        let [b1, b2] = self.band;
        match x {
            _ if x > b1 => 1,
            _ if x == b1 => 2,
            _ if x > b2 => 3,
            _ if x == b2 => 4,
            _ => 5,
        }
    }

    /// Adds each middle row's tag to the crossing bits of its squares in
    /// the halves (`columns`), at [`TAG_SHIFT`]: only where the band's
    /// queens are on one side, the only splits that compare distances.
    pub(crate) fn mark(
        &self,
        n: usize,
        columns: impl Iterator<Item = usize> + Clone,
        crossing: &mut [[u64; MAX_N]; MAX_N],
    ) {
        if !self.band_one_side {
            return;
        }
        for (i, &row) in self.rows.iter().enumerate() {
            if self.held[i] != 0 {
                continue;
            }
            for column in columns.clone() {
                let tag = self.tag((2 * column).abs_diff(n - 1) as u32);
                crossing[row][column] |= u64::from(tag) << (TAG_SHIFT + 3 * i as u32);
            }
        }
    }

    /// The weight of a solution whose middle rows' queens have the tags
    /// of `fields` (`mask >> TAG_SHIFT & 0x3f` of its west and its east
    /// half-board, ORed): 2 if they stand further out than the band's
    /// queens, 1 at the same distances, 0 nearer.
    pub(crate) fn weight(&self, fields: u64) -> u8 {
        let [b1, b2] = self.band;
        // Each tag as a distance, doubled, that compares with `2 b1` and
        // `2 b2` as the queen's own does.
        let distance = |tag: u8| match tag {
            1 => 2 * b1 + 1,
            2 => 2 * b1,
            3 => b1 + b2,
            4 => 2 * b2,
            _ => 2 * b2 - 1,
        };
        let tags = [0, 1].map(|i| match self.held[i] {
            0 => (fields >> (3 * i) & 7) as u8,
            held => held,
        });
        let (x, y) = (distance(tags[0]), distance(tags[1]));
        match (x.max(y), x.min(y)).cmp(&(2 * b1, 2 * b2)) {
            core::cmp::Ordering::Greater => 2,
            core::cmp::Ordering::Equal => 1,
            core::cmp::Ordering::Less => 0,
        }
    }

    /// The middle rows.
    pub(crate) fn rows(&self) -> [usize; 2] {
        self.rows
    }

    /// The band's queens' distances from the centre row, the larger first
    /// (for the search of `check.rs`, which needs `std`).
    #[cfg(feature = "std")]
    pub(crate) fn band(&self) -> [u32; 2] {
        self.band
    }
}

/// How one row set's half-boards are filed by their middle rows' tags,
/// and what the band's rule makes of each pair of tags: built per row set
/// from [`MiddleRows`] and which side holds which middle row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TagWeights {
    /// Per side (west, east): a half-board's tag index, by its tag fields
    /// (`mask >> TAG_SHIFT & 0x3f`).
    pub(crate) index: [[u8; 64]; 2],
    /// Per side: how many tag indices.
    pub(crate) tags: [usize; 2],
    /// `weight[west][east]`: the band's weight of a pair of those tag
    /// indices (2, 1 or 0), where the long diagonals weigh it 1.
    pub(crate) weight: [[u8; MAX_TAGS]; MAX_TAGS],
}

impl TagWeights {
    /// No tags: every pair as the long diagonals weigh it.
    pub(crate) const NONE: TagWeights = TagWeights {
        index: [[0; 64]; 2],
        tags: [1; 2],
        weight: [[1; MAX_TAGS]; MAX_TAGS],
    };

    /// The tags of the row set whose middle rows the west half holds as
    /// `west` (bit `i`: middle row `i`) and the east as `east`, under
    /// `rule`. Tag fields of the same weight share an index.
    ///
    /// The transpose maps the side of the centre column that a middle
    /// row's queen stands on to the side of the centre row that the band
    /// queen it becomes stands on. So it maps the solutions with both band
    /// queens on one side and both middle rows' queens on one side
    /// ([`MiddleRows::middle_one_side`]) to each other, and those are
    /// weighed by their distances, through the tags of the side that holds
    /// the middle rows. It swaps those with only the band's queens on one
    /// side (weight 0 here, every pair the long diagonals weigh 1 skipped,
    /// with no tag) and those with only the middle rows' (weight 2). The
    /// rest (neither on one side) it maps to each other, and they weigh 1.
    /// The flip and the mirror keep each side, so the folding holds.
    pub(crate) fn of(rule: &MiddleRows, west: u8, east: u8) -> TagWeights {
        let whole = |weight: u8| TagWeights {
            weight: [[weight; MAX_TAGS]; MAX_TAGS],
            ..TagWeights::NONE
        };
        match (rule.band_one_side(), rule.middle_one_side(west, east)) {
            (true, true) => {}
            (true, false) => return whole(0),
            (false, true) => return whole(2),
            (false, false) => return TagWeights::NONE,
        }
        // Both middle rows on one side: one half holds those the band does
        // not, the other none, so the tagged half's fields alone weigh the
        // pair. Each field (1 to 5 in the field of each middle row held)
        // gets the index of its weight, in the order the weights come.
        let (side, holds) = if west != 0 { (0, west) } else { (1, east) };
        let mut tag_weights = TagWeights::NONE;
        let mut weights = [0u8; MAX_TAGS];
        let mut tags = 0;
        let mut fields = [0u64; 25];
        let mut len = 1;
        for i in (0..2).filter(|i| holds >> i & 1 != 0) {
            let (earlier, before) = (fields, len);
            len = 0;
            for &field in &earlier[..before] {
                for tag in 1..=5u64 {
                    fields[len] = field | tag << (3 * i);
                    len += 1;
                }
            }
        }
        for &field in &fields[..len] {
            let weight = rule.weight(field);
            let at = match weights[..tags].iter().position(|&seen| seen == weight) {
                Some(at) => at,
                None => {
                    weights[tags] = weight;
                    tags += 1;
                    tags - 1
                }
            };
            tag_weights.index[side][field as usize] = at as u8;
        }
        tag_weights.tags[side] = tags;
        for (at, &weight) in weights[..tags].iter().enumerate() {
            let (w, e) = if side == 0 { (at, 0) } else { (0, at) };
            tag_weights.weight[w][e] = weight;
        }
        tag_weights
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule with the band's queens at distances `b1 >= b2` and no middle
    /// row held.
    fn rule(b1: u32, b2: u32) -> MiddleRows {
        MiddleRows {
            band: [b1, b2],
            held: [0; 2],
            rows: [0, 1],
            held_west: 0,
            band_one_side: true,
        }
    }

    /// The tags tell the weight as the distances themselves do: every
    /// pair of distances of the middle rows' queens against every pair of
    /// the band's, on boards up to 32x32 (odd distances up to 31).
    #[test]
    fn the_tags_weigh_as_the_distances_do() {
        let odd = (1..32).step_by(2);
        for b1 in odd.clone() {
            for b2 in odd.clone().filter(|&b2| b2 <= b1) {
                let rule = rule(b1, b2);
                for x in odd.clone() {
                    for y in odd.clone() {
                        let fields = u64::from(rule.tag(x)) | u64::from(rule.tag(y)) << 3;
                        let want = match (x.max(y), x.min(y)).cmp(&(b1, b2)) {
                            core::cmp::Ordering::Greater => 2,
                            core::cmp::Ordering::Equal => 1,
                            core::cmp::Ordering::Less => 0,
                        };
                        assert_eq!(rule.weight(fields), want, "{x}, {y} against {b1}, {b2}");
                    }
                }
            }
        }
    }

    /// One side holding both middle rows files its half-boards by at most
    /// three tags, the other by one; a side on each, or the band's queens
    /// on both sides of the centre, weighs whole row sets (0, 2 or 1)
    /// with no tag.
    #[test]
    fn the_row_sets_weigh_by_the_sides_of_the_centre() {
        let one_side = rule(9, 5);
        let west_both = TagWeights::of(&one_side, 0b11, 0);
        assert_eq!(west_both.tags, [3, 1]);
        let mut weights: Vec<u8> = (0..3).map(|t| west_both.weight[t][0]).collect();
        weights.sort_unstable();
        assert_eq!(weights, [0, 1, 2]);
        assert_eq!(TagWeights::of(&one_side, 0, 0b11).tags, [1, 3]);
        let straddling = TagWeights::of(&one_side, 0b01, 0b10);
        assert_eq!((straddling.tags, straddling.weight[0][0]), ([1, 1], 0));
        let band_across = MiddleRows {
            band_one_side: false,
            ..one_side
        };
        let together = TagWeights::of(&band_across, 0b11, 0);
        assert_eq!((together.tags, together.weight[0][0]), ([1, 1], 2));
        assert_eq!(TagWeights::of(&band_across, 0b10, 0b01), TagWeights::NONE);
    }
}
