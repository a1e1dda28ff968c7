//! The half-boards: every way to stand one queen in each column of a half
//! (west or east) on some set of rows, none attacking another, each
//! written as the mask of the diagonals it shares with the other half and
//! filed by its row set.
//!
//! A [`Split`] is one way to cut the board: for even `n`, the west half is
//! columns `0..n/2` and the east half the rest; for odd `n`, the middle
//! column's queen is placed first, in row `q`, and the halves are the
//! columns on either side of it, on the rows and squares it leaves free.
//! The row set `R` of the west half decides the east's: every other free
//! row.
//!
//! Rows are decided from the outside in (0, n-1, 1, n-2, ...). That order
//! lets the search keep only the row sets that are the smallest of their
//! class ([`Order`]) as it goes, and its first choices cut the work into
//! independent chunks ([`Chunk`]).

use alloc::vec::Vec;

use super::matcher::{CUT_SHIFT, CUTS};
use crate::MAX_N;

/// West or east.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// The west columns: a queen in every row of `R`.
    West,
    /// The east columns: a queen in every free row not in `R`.
    East,
}

/// Which images of a row set count the same as it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Images {
    /// The flip top to bottom (`flip(R)`), the mirror left to right (the
    /// east's rows, `!R`) and both: for even `n`, and for odd `n` with the
    /// middle queen in the centre, which both leave in place.
    FlipAndMirror,
    /// The mirror only: odd `n` with the middle queen in row `q` above the
    /// centre. The flip maps the split to the one of row `n - 1 - q`,
    /// which is not counted, so every row set stands for twice as many.
    Mirror,
}

/// One way to cut an `n`x`n` board into halves, and the diagonal bits of
/// every square, built once per count (per middle row for odd `n`).
///
/// A west and an east queen can only meet on a diagonal that crosses the
/// line between the halves (for odd `n`, the middle column): those
/// diagonals are the mask's bits, the falling ones (`r - c` constant)
/// first, then the rising ones (`r + c`), at most 62 in all. A queen on a
/// diagonal that does not cross adds no bit: nothing on the other side
/// can meet it there.
pub(crate) struct Split {
    pub(crate) n: usize,
    /// Columns of the west half: `0..west`.
    pub(crate) west: usize,
    /// First column of the east half: `west`, or `west + 1` past the
    /// middle column.
    east: usize,
    pub(crate) images: Images,
    /// The rows either half may use: all but the middle queen's.
    pub(crate) free_rows: u32,
    /// `open[column]`: the rows of the column the middle queen does not
    /// attack.
    open: [u32; MAX_N],
    /// `crossing[row][column]`: the bits of the square's crossing diagonals.
    crossing: [[u64; MAX_N]; MAX_N],
    /// The free rows from the outside in.
    order: [u8; MAX_N],
    /// How many rows are free (and decided).
    pub(crate) rows: usize,
}

impl Split {
    /// Every split of an `n`x`n` board (`n` up to 32): the one of even `n`,
    /// or one per middle row from the top down to the centre for odd `n`.
    pub(crate) fn all(n: usize) -> Vec<Split> {
        debug_assert!(n <= MAX_N);
        if n.is_multiple_of(2) {
            alloc::vec![Split::new(n, None)]
        } else {
            (0..=n / 2).map(|q| Split::new(n, Some(q))).collect()
        }
    }

