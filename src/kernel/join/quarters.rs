//! The quarter-boards: every way to place queens in one quarter of a split
//! board, at most one per row and column, none attacking another, filed by
//! the rows and columns they take.
//!
//! [`Split::line`] cuts each half into a north and a south quarter. A
//! half-board is a north quarter-board and a south one of the same half
//! on complementary columns whose queens share no inner diagonal
//! (`halves.rs`), so every half-board of every row set is a pair of
//! quarter-boards found here once per split: the search of a quarter is
//! small (its rows and columns are about half the board's), and its
//! results are reused by every row set that shares the quarter's rows.
//!
//! A quarter-board is kept as its inner bits (the diagonals it could share
//! with the other quarter of its half) and its crossing bits (those it
//! could share with the other half). Both are read by a join for every
//! row set, so they are stored as two flat arrays, filed by a dense index
//! of (rows taken, columns taken).
//!
//! # Bounded by the piece
//!
//! A piece of the join (`pieces.rs`) decides its first rows from the
//! outside in: which of them are west and which east. Every row set of
//! the piece agrees on those rows, so it reads only the quarter-boards
//! that do too: a queen in each decided row of the quarter's side, none
//! in the others. [`Quarters::for_chunk`] builds just those, filed by the
//! undecided rows alone, a small part of the whole quarter (about
//! `2^-d` of it for `d` decided rows, weighted towards the row sets with
//! as many queens as rows decided): this is what bounds a count's memory
//! by its pieces rather than by the board. The search places queens in
//! the decided rows as it must and leaves the others empty, so it visits
//! little more than what it keeps.

use alloc::vec::Vec;

use super::grow;
use super::split::{Decided, Side, Split};
use crate::Error;

/// Bytes per quarter-board: its inner (`u32`) and crossing (`u64`) bits.
#[cfg(test)]
pub(crate) const BYTES_PER_QUARTER_BOARD: usize = 12;

/// North or south of the split's line across the rows (`Split::line`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// Rows above the line.
    North,
    /// Rows from the line down.
    South,
}

/// The quarter-boards of one quarter, or of the part of it a piece reads.
pub(crate) struct QuarterBoards {
    /// The quarter's free rows (a board row set).
    rows: u32,
    /// Those the piece has not decided, which file the quarter-boards
    /// (all of `rows` for a whole quarter).
    undecided: u32,
    /// The decided rows with a queen of this side: every quarter-board has
    /// a queen in each of them and in no other decided row.
    queens: u32,
    /// Its first column and width.
    first: usize,
    width: usize,
    /// Quarter-boards filed by `index(rows, columns)`: those of index `i`
    /// are `inner[starts[i]..starts[i + 1]]` (and `crossing`'s likewise).
    starts: Vec<u32>,
    pub(crate) inner: Vec<u32>,
    pub(crate) crossing: Vec<u64>,
    /// For each compact row set, the compact column sets that have
    /// quarter-boards: `present[present_starts[s]..present_starts[s + 1]]`.
    present_starts: Vec<u32>,
    present: Vec<u32>,
}

impl QuarterBoards {
    /// Every quarter-board of `side`'s `half` of `split`.
    #[cfg(test)]
    pub(crate) fn new(split: &Split, side: Side, half: Half) -> QuarterBoards {
        QuarterBoards::restricted(split, side, half, Decided::NONE).expect("a test's quarter fits")
    }

