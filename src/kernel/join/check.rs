//! The join checked against a plain search, piece by piece, where no
//! total can be counted: `--sample K --check`.
//!
//! Past N = 22 no count of the whole board finishes here, so the join's
//! pieces are checked one by one against another method. A drawn row set
//! of a split (`sample.rs` draws them) is a subproblem of its own: the
//! solutions with the split's band of queens placed and a queen in the
//! west half in exactly the rows of the row set. The join counts it on the
//! split with nothing folded (`Split::unfolded`: no images, no band
//! class, no transpose), and `search` counts it by placing queens row by
//! row, each row's in its half's columns, as any backtracking solver would.
//! They share nothing but the board: not the quarters, the half-boards,
//! the crossing bits, the sieve or the matcher.

use std::vec::Vec;

use super::band::Band;
use super::pieces::JoinPiece;
use super::quarters::HeldQuarters;
use super::sample::{draw, list_of, piece_weights};
use super::split::LongDiagonals;
use super::split::{Chunk, Split};
use super::{Joiner, Scratch};
use crate::{Count, Error, MAX_N};

/// One drawn row set, counted both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The band's queens: how many, and `(row, column)` each.
    pub band: [(u8, u8); super::band::MAX_BAND],
    /// How many of `band` are queens.
    pub band_len: usize,
    /// The rows of the west half's queens (a board row set).
    pub west_rows: u32,
    /// The solutions the join counted.
    pub join: Count,
    /// The solutions the plain search counted.
    pub search: Count,
}

impl Checked {
    /// The band's queens, `(row, column)`.
    pub fn band(&self) -> &[(u8, u8)] {
        &self.band[..self.band_len]
    }
}

/// `draws` row sets of the join `pieces` of an `n`x`n` board, drawn with
/// `seed` as `--sample` draws them, each counted by `joiner` on its split
/// unfolded and by [`search`]. The row sets are drawn one at a time; what
/// grows with the draws is the list returned, taken whole before the
/// first is drawn.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if that list, or the join's tables or buffers,
/// are refused.
pub(crate) fn check(
    joiner: &dyn Joiner,
    n: usize,
    pieces: &[JoinPiece],
    draws: usize,
    seed: u64,
) -> Result<Vec<Checked>, Error> {
    let weights = piece_weights(n, pieces);
    let mut scratch = Scratch::default();
    let mut out = list_of::<Checked>(draws)?;
    for drawn in draw(n, pieces, &weights, draws, seed) {
        let split = Split::unfolded(n, drawn.band);
        // Tables for this one row set: every row decided, the quarters
        // cut to it alone.
        let mut quarters = HeldQuarters::new(split.rows);
        let join = joiner.count_chunk(&split, &mut quarters, &drawn.chunk, &mut scratch)?;
        let west_rows = west_rows(&split, &drawn.chunk);
        let mut band = [(0u8, 0u8); super::band::MAX_BAND];
        for (slot, (row, column)) in band.iter_mut().zip(drawn.band.queens(n)) {
            *slot = (row as u8, column as u8);
        }
        out.push(Checked {
            band,
            band_len: drawn.band.len(),
            west_rows,
            join,
            search: search(n, &drawn.band, west_rows),
        });
    }
    Ok(out)
}

/// The west rows of a chunk that decides every row of `split`.
fn west_rows(split: &Split, chunk: &Chunk) -> u32 {
    (0..chunk.len)
        .filter(|&at| chunk.pattern >> at & 1 != 0)
        .fold(0, |rows, at| rows | 1 << split.row_at(at))
}