    fn new(n: usize, middle: Option<usize>) -> Split {
        let west = n / 2;
        let east = west + usize::from(middle.is_some());
        let centre = middle.is_none_or(|q| 2 * q + 1 == n);
        let images = if centre {
            Images::FlipAndMirror
        } else {
            Images::Mirror
        };
        let all = all_rows(n);
        let free_rows = middle.map_or(all, |q| all & !(1 << q));
        let (n_i, west_i) = (n as isize, west as isize);
        let mut open = [0u32; MAX_N];
        let mut crossing = [[0u64; MAX_N]; MAX_N];
        for column in 0..n {
            for (row, squares) in crossing.iter_mut().enumerate().take(n) {
                let (r, c) = (row as isize, column as isize);
                let attacked = middle.is_some_and(|q| {
                    let q = q as isize;
                    r == q || r - c == q - west_i || r + c == q + west_i
                });
                if !attacked {
                    open[column] |= 1 << row;
                }
                // Where the square's diagonals meet the line between the
                // halves: between columns west - 1 and west for even n
                // (n - 1 places each), on the middle column for odd n (n).
                let (falling, rising, places) = if middle.is_some() {
                    (r - c + west_i, r + c - west_i, n_i)
                } else {
                    (r - c + west_i - 1, r + c - west_i, n_i - 1)
                };
                let bits = &mut squares[column];
                if (0..places).contains(&falling) {
                    *bits |= 1 << falling;
                }
                if (0..places).contains(&rising) {
                    *bits |= 1 << (places + rising);
                }
            }
        }
        permute_cut_bits(&open, west, east, n, &mut crossing);
        let mut order = [0u8; MAX_N];
        let mut rows = 0;
        for i in 0..n {
            let row = if i % 2 == 0 { i / 2 } else { n - 1 - i / 2 };
            if free_rows >> row & 1 != 0 {
                order[rows] = row as u8;
                rows += 1;
            }
        }
        Split {
            n,
            west,
            east,
            images,
            free_rows,
            open,
            crossing,
            order,
            rows,
        }
    }

    /// The row decided `i`-th.
    pub(crate) fn row_at(&self, i: usize) -> usize {
        usize::from(self.order[i])
    }

    /// The half-boards of `side` whose row sets agree with `chunk`, as
    /// `(key, mask)`: `mask` its crossing diagonals, `key` the row set's
    /// choices after the chunk's (see [`Chunk::rows`]). Only row sets that
    /// are the smallest of their class are found.
    pub(crate) fn halves(&self, side: Side, chunk: &Chunk, out: &mut Vec<(u32, u64)>) {
        // The rows the chunk puts in R, and those it leaves out.
        let (mut rows_in, mut rows_out) = (0u32, 0u32);
        // Each undecided row's bit in the key.
        let mut key_bit = [0u32; MAX_N];
        for at in 0..self.rows {
            let row = self.row_at(at);
            if at < chunk.len {
                if chunk.pattern >> at & 1 != 0 {
                    rows_in |= 1 << row;
                } else {
                    rows_out |= 1 << row;
                }
            } else {
                key_bit[row] = 1 << (self.rows - 1 - at);
            }
        }
        let undecided = self.free_rows & !rows_in & !rows_out;
        let (columns, required) = match side {
            Side::West => (0..self.west, rows_in),
            Side::East => (self.east..self.n, rows_out),
        };
        let columns = columns.fold(0u32, |set, column| set | 1 << column);
        let mut walk = Walk {
            split: self,
            undecided,
            key_bit,
            // The chunk has settled every comparison: all its row sets are
            // the smallest of their classes.
            check_rows: !chunk.settles(self),
            rows_flip: if side == Side::East {
                self.free_rows
            } else {
                0
            },
            key_flip: match side {
                Side::West => 0,
                Side::East => key_bit.iter().fold(0, |keys, bit| keys | bit),
            },
            out,
        };
        walk.fill_rows(
            required,
            Placed {
                rows: 0,
                columns_left: columns,
                falling_by_row: 0,
                falling_by_column: 0,
                rising: 0,
                mask: 0,
                key: 0,
            },
        );
    }
}

/// The queens a search has placed: rows taken, columns still empty, and
/// the diagonals taken (falling ones `r - c` kept twice, bit
/// `r - c + n - 1` to read the rows of a column, bit `c - r + n - 1` to
/// read the columns of a row; rising ones `r + c` once, bit `r + c`).
#[derive(Clone, Copy)]
struct Placed {
    rows: u32,
    columns_left: u32,
    falling_by_row: u64,
    falling_by_column: u64,
    rising: u64,
    mask: u64,
    key: u32,
}

impl Placed {
    #[inline(always)]
    fn with(self, split: &Split, row: usize, column: usize, key_bit: u32) -> Placed {
        let n = split.n;
        Placed {
            rows: self.rows | 1 << row,
            columns_left: self.columns_left & !(1 << column),
            falling_by_row: self.falling_by_row | 1 << (row + n - 1 - column),
            falling_by_column: self.falling_by_column | 1 << (column + n - 1 - row),
            rising: self.rising | 1 << (row + column),
            mask: self.mask | split.crossing[row][column],
            key: self.key | key_bit,
        }
    }
}

