//! The half-boards: every way to stand one queen in each column of a half
//! (west or east) on some set of rows, none attacking another, each
//! written as the mask of the diagonals it shares with the other half and
//! filed by its row set.
//!
//! The half-boards are found by one search over the rows, taken from the
//! outside in (0, n-1, 1, n-2, ...): at each row the west half either
//! leaves it empty or stands a queen in a free column. Whether the west
//! half uses a row is the choice that decides the row set `R`; the east
//! half makes the opposite choice in every row. Taking rows in pairs from
//! the outside in lets the search keep only the row sets that are the
//! smallest of their class ([`orbit`]) as it goes, and the first `t`
//! choices cut the work into independent chunks ([`Chunk`]).

use alloc::vec::Vec;

use crate::MAX_N;

/// West or east.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Columns `0..n/2`: a queen in every row of `R`.
    West,
    /// Columns `n/2..n`: a queen in every row not in `R`.
    East,
}

/// The board's split and the diagonal bits of every square, built once per
/// count.
///
/// A west and an east queen can only meet on a diagonal that crosses the
/// line between the halves: of the `2n - 1` diagonals of each direction,
/// `n - 1` do (`r - c` from `1 - west` to `n - 1 - west`, `r + c` from
/// `west` to `n + west - 2`). Those are the mask's bits: `r - c + west - 1`
/// for the first direction (bits `0..n-1`), `n - 1 + r + c - west` for the
/// second (bits `n-1..2n-2`). A queen on a diagonal that does not cross
/// adds no bit: nothing on the other side can meet it there.
pub(crate) struct Geometry {
    pub(crate) n: usize,
    pub(crate) west: usize,
    /// `crossing[row][column]`: the bits of the square's crossing diagonals.
    crossing: [[u64; MAX_N]; MAX_N],
    /// The rows from the outside in.
    order: [u8; MAX_N],
}