    /// The quarter-boards of `side`'s `half` of `split` that agree with
    /// `decided`: a queen in each decided row of `side`, none in the other
    /// decided rows.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a table's allocation is refused
    /// (`grow.rs`): they are a join count's largest buffers.
    pub(crate) fn restricted(
        split: &Split,
        side: Side,
        half: Half,
        decided: Decided,
    ) -> Result<QuarterBoards, Error> {
        let (first, end) = split.columns(side);
        let band = match half {
            Half::North => all_below(split.line),
            Half::South => !all_below(split.line),
        };
        let rows = split.free_rows & band;
        let fixed = rows & decided.rows;
        let mut quarter = QuarterBoards {
            rows,
            undecided: rows & !fixed,
            queens: fixed & split.side_rows(side, decided.west),
            first,
            width: end - first,
            starts: Vec::new(),
            inner: Vec::new(),
            crossing: Vec::new(),
            present_starts: Vec::new(),
            present: Vec::new(),
        };
        let undecided = quarter.undecided.count_ones() as usize;
        let keys = 1usize << (undecided + quarter.width);
        // First the sizes of every (rows, columns), then the places.
        let mut starts = grow::zeroed::<u32>(keys + 1)?;
        quarter.search(split, |key, _, _| starts[key + 1] += 1)?;
        for key in 0..keys {
            starts[key + 1] += starts[key];
        }
        let total = starts[keys] as usize;
        let (mut inner, mut crossing) = (grow::zeroed::<u32>(total)?, grow::zeroed::<u64>(total)?);
        let mut next = grow::copied(&starts[..keys])?;
        quarter.search(split, |key, i, c| {
            let at = next[key] as usize;
            inner[at] = i;
            crossing[at] = c;
            next[key] += 1;
        })?;
        drop(next);
        let row_sets = 1usize << undecided;
        let mut present_starts = grow::zeroed::<u32>(row_sets + 1)?;
        let keys_present = starts.windows(2).filter(|key| key[0] != key[1]).count();
        let mut present = Vec::new();
        grow::reserve(&mut present, keys_present)?;
        for set in 0..row_sets {
            for columns in 0..1usize << quarter.width {
                let key = set << quarter.width | columns;
                if starts[key] != starts[key + 1] {
                    present.push(columns as u32);
                }
            }
            present_starts[set + 1] = present.len() as u32;
        }
        quarter.starts = starts;
        quarter.inner = inner;
        quarter.crossing = crossing;
        quarter.present_starts = present_starts;
        quarter.present = present;
        Ok(quarter)
    }

    /// How many quarter-boards it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.inner.len()
    }

    /// Bytes it holds: the quarter-boards and their index.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> u64 {
        let words = self.starts.len() + self.present_starts.len() + self.present.len();
        (self.inner.len() * BYTES_PER_QUARTER_BOARD + 4 * words) as u64
    }

    /// The quarter's part of board row set `rows`, as a compact row set
    /// (bit `i` for its `i`-th undecided row). `rows` agrees with the
    /// decided rows the quarter was built for.
    pub(crate) fn compact(&self, rows: u32) -> usize {
        debug_assert_eq!(
            rows & self.rows & !self.undecided,
            self.queens,
            "a row set of another piece"
        );
        let (mut compact, mut free, mut bit) = (0, self.undecided, 0);
        while free != 0 {
            let row = free.trailing_zeros();
            compact |= ((rows >> row & 1) as usize) << bit;
            free &= free - 1;
            bit += 1;
        }
        compact
    }

    /// Every compact column set with quarter-boards on compact row set
    /// `set`.
    pub(crate) fn columns_of(&self, set: usize) -> &[u32] {
        &self.present[self.present_starts[set] as usize..self.present_starts[set + 1] as usize]
    }

    /// The places of the quarter-boards on compact rows `set` and columns
    /// `columns`.
    pub(crate) fn range(&self, set: usize, columns: u32) -> core::ops::Range<usize> {
        let key = set << self.width | columns as usize;
        self.starts[key] as usize..self.starts[key + 1] as usize
    }

    /// Every compact column set of the quarter's half.
    pub(crate) fn all_columns(&self) -> u32 {
        (1u32 << self.width) - 1
    }

    /// Calls `found(key, inner, crossing)` for every quarter-board: a
    /// search row by row down the quarter, each row left empty or given a
    /// queen on a square no queen above attacks and the middle queen
    /// leaves open (a decided row only as decided).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for its rows is refused (a few
    /// KiB, but asked for between the tables).
    fn search(&self, split: &Split, mut found: impl FnMut(usize, u32, u64)) -> Result<(), Error> {
        let mut rows = Vec::new();
        grow::reserve(&mut rows, self.rows.count_ones() as usize)?;
        let mut next_bit = 0;
        for row in 0..split.n {
            if self.rows >> row & 1 == 0 {
                continue;
            }
            let rule = if self.undecided >> row & 1 != 0 {
                next_bit += 1;
                QuarterRowRule::Either(1 << (next_bit - 1))
            } else {
                QuarterRowRule::Decided(self.queens >> row & 1 != 0)
            };
            let mut open = 0u32;
            let (mut inner, mut crossing) = ([0u32; 32], [0u64; 32]);
            for column in 0..self.width {
                let board_column = self.first + column;
                open |= (split.open[board_column] >> row & 1) << column;
                inner[column] = split.inner[row][board_column];
                crossing[column] = split.crossing[row][board_column];
            }
            rows.push(QuarterRow {
                row,
                rule,
                open,
                inner,
                crossing,
            });
        }
        let search = QuarterSearch {
            rows: &rows,
            width: self.width,
        };
        search.place(0, Placed::default(), &mut found);
        Ok(())
    }
}

