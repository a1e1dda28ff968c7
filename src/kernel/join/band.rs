//! The queens a split places before the join: one in each column of a
//! *band* of middle columns, the halves on either side of it.
//!
//! The join counts pairs of a west and an east half-board whose diagonals
//! do not meet. Its cost grows with the lists of half-boards a row set
//! has, and faster than the solutions once they pass what its sieve can
//! cut (`cuts.rs`): from N = 24, where a half holds twelve queens. Placing
//! the queens of the middle columns first, one split per placement, makes
//! each half narrower (`(n - k) / 2` columns for a band of `k`) and its
//! lists short: more, smaller joins, which the sieve does better. For odd
//! N the middle column is always placed (a band of one, the split of
//! issue 17), for even N none is until [`Band::width`] says so.
//!
//! A placement and its images under the flip top to bottom (V) and the
//! mirror left to right (H) count the same: only the smallest of its
//! class is a split ([`bands`]), counted for the whole class
//! ([`Band::orbit`]). The images that map a placement to itself (its
//! *stabilizer*: all four for the empty band, or for odd N the centre
//! queen alone; the mirror for one queen off the centre; the half-turn VH
//! for some placements of two or more) map the split's row sets among
//! themselves, which the split folds in turn (`split::Images`).

use alloc::vec::Vec;

/// The most queens a band holds.
pub(crate) const MAX_BAND: usize = 5;

/// Queens in the middle columns of a board, one per column, from the
/// band's first column (`(n - k) / 2` for a band of `k`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Band {
    /// The row of each column's queen, first column first.
    rows: [u8; MAX_BAND],
    len: u8,
}

/// Which of the flip (V), the mirror (H) and the half-turn (VH) map a
/// band to itself, besides the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stabilizer {
    /// All of them: the empty band, or a queen in the centre.
    All,
    /// The mirror: one queen off the centre, in the middle column.
    Mirror,
    /// The half-turn: two or more queens, each `(r, c)` matched by one on
    /// `(n - 1 - r, n - 1 - c)`.
    HalfTurn,
    /// None.
    Nothing,
}

impl Band {
    /// How many middle columns an `n`x`n` board places first: none for
    /// even N and one for odd N below [`EVEN_BANDS_FROM`] and
    /// [`ODD_BANDS_FROM`], two and three from there.
    pub(crate) fn width(n: usize) -> usize {
        match (n % 2 == 1, n) {
            (false, n) if n >= EVEN_BANDS_FROM => 2,
            (false, _) => 0,
            (true, n) if n >= ODD_BANDS_FROM => 3,
            (true, _) => 1,
        }
    }

    /// The band of queens in rows `rows`, one per column.
    pub(crate) fn of(rows: &[u8]) -> Band {
        debug_assert!(rows.len() <= MAX_BAND);
        let mut band = Band {
            rows: [0; MAX_BAND],
            len: rows.len() as u8,
        };
        band.rows[..rows.len()].copy_from_slice(rows);
        band
    }

    /// The queens' rows, first column first.
    pub(crate) fn rows(&self) -> &[u8] {
        &self.rows[..usize::from(self.len)]
    }

    /// How many queens (columns).
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The band's first column on an `n`x`n` board: as many columns west
    /// of it as east.
    pub(crate) fn first_column(&self, n: usize) -> usize {
        (n - self.len()) / 2
    }

    /// The queens, `(row, column)`.
    pub(crate) fn queens(&self, n: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let first = self.first_column(n);
        self.rows()
            .iter()
            .enumerate()
            .map(move |(i, &row)| (usize::from(row), first + i))
    }

    /// The rows its queens take, one bit each.
    pub(crate) fn row_set(&self) -> u32 {
        self.rows()
            .iter()
            .fold(0, |set, &row| set | 1 << u32::from(row))
    }

    /// Its images under V, H and VH on an `n`x`n` board.
    fn images(&self, n: usize) -> [Band; 3] {
        let mut flipped = *self;
        for row in &mut flipped.rows[..usize::from(self.len)] {
            *row = (n - 1) as u8 - *row;
        }
        let reversed = |band: &Band| {
            let mut out = *band;
            out.rows[..usize::from(band.len)].reverse();
            out
        };
        [flipped, reversed(self), reversed(&flipped)]
    }

    /// Which images map it to itself on an `n`x`n` board.
    pub(crate) fn stabilizer(&self, n: usize) -> Stabilizer {
        match self.images(n).map(|image| image == *self) {
            [true, true, _] => Stabilizer::All,
            [_, true, _] => Stabilizer::Mirror,
            [_, _, true] => Stabilizer::HalfTurn,
            // A flip alone would need every queen in the centre row.
            _ => Stabilizer::Nothing,
        }
    }

    /// How many placements its class holds: 4 over its stabilizer's size.
    pub(crate) fn orbit(&self, n: usize) -> u32 {
        match self.stabilizer(n) {
            Stabilizer::All => 1,
            Stabilizer::Mirror | Stabilizer::HalfTurn => 2,
            Stabilizer::Nothing => 4,
        }
    }