impl Geometry {
    /// The split of an `n`x`n` board, `n` up to 32: the west half has
    /// `n / 2` columns, the east half the rest.
    pub(crate) fn new(n: usize) -> Geometry {
        debug_assert!(n <= MAX_N);
        let west = n / 2;
        let mut crossing = [[0u64; MAX_N]; MAX_N];
        let (n_i, west_i) = (n as isize, west as isize);
        for (row, columns) in crossing.iter_mut().enumerate().take(n) {
            for (column, bits) in columns.iter_mut().enumerate().take(n) {
                let (r, c) = (row as isize, column as isize);
                let falling = r - c + west_i - 1;
                let rising = r + c - west_i;
                if (0..n_i - 1).contains(&falling) {
                    *bits |= 1 << falling;
                }
                if (0..n_i - 1).contains(&rising) {
                    *bits |= 1 << (n_i - 1 + rising);
                }
            }
        }
        let mut order = [0u8; MAX_N];
        for (i, row) in order.iter_mut().enumerate().take(n) {
            *row = if i % 2 == 0 { i / 2 } else { n - 1 - i / 2 } as u8;
        }
        Geometry {
            n,
            west,
            crossing,
            order,
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
        let n = self.n;
        let all = all_rows(n);
        // The rows the chunk puts in R, and those it leaves out.
        let (mut rows_in, mut rows_out) = (0u32, 0u32);
        // Each undecided row's bit in the key.
        let mut key_bit = [0u32; MAX_N];
        for at in 0..n {
            let row = self.row_at(at);
            if at < chunk.len {
                if chunk.pattern >> at & 1 != 0 {
                    rows_in |= 1 << row;
                } else {
                    rows_out |= 1 << row;
                }
            } else {
                key_bit[row] = 1 << (n - 1 - at);
            }
        }
        let undecided_keys = if n == chunk.len {
            0
        } else {
            u32::MAX >> (32 - (n - chunk.len))
        };
        let (first, end, required, undecided) = match side {
            Side::West => (0, self.west, rows_in, all & !rows_in & !rows_out),
            Side::East => (self.west, n, rows_out, all & !rows_in & !rows_out),
        };
        let columns = ((1u64 << end) - 1) as u32 & !(((1u64 << first) - 1) as u32);
        let mut walk = Walk {
            geometry: self,
            undecided,
            key_bit,
            // The chunk has settled every comparison: all its row sets are
            // the smallest of their classes.
            check_rows: !chunk.settles(n),
            side,
            undecided_keys,
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
    fn with(self, geometry: &Geometry, row: usize, column: usize, key_bit: u32) -> Placed {
        let n = geometry.n;
        Placed {
            rows: self.rows | 1 << row,
            columns_left: self.columns_left & !(1 << column),
            falling_by_row: self.falling_by_row | 1 << (row + n - 1 - column),
            falling_by_column: self.falling_by_column | 1 << (column + n - 1 - row),
            rising: self.rising | 1 << (row + column),
            mask: self.mask | geometry.crossing[row][column],
            key: self.key | key_bit,
        }
    }
}

/// The search of one side: first a queen in each row the chunk requires
/// (row by row), then one in each column left (column by column), on the
/// rows the chunk leaves open. Each half-board is found once: its queens
/// on required rows in the first part, the rest in the second.
struct Walk<'a> {
    geometry: &'a Geometry,
    /// The rows the chunk has not decided.
    undecided: u32,
    key_bit: [u32; MAX_N],
    check_rows: bool,
    side: Side,
    undecided_keys: u32,
    out: &'a mut Vec<(u32, u64)>,
}

impl Walk<'_> {
    /// A queen in each row of `required`, lowest first.
    fn fill_rows(&mut self, required: u32, placed: Placed) {
        if required == 0 {
            self.fill_columns(placed);
            return;
        }
        let n = self.geometry.n;
        let row = required.trailing_zeros() as usize;
        let attacked =
            (placed.falling_by_column >> (n - 1 - row)) as u32 | (placed.rising >> row) as u32;
        let mut open = placed.columns_left & !attacked;
        while open != 0 {
            let column = open.trailing_zeros() as usize;
            open &= open - 1;
            self.fill_rows(
                required & (required - 1),
                placed.with(self.geometry, row, column, 0),
            );
        }
    }

    /// A queen in each column left, lowest first, on undecided rows.
    fn fill_columns(&mut self, placed: Placed) {
        let n = self.geometry.n;
        if placed.columns_left == 0 {
            // Only for a chunk that fills every column in its rows.
            self.found(placed.rows, placed.key, placed.mask);
            return;
        }
        let column = placed.columns_left.trailing_zeros() as usize;
        let attacked =
            (placed.falling_by_row >> (n - 1 - column)) as u32 | (placed.rising >> column) as u32;
        let mut open = self.undecided & !placed.rows & !attacked;
        if placed.columns_left & (placed.columns_left - 1) == 0 {
            // The last column: each open row ends a half-board.
            let crossing = &self.geometry.crossing;
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
            self.fill_columns(placed.with(self.geometry, row, column, self.key_bit[row]));
        }
    }

    /// Files a half-board on `rows` (the side's own), unless its row set
    /// is not the smallest of its class.
    #[inline]
    fn found(&mut self, rows: u32, key: u32, mask: u64) {
        let n = self.geometry.n;
        let (rows, key) = match self.side {
            Side::West => (rows, key),
            Side::East => (!rows & all_rows(n), self.undecided_keys & !key),
        };
        if !self.check_rows || orbit(n, rows) > 0 {
            self.out.push((key, mask));
        }
    }
}

/// How a row set `R` compares so far with the images that would make it
/// not the smallest of its class: `flip(R)` and, for even `n`, `!R` and
/// `flip(!R)`. Rows are decided in pairs `(j, n - 1 - j)`; as numbers,
/// bit `n - 1 - j` of the sets is compared before bit `n - 2 - j`, so
/// each pair settles the comparisons still tied, in order.
#[derive(Clone, Copy, Default)]
pub(crate) struct Order {
    /// Row `j` of the pair being decided is in `R`.
    first_in: bool,
    /// `R < flip(R)` already.
    below_flip: bool,
    /// `R < flip(!R)` already (even `n`).
    below_flip_complement: bool,
}

impl Order {
    /// The comparison after deciding the `at`-th row (of the outside-in
    /// order) to be in `R` or not, or `None` if `R` is now known to be
    /// larger than one of its images.
    pub(crate) fn after(self, n: usize, at: usize, in_rows: bool) -> Option<Order> {
        if at % 2 == 0 {
            // Row j = at / 2; for odd n the middle row comes last, alone,
            // and decides nothing.
            return Some(Order {
                first_in: in_rows,
                ..self
            });
        }
        // Row n - 1 - j, compared first: bit b of R against bit b of the
        // image, which is row j's bit (flip) or its complement.
        let (a, b) = (self.first_in, in_rows);
        let mut next = self;
        if n % 2 == 0 && at == 1 && b {
            // R against !R: they differ in every row, first in row n - 1.
            return None;
        }
        if !self.below_flip && a != b {
            if b {
                return None;
            }
            next.below_flip = true;
        }
        if n % 2 == 0 && !self.below_flip_complement && a == b {
            if b {
                return None;
            }
            next.below_flip_complement = true;
        }
        Some(next)
    }
}

/// A chunk of the join: the row sets whose first `len` choices (rows in the
/// outside-in order) are `pattern`'s bits, bit `i` for the `i`-th row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunk {
    pub(crate) pattern: u32,
    pub(crate) len: usize,
}