/// Whether a row of a quarter holds a queen.
#[derive(Clone, Copy)]
enum QuarterRowRule {
    /// Undecided: with or without; with sets this bit of the key's rows.
    Either(u32),
    /// Decided by the piece: with a queen (`true`) or without.
    Decided(bool),
}

/// One row of a quarter: the board row, whether it takes a queen, its
/// open columns, and each column's inner and crossing bits.
struct QuarterRow {
    row: usize,
    rule: QuarterRowRule,
    open: u32,
    inner: [u32; 32],
    crossing: [u64; 32],
}

/// The search of a quarter's placements.
struct QuarterSearch<'a> {
    rows: &'a [QuarterRow],
    width: usize,
}

impl QuarterSearch<'_> {
    fn place(&self, at: usize, placed: Placed, found: &mut impl FnMut(usize, u32, u64)) {
        let Some(this) = self.rows.get(at) else {
            let key = (placed.set as usize) << self.width | placed.columns as usize;
            found(key, placed.inner, placed.crossing);
            return;
        };
        // Rows from here to the next: diagonals move one column per row.
        let gap = self.rows.get(at + 1).map_or(1, |next| next.row - this.row);
        let step = |placed: Placed| Placed {
            falling: placed.falling << gap,
            rising: placed.rising >> gap,
            ..placed
        };
        let with = match this.rule {
            QuarterRowRule::Either(bit) => bit,
            QuarterRowRule::Decided(false) => return self.place(at + 1, step(placed), found),
            QuarterRowRule::Decided(true) => 0,
        };
        if !matches!(this.rule, QuarterRowRule::Decided(true)) {
            self.place(at + 1, step(placed), found);
        }
        let mut free = this.open & !(placed.columns | placed.falling as u32 | placed.rising as u32);
        while free != 0 {
            let column = free.trailing_zeros() as usize;
            free &= free - 1;
            let bit = 1 << column;
            let next = Placed {
                set: placed.set | with,
                columns: placed.columns | bit,
                falling: placed.falling | u64::from(bit),
                rising: placed.rising | u64::from(bit),
                inner: placed.inner | this.inner[column],
                crossing: placed.crossing | this.crossing[column],
            };
            self.place(at + 1, step(next), found);
        }
    }
}

/// The queens of a quarter placed so far.
#[derive(Clone, Copy, Default)]
struct Placed {
    /// Compact rows taken (of the undecided ones).
    set: u32,
    /// Compact columns taken.
    columns: u32,
    /// The columns of this row the queens above attack along falling
    /// (`r - c` constant) and rising (`r + c`) diagonals.
    falling: u64,
    rising: u64,
    inner: u32,
    crossing: u64,
}

/// Rows `0..line`.
pub(super) fn all_below(line: usize) -> u32 {
    if line >= 32 {
        u32::MAX
    } else {
        (1u32 << line) - 1
    }
}

/// The four quarters of a split, or the parts of them a piece reads.
pub(crate) struct Quarters {
    pub(crate) north_west: QuarterBoards,
    pub(crate) south_west: QuarterBoards,
    pub(crate) north_east: QuarterBoards,
    pub(crate) south_east: QuarterBoards,
}