/// The solutions of an `n`x`n` board with `band`'s queens placed and the
/// queens of rows `west_rows` in the columns west of the band, those of
/// the other rows east of it, by backtracking row by row over bitmasks of
/// the columns and diagonals taken.
pub(crate) fn search(n: usize, band: &Band, west_rows: u32) -> Count {
    debug_assert!(n <= MAX_N);
    let first = band.first_column(n);
    let west = (1u32 << first) - 1;
    let east =
        (if n == 32 { u32::MAX } else { (1u32 << n) - 1 }) & !((1u32 << (first + band.len())) - 1);
    let mut allowed = [0u32; MAX_N];
    for (row, columns) in allowed.iter_mut().enumerate().take(n) {
        *columns = if west_rows >> row & 1 != 0 {
            west
        } else {
            east
        };
    }
    for (row, column) in band.queens(n) {
        allowed[row] = 1 << column;
    }
    place(&allowed[..n], 0, 0, 0)
}

/// The placements of one queen per row of `allowed` (each row's in its
/// columns) that no other attacks, given the columns and the falling and
/// rising diagonals (as the squares of the next row they attack) taken.
fn place(allowed: &[u32], columns: u32, falling: u64, rising: u64) -> Count {
    let Some((&row, rest)) = allowed.split_first() else {
        return 1;
    };
    let mut free = row & !columns & !(falling as u32) & !(rising as u32);
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        count += place(
            rest,
            columns | bit,
            (falling | u64::from(bit)) << 1,
            (rising | u64::from(bit)) >> 1,
        );
    }
    count
}

/// The solutions a join plan's `piece` of an `n`x`n` board accounts for,
/// counted by a plain search that places queens row by row: what the
/// join counts for it, found another way (`merge --recount-by search`).
///
/// It shares with the join only the split's folding: which row sets of
/// the piece are counted and how many each stands for (`Chunk::for_each_row_set`),
/// the split's weight, the squares the transpose closes (`Split::open`) and
/// how the long diagonals weigh a solution (`transpose.rs`). Each row
/// set's solutions are then found square by square, without the quarters,
/// the half-boards, the crossing bits, the sieve or the matcher that a
/// join kernel counts them with.
pub(crate) fn search_piece(n: usize, piece: &JoinPiece) -> Count {
    let split = piece.split(n);
    if split.weight == 0 {
        return 0;
    }
    let mut total: Count = 0;
    piece.chunk.for_each_row_set(&split, |rows, images| {
        total += Count::from(images * split.weight) * search_folded(&split, rows);
    });
    total
}

/// The solutions of `split` (folded) whose west queens are in rows `rows`,
/// each weighed by the long diagonals as the matcher weighs its pairs.
fn search_folded(split: &Split, rows: u32) -> Count {
    let n = split.n;
    let mut allowed = [0u32; MAX_N];
    for (row, columns) in allowed.iter_mut().enumerate().take(n) {
        let west = rows >> row & 1 != 0;
        let side = if west { 0..split.west } else { split.east..n };
        *columns = side
            .filter(|&column| split.open[column] >> row & 1 != 0)
            .fold(0, |mask, column| mask | 1 << column);
    }
    for (row, column) in split.band.queens(n) {
        allowed[row] = 1 << column;
    }
    let weigh = SolutionWeight::of(split);
    let mut placed = [0u8; MAX_N];
    place_weighed(&allowed[..n], &mut placed, 0, [0, 0, 0], &|columns| {
        weigh.weight(columns)
    })
}

/// How a solution of a folded split counts, by its queens on the board's
/// two long diagonals (see `transpose.rs` and [`LongDiagonals`]).
struct SolutionWeight {
    n: usize,
    /// The west half's columns: `0..west`.
    west: usize,
    diagonals: LongDiagonals,
    /// For [`LongDiagonals::One`]: the weighed diagonal is the main one
    /// (`row == column`), not the anti-diagonal.
    main_weighed: bool,
    /// The band's rule, where the split has one: the middle rows, and the
    /// band's queens' distances from the centre row, the larger first.
    middle: Option<([usize; 2], [u32; 2])>,
    /// Whether the band's queens stand both north of the centre row or
    /// both south.
    band_one_side: bool,
}