impl Chunk {
    /// Every chunk of `len` choices that holds some row set the join
    /// counts (of `n / 2` rows, the smallest of its class).
    pub(crate) fn all(n: usize, len: usize) -> Vec<Chunk> {
        let len = len.min(n);
        let west = n / 2;
        let mut chunks = Vec::new();
        for pattern in 0u32..1 << len {
            let in_rows = pattern.count_ones() as usize;
            if in_rows > west || len - in_rows > n - west {
                continue;
            }
            let mut order = Some(Order::default());
            for at in 0..len {
                order = order.and_then(|o| o.after(n, at, pattern >> at & 1 != 0));
            }
            if order.is_some() {
                chunks.push(Chunk { pattern, len });
            }
        }
        chunks
    }

    /// Whether the chunk's choices already make every row set in it the
    /// smallest of its class (most chunks: the first pair of rows that
    /// differs from its flip settles the comparison).
    pub(crate) fn settles(&self, n: usize) -> bool {
        let mut order = Some(Order::default());
        for at in 0..self.len {
            order = order.and_then(|o| o.after(n, at, self.pattern >> at & 1 != 0));
        }
        order.is_some_and(|o| o.below_flip && (n % 2 == 1 || o.below_flip_complement))
    }

    /// The row set of the half-boards filed under `key` in this chunk.
    pub(crate) fn rows(&self, geometry: &Geometry, key: u32) -> u32 {
        let n = geometry.n;
        let mut rows = 0u32;
        for at in 0..n {
            let in_rows = if at < self.len {
                self.pattern >> at & 1 != 0
            } else {
                key >> (n - 1 - at) & 1 != 0
            };
            if in_rows {
                rows |= 1 << geometry.row_at(at);
            }
        }
        rows
    }
}

/// The rows of an `n`x`n` board, one bit each.
pub(crate) fn all_rows(n: usize) -> u32 {
    if n == 0 { 0 } else { u32::MAX >> (32 - n) }
}

/// How many row sets `rows` (of `n`) stands for: itself and its images
/// under the flip top to bottom and, for even `n`, the mirror left to
/// right, which maps a solution whose west half uses rows `R` to one whose
/// west half uses `!R`. Returns the number of distinct sets among them
/// (1, 2 or 4), or 0 if `rows` is not the smallest, so that each class is
/// counted once, by its smallest member.
pub(crate) fn orbit(n: usize, rows: u32) -> u32 {
    if n == 0 {
        return 1;
    }
    let flip = |r: u32| r.reverse_bits() >> (32 - n);
    let flipped = flip(rows);
    if n % 2 == 1 {
        return match rows.cmp(&flipped) {
            core::cmp::Ordering::Less => 2,
            core::cmp::Ordering::Equal => 1,
            core::cmp::Ordering::Greater => 0,
        };
    }
    let complement = !rows & u32::MAX >> (32 - n);
    let flipped_complement = flip(complement);
    // `rows` and its complement always differ.
    if rows > complement || rows > flipped || rows > flipped_complement {
        return 0;
    }
    // Four images, two pairs of which may coincide: R = flip(R) exactly
    // when !R = flip(!R), and R = flip(!R) exactly when !R = flip(R).
    4 / (1 + u32::from(rows == flipped)) / (1 + u32::from(rows == flipped_complement))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_counted_once_by_its_smallest_member() {
        for n in [0usize, 1, 2, 3, 4, 5, 8, 9] {
            let w = n / 2;
            let mut covered = 0u32;
            let mut sets = 0;
            for rows in 0u32..1 << n {
                if rows.count_ones() as usize == w {
                    sets += 1;
                    covered += orbit(n, rows);
                }
            }
            assert_eq!(covered, sets, "n = {n}");
        }
    }

    #[test]
    fn the_search_keeps_exactly_the_smallest_row_sets() {
        for n in 1..=10 {
            let g = Geometry::new(n);
            let mut kept = 0;
            for rows in 0u32..1 << n {
                let mut order = Some(Order::default());
                for at in 0..n {
                    order = order.and_then(|o| o.after(n, at, rows >> g.row_at(at) & 1 != 0));
                }
                assert_eq!(
                    order.is_some(),
                    orbit(n, rows) > 0,
                    "n = {n}, rows = {rows:b}"
                );
                kept += u32::from(order.is_some());
            }
            assert!(kept > 0);
        }
    }

    #[test]
    fn a_queen_on_a_crossing_diagonal_has_its_bit() {
        let g = Geometry::new(8);
        // (0, 3) west: r - c = -3 crosses (bit 0); r + c = 3 does not (< 4).
        assert_eq!(g.crossing[0][3], 1 << 0);
        // (7, 4) east: r - c = 3 crosses (bit 6); r + c = 11 does not (> 10).
        assert_eq!(g.crossing[7][4], 1 << 6);
        // (7, 3) west: r - c = 4 does not (> 3); r + c = 10 does (bit 7 + 6).
        assert_eq!(g.crossing[7][3], 1 << 13);
    }
}