/// The quarters a thread holds: those that agree with the first
/// [`super::memory::Tables::depth`] choices of rows of the row set it
/// joined last, rebuilt in part for the next (north or south, whichever
/// the choices change). The row sets of a piece come in the order of their
/// choices, so a rebuild is rare next to the joins that read the tables.
pub(crate) struct HeldQuarters {
    /// How many of a row set's first choices the tables agree with.
    depth: usize,
    /// The split they were built for (by its board and band, which tell it
    /// from the other splits), the choices, the tables.
    held: Option<((usize, u64), Decided, Quarters)>,
}

impl HeldQuarters {
    /// Tables for the first `depth` choices of row sets
    /// ([`super::memory::Tables`]), none built yet.
    pub(crate) fn new(depth: usize) -> HeldQuarters {
        HeldQuarters { depth, held: None }
    }

    /// The quarters that the join of row set `rows` of `split` reads (and
    /// more: all that agree with its first choices).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a table's allocation is refused. The
    /// tables held are then dropped (a rebuild may have replaced some of
    /// them and not the others), which frees their memory too; the next
    /// call builds them anew.
    pub(crate) fn for_rows(&mut self, split: &Split, rows: u32) -> Result<&Quarters, Error> {
        let decided = split.decided(self.depth, rows);
        let key = (split.n, split.key());
        let built = match &mut self.held {
            Some((held, was, quarters)) if *held == key => {
                let rebuilt = if *was != decided {
                    quarters.rebuild(split, *was, decided)
                } else {
                    Ok(())
                };
                *was = decided;
                rebuilt
            }
            held => {
                // The old split's tables go before the new ones are built.
                *held = None;
                Quarters::restricted(split, decided).map(|quarters| {
                    *held = Some((key, decided, quarters));
                })
            }
        };
        if let Err(error) = built {
            self.held = None;
            return Err(error);
        }
        let (_, _, quarters) = self.held.as_ref().expect("just built");
        Ok(quarters)
    }
}

/// The four quarters, in the order [`Quarters`] holds them.
const QUARTERS: [(Side, Half); 4] = [
    (Side::West, Half::North),
    (Side::West, Half::South),
    (Side::East, Half::North),
    (Side::East, Half::South),
];

impl Quarters {
    /// The whole quarters of `split`.
    #[cfg(feature = "trace")]
    pub(crate) fn new(split: &Split) -> Quarters {
        Quarters::restricted(split, Decided::NONE).expect("a traced board's quarters fit")
    }

    /// The parts of the quarters of `split` that agree with `decided`.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a table's allocation is refused.
    pub(crate) fn restricted(split: &Split, decided: Decided) -> Result<Quarters, Error> {
        // One after the other, so that the first refused stops the rest.
        let quarter = |(side, half)| QuarterBoards::restricted(split, side, half, decided);
        let [north_west, south_west, north_east, south_east] = QUARTERS;
        Ok(Quarters {
            north_west: quarter(north_west)?,
            south_west: quarter(south_west)?,
            north_east: quarter(north_east)?,
            south_east: quarter(south_east)?,
        })
    }

    /// Rebuilds for `decided` (of the same split) only the halves, north
    /// or south, whose decided rows differ from `was`: pieces that share
    /// their first rows share their north quarters.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if a table's allocation is refused; some
    /// quarters may then be rebuilt and others not.
    pub(crate) fn rebuild(
        &mut self,
        split: &Split,
        was: Decided,
        decided: Decided,
    ) -> Result<(), Error> {
        let north = all_below(split.line);
        for (half, band) in [(Half::North, north), (Half::South, !north)] {
            if was.within(band) == decided.within(band) {
                continue;
            }
            let (west, east) = match half {
                Half::North => (&mut self.north_west, &mut self.north_east),
                Half::South => (&mut self.south_west, &mut self.south_east),
            };
            *west = QuarterBoards::restricted(split, Side::West, half, decided)?;
            *east = QuarterBoards::restricted(split, Side::East, half, decided)?;
        }
        Ok(())
    }