    /// Whether it is the smallest of its images: the one its class is
    /// counted by.
    fn is_canonical(&self, n: usize) -> bool {
        self.images(n).iter().all(|image| self <= image)
    }

    /// A number that names it among the bands of one board.
    pub(crate) fn key(&self) -> u64 {
        self.rows()
            .iter()
            .fold(u64::from(self.len), |key, &row| key << 8 | u64::from(row))
    }
}

/// From which even N the band holds two queens ([`Band::width`]).
pub(crate) const EVEN_BANDS_FROM: usize = 24;
/// From which odd N it holds three.
pub(crate) const ODD_BANDS_FROM: usize = 25;

/// Every band of [`Band::width`]`(n)` queens on an `n`x`n` board (`n` up
/// to 32) that no two of its queens attack, the smallest of each class
/// only, in ascending order of their rows: the splits of the board.
pub(crate) fn bands(n: usize) -> Vec<Band> {
    bands_of_width(n, Band::width(n))
}

/// [`bands`] with `width` queens (of the parity of `n`, at most
/// [`MAX_BAND`]): what the tests count every width with.
pub(crate) fn bands_of_width(n: usize, width: usize) -> Vec<Band> {
    debug_assert!(width <= MAX_BAND && (n < width || (n - width).is_multiple_of(2)));
    let width = width.min(n);
    let mut out = Vec::new();
    let mut rows = [0u8; MAX_BAND];
    place(n, width, 0, &mut rows, &mut out);
    out
}

/// Places the queen of column `at` of the band (and those after it) in
/// every row no queen before it attacks, pushing each canonical band.
fn place(n: usize, width: usize, at: usize, rows: &mut [u8; MAX_BAND], out: &mut Vec<Band>) {
    if at == width {
        let band = Band::of(&rows[..width]);
        if band.is_canonical(n) {
            out.push(band);
        }
        return;
    }
    for row in 0..n as u8 {
        let attacked = rows[..at]
            .iter()
            .enumerate()
            .any(|(i, &other)| other == row || usize::from(other.abs_diff(row)) == at - i);
        if !attacked {
            rows[at] = row;
            place(n, width, at + 1, rows, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every placement of the band's queens is one class's member: the
    /// classes' orbits add up to them all.
    #[test]
    fn the_classes_cover_every_placement_once() {
        for n in 1..=14 {
            for width in 0..=MAX_BAND.min(n) {
                let mut all = Vec::new();
                let mut rows = [0u8; MAX_BAND];
                // Every placement, canonical or not.
                fn every(
                    n: usize,
                    width: usize,
                    at: usize,
                    rows: &mut [u8; MAX_BAND],
                    out: &mut Vec<Band>,
                ) {
                    if at == width {
                        out.push(Band::of(&rows[..width]));
                        return;
                    }
                    for row in 0..n as u8 {
                        if !rows[..at].iter().enumerate().any(|(i, &other)| {
                            other == row || usize::from(other.abs_diff(row)) == at - i
                        }) {
                            rows[at] = row;
                            every(n, width, at + 1, rows, out);
                        }
                    }
                }
                every(n, width, 0, &mut rows, &mut all);
                let canonical: Vec<Band> = all
                    .iter()
                    .copied()
                    .filter(|band| band.is_canonical(n))
                    .collect();
                let covered: u32 = canonical.iter().map(|band| band.orbit(n)).sum();
                assert_eq!(covered as usize, all.len(), "n = {n}, width {width}");
                // Each placement's class has exactly one canonical member.
                for band in &all {
                    let mut class = band.images(n).to_vec();
                    class.push(*band);
                    class.sort();
                    class.dedup();
                    assert_eq!(class.len() as u32, band.orbit(n), "{band:?}");
                    assert!(canonical.contains(&class[0]));
                }
            }
        }
    }

    #[test]
    fn the_stabilizers_are_found() {
        // The centre queen of a 5x5 board; one off it.
        assert_eq!(Band::of(&[2]).stabilizer(5), Stabilizer::All);
        assert_eq!(Band::of(&[1]).stabilizer(5), Stabilizer::Mirror);
        assert_eq!(Band::of(&[]).stabilizer(6), Stabilizer::All);
        // (1, 2) and (4, 3) on 6x6: each the other's half-turn.
        assert_eq!(Band::of(&[1, 4]).stabilizer(6), Stabilizer::HalfTurn);
        assert_eq!(Band::of(&[0, 4]).stabilizer(6), Stabilizer::Nothing);
        assert_eq!(Band::of(&[0, 2, 4]).stabilizer(5), Stabilizer::HalfTurn);
    }

    #[test]
    fn the_splits_of_a_board_are_its_canonical_bands_in_order() {
        assert_eq!(bands(8), [Band::of(&[])]);
        // Odd N below the threshold: the middle queen, down to the centre.
        let rows: Vec<u8> = bands(9).iter().map(|band| band.rows()[0]).collect();
        assert_eq!(rows, [0, 1, 2, 3, 4]);
        let wide = bands(EVEN_BANDS_FROM);
        assert!(wide.iter().all(|band| band.len() == 2));
        assert!(wide.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(bands(ODD_BANDS_FROM).iter().all(|band| band.len() == 3));
    }
}