/// The search of one side: first a queen in each row the chunk requires
/// (row by row), then one in each column left (column by column), on the
/// rows the chunk leaves open. Each half-board is found once: its queens
/// on required rows in the first part, the rest in the second.
struct Walk<'a> {
    split: &'a Split,
    /// The free rows the chunk has not decided.
    undecided: u32,
    key_bit: [u32; MAX_N],
    check_rows: bool,
    /// What turns the rows and key of a half-board's own queens into
    /// those of its row set `R`: nothing for the west, the complement
    /// within the free rows and the undecided keys for the east.
    rows_flip: u32,
    key_flip: u32,
    out: &'a mut Vec<(u32, u64)>,
}

impl Walk<'_> {
    /// A queen in each row of `required`, lowest first.
    fn fill_rows(&mut self, required: u32, placed: Placed) {
        if required == 0 {
            self.fill_columns(placed);
            return;
        }
        let n = self.split.n;
        let row = required.trailing_zeros() as usize;
        let attacked =
            (placed.falling_by_column >> (n - 1 - row)) as u32 | (placed.rising >> row) as u32;
        let mut open = placed.columns_left & !attacked;
        while open != 0 {
            let column = open.trailing_zeros() as usize;
            open &= open - 1;
            if self.split.open[column] >> row & 1 == 0 {
                continue;
            }
            self.fill_rows(
                required & (required - 1),
                placed.with(self.split, row, column, 0),
            );
        }
    }

    /// A queen in each column left, lowest first, on undecided rows.
    fn fill_columns(&mut self, placed: Placed) {
        let n = self.split.n;
        if placed.columns_left == 0 {
            // Only for a side with no column to fill.
            self.found(placed.rows, placed.key, placed.mask);
            return;
        }
        let column = placed.columns_left.trailing_zeros() as usize;
        let attacked =
            (placed.falling_by_row >> (n - 1 - column)) as u32 | (placed.rising >> column) as u32;
        let mut open = self.undecided & self.split.open[column] & !placed.rows & !attacked;
        if placed.columns_left & (placed.columns_left - 1) == 0 {
            // The last column: each open row ends a half-board.
            let crossing = &self.split.crossing;
            while open != 0 {
                let row = open.trailing_zeros() as usize;
                open &= open - 1;
                self.found(
                    placed.rows | 1 << row,
                    placed.key | self.key_bit[row],
                    placed.mask | crossing[row][column],
                );
            }
            return;
        }
        while open != 0 {
            let row = open.trailing_zeros() as usize;
            open &= open - 1;
            self.fill_columns(placed.with(self.split, row, column, self.key_bit[row]));
        }
    }

    /// Files a half-board on `rows` (the side's own), unless its row set
    /// is not the smallest of its class.
    #[inline]
    fn found(&mut self, rows: u32, key: u32, mask: u64) {
        // The side's rows are free rows and its key bits undecided ones:
        // the complements are exclusive ors.
        if !self.check_rows || orbit(self.split, rows ^ self.rows_flip) > 0 {
            self.out.push((key ^ self.key_flip, mask));
        }
    }
}

/// How a row set `R` compares so far with the images that would make it
/// not the smallest of its class (see [`Images`]): `!R` (the other free
/// rows), and with the flip, `flip(R)` and `flip(!R)`. Rows are decided
/// in pairs `(j, n - 1 - j)` from the outside in; as numbers, bit `n - 1 - j`
/// of the sets is compared before bit `n - 2 - j`, so each pair settles
/// the comparisons still tied, in order.
#[derive(Clone, Copy, Default)]
pub(crate) struct Order {
    /// Row `j` of the pair being decided is in `R`.
    first_in: bool,
    /// `R < flip(R)` already.
    below_flip: bool,
    /// `R < flip(!R)` already.
    below_flip_complement: bool,
}

impl Order {
    /// The comparison after deciding the `at`-th free row (of the
    /// outside-in order) to be in `R` or not, or `None` if `R` is now
    /// known to be larger than one of its images.
    pub(crate) fn after(self, split: &Split, at: usize, in_rows: bool) -> Option<Order> {
        let row = split.row_at(at);
        if split.images == Images::Mirror {
            // R against !R, which differ in every free row: the highest
            // (row n - 1, never the middle queen's above the centre) decides.
            return (row + 1 != split.n || !in_rows).then_some(self);
        }
        if at.is_multiple_of(2) {
            // Row j = at / 2.
            return Some(Order {
                first_in: in_rows,
                ..self
            });
        }
        // Row n - 1 - j, compared first: bit b of R against bit b of the
        // image, which is row j's bit (flip) or its complement.
        let (a, b) = (self.first_in, in_rows);
        let mut next = self;
        if at == 1 && b {
            // R against !R: they differ in every row, first in row n - 1.
            return None;
        }
        if !self.below_flip && a != b {
            if b {
                return None;
            }
            next.below_flip = true;
        }
        if !self.below_flip_complement && a == b {
            if b {
                return None;
            }
            next.below_flip_complement = true;
        }
        Some(next)
    }
}