    /// Bytes the four hold.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> u64 {
        [
            &self.north_west,
            &self.south_west,
            &self.north_east,
            &self.south_east,
        ]
        .iter()
        .map(|quarter| quarter.bytes())
        .sum()
    }

    /// The north and south quarters of `side`.
    pub(crate) fn of(&self, side: Side) -> (&QuarterBoards, &QuarterBoards) {
        match side {
            Side::West => (&self.north_west, &self.south_west),
            Side::East => (&self.north_east, &self.south_east),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every quarter holds every placement of non-attacking queens on its
    /// rows and columns (any number of them, on open squares) once: as many
    /// as trying every choice of one column or none per row finds.
    #[test]
    fn a_quarter_holds_every_placement_once() {
        for n in [4, 6, 8, 9, 10] {
            for split in Split::all(n) {
                for side in Side::BOTH {
                    for half in [Half::North, Half::South] {
                        let quarter = QuarterBoards::new(&split, side, half);
                        let rows: Vec<usize> =
                            (0..n).filter(|&r| quarter.rows >> r & 1 != 0).collect();
                        let expected = brute_force(&split, &rows, quarter.first, quarter.width);
                        assert_eq!(quarter.len(), expected, "n = {n}, {side:?} {half:?}");
                    }
                }
            }
        }
    }

    /// A restricted quarter holds exactly the whole quarter's boards that
    /// agree with its decided rows, filed the same by their other rows.
    #[test]
    fn a_restricted_quarter_keeps_exactly_the_boards_that_agree() {
        for n in [7, 8, 9, 10] {
            for split in Split::all(n) {
                for side in Side::BOTH {
                    for half in [Half::North, Half::South] {
                        let whole = QuarterBoards::new(&split, side, half);
                        for depth in [1, 2, 3, 5] {
                            for west in [0u32, 0b1011, 0b10_0110, u32::MAX] {
                                let decided = split.decided(depth, west);
                                let part =
                                    QuarterBoards::restricted(&split, side, half, decided).unwrap();
                                let mut kept = 0;
                                for set in 0..1usize << whole.undecided.count_ones() {
                                    let rows = expand(whole.undecided, set);
                                    let agrees = rows & whole.rows & !part.undecided == part.queens;
                                    for &columns in whole.columns_of(set) {
                                        let range = whole.range(set, columns);
                                        if !agrees {
                                            continue;
                                        }
                                        let at = part.range(part.compact(rows), columns);
                                        assert_eq!(
                                            &part.crossing[at.clone()],
                                            &whole.crossing[range.clone()]
                                        );
                                        assert_eq!(&part.inner[at], &whole.inner[range.clone()]);
                                        kept += range.len();
                                    }
                                }
                                assert_eq!(part.len(), kept, "n = {n} {side:?} {half:?} {depth}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The board row set of compact set `set` over the rows of `rows`.
    fn expand(rows: u32, set: usize) -> u32 {
        let (mut out, mut free, mut bit) = (0, rows, 0);
        while free != 0 {
            let row = free.trailing_zeros();
            out |= ((set >> bit & 1) as u32) << row;
            free &= free - 1;
            bit += 1;
        }
        out
    }

    /// Placements of non-attacking queens on `rows` x `first..first + width`,
    /// on squares the split leaves open, by trying every subset of squares
    /// with one queen per row at most.
    fn brute_force(split: &Split, rows: &[usize], first: usize, width: usize) -> usize {
        let mut count = 0;
        // Each row: no queen (width) or a column.
        let choices = (width + 1).pow(rows.len() as u32);
        for mut code in 0..choices {
            let mut queens = Vec::new();
            for &row in rows {
                let c = code % (width + 1);
                code /= width + 1;
                if c < width {
                    queens.push((row, first + c));
                }
            }
            let ok = queens.iter().all(|&(r, c)| split.open[c] >> r & 1 != 0)
                && queens.iter().enumerate().all(|(i, &(r1, c1))| {
                    queens[i + 1..]
                        .iter()
                        .all(|&(r2, c2)| c1 != c2 && r1.abs_diff(r2) != c1.abs_diff(c2))
                });
            count += usize::from(ok);
        }
        count
    }
}