impl SolutionWeight {
    fn of(split: &Split) -> SolutionWeight {
        let n = split.n;
        // The band holds the other diagonal's queen: the main one is
        // weighed when the band holds none on it.
        let main_weighed = !split.band.queens(n).any(|(row, column)| row == column);
        SolutionWeight {
            n,
            west: split.west,
            diagonals: split.diagonals,
            main_weighed,
            middle: split.middle.map(|rule| (rule.rows(), rule.band())),
            band_one_side: {
                let mut rows = split.band.queens(n).map(|(row, _)| row < n / 2);
                rows.next() == rows.next()
            },
        }
    }

    /// The weight of the solution with its queen of row `r` in column
    /// `columns[r]`: 2 if one half holds both long diagonals' queens, 0 if
    /// each half holds one, 1 otherwise (both weighed); 2 with a queen on
    /// the weighed diagonal, else 1 (one weighed); where that is 1 and the
    /// split has the band's rule: 0 if only the band's queens stand on one
    /// side of the centre (row), 2 if only the middle rows' (of the centre
    /// column), 1 if neither; if both, 2, 1 or 0 as the middle rows'
    /// queens stand further from the centre column than the band's from
    /// the centre row, as far, or nearer (compared as words, the further
    /// first).
    fn weight(&self, columns: &[u8]) -> Count {
        match (self.diagonal_weight(columns), self.middle) {
            (1, Some((rows, band))) => {
                let n = self.n;
                let column = |row: usize| usize::from(columns[row]);
                // Which side of the centre column each middle row's queen
                // stands on, and of the centre row each band queen.
                let middle_one_side = (column(rows[0]) < n / 2) == (column(rows[1]) < n / 2);
                match (self.band_one_side, middle_one_side) {
                    (true, true) => {}
                    (true, false) => return 0,
                    (false, true) => return 2,
                    (false, false) => return 1,
                }
                let distance = |row: usize| (2 * column(row)).abs_diff(n - 1) as u32;
                let (a, b) = (distance(rows[0]), distance(rows[1]));
                match (a.max(b), a.min(b)).cmp(&(band[0], band[1])) {
                    core::cmp::Ordering::Greater => 2,
                    core::cmp::Ordering::Equal => 1,
                    core::cmp::Ordering::Less => 0,
                }
            }
            (weight, _) => weight,
        }
    }

    /// The weight by the long diagonals alone.
    fn diagonal_weight(&self, columns: &[u8]) -> Count {
        let n = self.n;
        let on = |anti: bool| {
            (0..n)
                .find(|&row| usize::from(columns[row]) == if anti { n - 1 - row } else { row })
                .map(|row| usize::from(columns[row]) < self.west)
        };
        match self.diagonals {
            LongDiagonals::Unweighed => 1,
            LongDiagonals::One => {
                if on(!self.main_weighed).is_some() {
                    2
                } else {
                    1
                }
            }
            LongDiagonals::Both => match (on(false), on(true)) {
                (Some(main), Some(anti)) if main == anti => 2,
                (Some(_), Some(_)) => 0,
                _ => 1,
            },
        }
    }
}