/// A chunk of the join: the row sets whose first `len` choices (free rows
/// in the outside-in order) are `pattern`'s bits, bit `i` for the `i`-th.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunk {
    pub(crate) pattern: u32,
    pub(crate) len: usize,
}

impl Chunk {
    /// Every chunk of `len` choices that holds some row set the join
    /// counts (`split.west` rows, the smallest of its class).
    pub(crate) fn all(split: &Split, len: usize) -> Vec<Chunk> {
        let len = len.min(split.rows);
        let mut chunks = Vec::new();
        for pattern in 0u32..1 << len {
            let in_rows = pattern.count_ones() as usize;
            if in_rows > split.west || len - in_rows > split.rows - split.west {
                continue;
            }
            if (Chunk { pattern, len }).order(split).is_some() {
                chunks.push(Chunk { pattern, len });
            }
        }
        chunks
    }

    fn order(&self, split: &Split) -> Option<Order> {
        let mut order = Some(Order::default());
        for at in 0..self.len {
            order = order.and_then(|o| o.after(split, at, self.pattern >> at & 1 != 0));
        }
        order
    }

    /// Whether the chunk's choices already make every row set in it the
    /// smallest of its class (most chunks: the first pair of rows that
    /// differs from its flip settles the comparison).
    pub(crate) fn settles(&self, split: &Split) -> bool {
        match split.images {
            Images::Mirror => self.len >= 2,
            Images::FlipAndMirror => self
                .order(split)
                .is_some_and(|o| o.below_flip && o.below_flip_complement),
        }
    }

    /// The row set of the half-boards filed under `key` in this chunk.
    pub(crate) fn rows(&self, split: &Split, key: u32) -> u32 {
        let mut rows = 0u32;
        for at in 0..split.rows {
            let in_rows = if at < self.len {
                self.pattern >> at & 1 != 0
            } else {
                key >> (split.rows - 1 - at) & 1 != 0
            };
            if in_rows {
                rows |= 1 << split.row_at(at);
            }
        }
        rows
    }
}