/// The placements of one queen per row of `allowed` from `row` on (each
/// row's in its columns) that no other attacks, given the columns, the
/// falling and the rising diagonals taken (`taken`, as the squares of the
/// next row they attack), each counted `weigh(columns)` times.
fn place_weighed(
    allowed: &[u32],
    placed: &mut [u8; MAX_N],
    row: usize,
    taken: [u64; 3],
    weigh: &dyn Fn(&[u8]) -> Count,
) -> Count {
    let Some(&columns) = allowed.get(row) else {
        return weigh(&placed[..allowed.len()]);
    };
    let [column_bits, falling, rising] = taken;
    let mut free = columns & !(column_bits as u32) & !(falling as u32) & !(rising as u32);
    let mut count = 0;
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        placed[row] = bit.trailing_zeros() as u8;
        let bit = u64::from(bit);
        count += place_weighed(
            allowed,
            placed,
            row + 1,
            [column_bits | bit, (falling | bit) << 1, (rising | bit) >> 1],
            weigh,
        );
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search alone, on whole boards: no band, every row's queen in
    /// any column, is the count.
    #[test]
    fn the_search_counts_whole_boards() {
        for n in 1..=10 {
            // Every split of the rows into west and east, added up, with
            // no band, is every solution.
            let half = n / 2;
            let mut total = 0;
            for west_rows in 0u32..1 << n {
                if west_rows.count_ones() as usize == half && n % 2 == 0 {
                    total += search(n, &Band::of(&[]), west_rows);
                }
            }
            if n % 2 == 0 {
                assert_eq!(total, crate::kernel::portable::oracle_count(n), "n = {n}");
            }
        }
    }

    /// Every row set of every band of every width, on small boards: the
    /// join unfolded and the search agree.
    #[test]
    fn the_join_unfolded_agrees_with_the_search() {
        let mut scratch = Scratch::default();
        for n in 4..=10 {
            for width in (n % 2..=super::super::band::MAX_BAND.min(n)).step_by(2) {
                for band in super::super::band::bands_of_width(n, width) {
                    let split = Split::unfolded(n, band);
                    let mut quarters = HeldQuarters::new(0);
                    for chunk in Chunk::all(&split, split.rows) {
                        let join = super::super::Join(())
                            .count_chunk(&split, &mut quarters, &chunk, &mut scratch)
                            .unwrap();
                        let rows = west_rows(&split, &chunk);
                        assert_eq!(join, search(n, &band, rows), "n = {n}, {band:?}, {rows:b}");
                    }
                }
            }
        }
    }

    /// A join plan's pieces, each counted by the search on its folded
    /// split, add up to every solution, and each agrees with the join.
    #[test]
    fn the_search_counts_each_piece_as_the_join_does() {
        let mut scratch = Scratch::default();
        for n in 1..=12 {
            let mut total = 0;
            for piece in super::super::pieces::pieces(n) {
                let searched = search_piece(n, &piece);
                let split = piece.split(n);
                let mut quarters = HeldQuarters::new(0);
                let joined = super::super::Join(())
                    .count_chunk(&split, &mut quarters, &piece.chunk, &mut scratch)
                    .unwrap();
                assert_eq!(searched, joined, "n = {n}, {piece:?}");
                total += searched;
            }
            assert_eq!(total, crate::kernel::portable::oracle_count(n), "n = {n}");
        }
    }

    /// The band's rule (even N, a band of two, `transpose::MiddleRows`)
    /// on every chunk of one row set of every folded split of a band of
    /// two, on every join kernel this CPU runs: the join, its half-boards
    /// filed by tag, and the search, which weighs each solution by its
    /// middle rows' columns, agree. Some row sets have a tag of weight 0,
    /// so the rule is in use.
    #[test]
    fn the_band_rule_weighs_each_row_set_as_the_search_does() {
        let largest = if cfg!(debug_assertions) { 10 } else { 12 };
        let mut scratch = Scratch::default();
        let mut skipped = 0;
        for n in (6..=largest).step_by(2) {
            for band in super::super::band::bands_of_width(n, 2) {
                let split = Split::new(n, band);
                if split.is_empty() {
                    continue;
                }
                let mut quarters = HeldQuarters::new(0);
                for chunk in Chunk::all(&split, split.rows) {
                    let mut searched = 0;
                    chunk.for_each_row_set(&split, |rows, images| {
                        let tags = split.tag_weights(rows);
                        let [west, east] = tags.tags;
                        skipped += usize::from(
                            tags.weight[..west]
                                .iter()
                                .any(|row| row[..east].contains(&0)),
                        );
                        searched +=
                            Count::from(images * split.weight) * search_folded(&split, rows);
                    });
                    for joiner in super::super::joiners() {
                        let joined = joiner
                            .count_chunk(&split, &mut quarters, &chunk, &mut scratch)
                            .unwrap();
                        assert_eq!(joined, searched, "{}, n = {n}, {band:?}", joiner.kernel());
                    }
                }
            }
        }
        assert!(skipped > 0, "no row set weighs a pair of tags 0");
    }
}