/// Moves three crossing diagonals to the masks' top bits, the cut bits of
/// the matcher's sieve ([`CUT_SHIFT`]): those with the most open squares
/// on both sides (product of the two counts), which most half-boards of
/// both sides use. The other bits keep their order below them.
fn permute_cut_bits(
    open: &[u32; MAX_N],
    west: usize,
    east: usize,
    n: usize,
    crossing: &mut [[u64; MAX_N]; MAX_N],
) {
    let mut squares = [[0u32; 64]; 2];
    for column in 0..n {
        let side = usize::from(column >= east);
        if column >= west && column < east {
            continue; // the middle column
        }
        for (row, squares_of_row) in crossing.iter().enumerate().take(n) {
            if open[column] >> row & 1 == 0 {
                continue;
            }
            let mut bits = squares_of_row[column];
            while bits != 0 {
                squares[side][bits.trailing_zeros() as usize] += 1;
                bits &= bits - 1;
            }
        }
    }
    let mut by_use: [(u32, usize); 64] =
        core::array::from_fn(|bit| (squares[0][bit] * squares[1][bit], bit));
    by_use.sort_unstable_by(|a, b| b.cmp(a));
    let cuts: [usize; CUTS] = core::array::from_fn(|i| by_use[i].1);
    // The new place of every bit: the others in order, then the cuts.
    let mut place = [0u32; 64];
    let mut next = 0;
    for (bit, slot) in place.iter_mut().enumerate() {
        if !cuts.contains(&bit) {
            *slot = next;
            next += 1;
        }
    }
    for (i, &cut) in cuts.iter().enumerate() {
        place[cut] = CUT_SHIFT + i as u32;
    }
    for columns in crossing.iter_mut() {
        for bits in columns.iter_mut() {
            let mut moved = 0u64;
            let mut rest = *bits;
            while rest != 0 {
                moved |= 1 << place[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            *bits = moved;
        }
    }
}

/// The rows of an `n`x`n` board, one bit each.
pub(crate) fn all_rows(n: usize) -> u32 {
    if n == 0 { 0 } else { u32::MAX >> (32 - n) }
}

/// How many row sets of the whole count `rows` stands for: itself and its
/// images (see [`Images`]; with [`Images::Mirror`], also the images of the
/// split of the flipped middle row). Returns 0 if `rows` is not the
/// smallest of its images, so that each class is counted once, by its
/// smallest member.
pub(crate) fn orbit(split: &Split, rows: u32) -> u32 {
    let n = split.n;
    let complement = split.free_rows & !rows;
    if rows > complement && split.free_rows != 0 {
        return 0;
    }
    if split.images == Images::Mirror {
        // R, !R, and their flips in the other split: four different sets.
        return 4;
    }
    if n == 0 {
        return 1;
    }
    let flip = |r: u32| r.reverse_bits() >> (32 - n);
    let (flipped, flipped_complement) = (flip(rows), flip(complement));
    if rows > flipped || rows > flipped_complement {
        return 0;
    }
    // Four images, two pairs of which may coincide: R = flip(R) exactly
    // when !R = flip(!R), and R = flip(!R) exactly when !R = flip(R). (For
    // n = 0 and 1 there is one row set, the empty one.)
    if rows == complement {
        return 1;
    }
    4 / (1 + u32::from(rows == flipped)) / (1 + u32::from(rows == flipped_complement))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class of row sets, in every split, is counted once.
    #[test]
    fn every_class_is_counted_once_by_its_smallest_member() {
        for n in 0..=11 {
            let w = n / 2;
            let mut covered = 0u32;
            for split in Split::all(n) {
                for rows in 0u32..1 << n {
                    if rows & !split.free_rows == 0 && rows.count_ones() as usize == w {
                        covered += orbit(&split, rows);
                    }
                }
            }
            // Each row set of the west half, with each middle row.
            let mut sets = 0;
            for rows in 0u32..1 << n {
                if rows.count_ones() as usize == w {
                    sets += if n % 2 == 0 { 1 } else { n - w };
                }
            }
            assert_eq!(covered as usize, sets, "n = {n}");
        }
    }

    #[test]
    fn the_search_keeps_exactly_the_smallest_row_sets() {
        for n in 1..=11 {
            for split in Split::all(n) {
                for rows in 0u32..1 << n {
                    if rows & !split.free_rows != 0 {
                        continue;
                    }
                    let mut order = Some(Order::default());
                    for at in 0..split.rows {
                        let in_rows = rows >> split.row_at(at) & 1 != 0;
                        order = order.and_then(|o| o.after(&split, at, in_rows));
                    }
                    let kept = order.is_some();
                    assert_eq!(kept, orbit(&split, rows) > 0, "n = {n}, rows = {rows:b}");
                }
            }
        }
    }

    #[test]
    fn a_queen_on_a_crossing_diagonal_has_its_bit() {
        let split = &Split::all(8)[0];
        // (0, 3) west: r - c = -3 crosses; r + c = 3 does not (< 4).
        assert_eq!(split.crossing[0][3].count_ones(), 1);
        // (7, 4) east: r - c = 3 crosses (as (4, 1) west); r + c = 11 does not.
        assert_eq!(
            split.crossing[7][4],
            split.crossing[4][1] & split.crossing[7][4]
        );
        assert_eq!(split.crossing[7][4].count_ones(), 1);
        // Two queens on one crossing diagonal share its bit.
        assert_ne!(split.crossing[2][2] & split.crossing[5][5], 0);
        // The three cut bits are in use.
        let used = split
            .crossing
            .iter()
            .flatten()
            .fold(0, |all, bits| all | bits);
        assert_eq!(used >> CUT_SHIFT, (1 << CUTS) - 1);
        // Odd n: the middle queen in row 1 of 5 leaves (0, 0) free, not (0, 1).
        let split = &Split::all(5)[1];
        assert_eq!(split.open[0] & 1, 1);
        assert_eq!(split.open[1] & 1, 0);
        assert_eq!(split.free_rows, 0b11101);
    }
}
