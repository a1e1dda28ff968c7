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

use alloc::vec;
use alloc::vec::Vec;

use super::split::{Side, Split};

/// North or south of [`Split::line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Half {
    North,
    South,
}

/// The quarter-boards of one quarter.
pub(crate) struct Quarter {
    /// The quarter's free rows (a board row set).
    rows: u32,
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

impl Quarter {
    /// Every quarter-board of `side`'s `half` of `split`.
    pub(crate) fn new(split: &Split, side: Side, half: Half) -> Quarter {
        let (first, end) = split.columns(side);
        let band = match half {
            Half::North => all_below(split.line),
            Half::South => !all_below(split.line),
        };
        let rows = split.free_rows & band;
        let mut quarter = Quarter {
            rows,
            first,
            width: end - first,
            starts: Vec::new(),
            inner: Vec::new(),
            crossing: Vec::new(),
            present_starts: Vec::new(),
            present: Vec::new(),
        };
        let keys = 1usize << (rows.count_ones() as usize + quarter.width);
        // First the sizes of every (rows, columns), then the places.
        let mut starts = vec![0u32; keys + 1];
        quarter.search(split, |key, _, _| starts[key + 1] += 1);
        for key in 0..keys {
            starts[key + 1] += starts[key];
        }
        let total = starts[keys] as usize;
        let (mut inner, mut crossing) = (vec![0u32; total], vec![0u64; total]);
        let mut next = starts.clone();
        quarter.search(split, |key, i, c| {
            let at = next[key] as usize;
            inner[at] = i;
            crossing[at] = c;
            next[key] += 1;
        });
        let row_sets = 1usize << rows.count_ones();
        let mut present_starts = vec![0u32; row_sets + 1];
        let mut present = Vec::new();
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
        quarter
    }

    /// How many quarter-boards it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.inner.len()
    }

    /// The quarter's part of board row set `rows`, as a compact row set
    /// (bit `i` for its `i`-th free row).
    pub(crate) fn compact(&self, rows: u32) -> usize {
        let (mut compact, mut free, mut bit) = (0, self.rows, 0);
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
    /// leaves open.
    fn search(&self, split: &Split, mut found: impl FnMut(usize, u32, u64)) {
        let mut rows = Vec::new();
        for row in 0..split.n {
            if self.rows >> row & 1 == 0 {
                continue;
            }
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
                open,
                inner,
                crossing,
            });
        }
        let search = Search {
            rows: &rows,
            width: self.width,
        };
        search.place(0, Placed::default(), &mut found);
    }
}

/// One row of a quarter: the board row, its open columns, and each
/// column's inner and crossing bits.
struct QuarterRow {
    row: usize,
    open: u32,
    inner: [u32; 32],
    crossing: [u64; 32],
}

/// The search of a quarter's placements.
struct Search<'a> {
    rows: &'a [QuarterRow],
    width: usize,
}

impl Search<'_> {
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
        self.place(at + 1, step(placed), found);
        let mut free = this.open & !(placed.columns | placed.falling as u32 | placed.rising as u32);
        while free != 0 {
            let column = free.trailing_zeros() as usize;
            free &= free - 1;
            let bit = 1 << column;
            let next = Placed {
                set: placed.set | 1 << at,
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
    /// Compact rows taken.
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
fn all_below(line: usize) -> u32 {
    if line >= 32 {
        u32::MAX
    } else {
        (1u32 << line) - 1
    }
}

/// The four quarters of a split, built once and shared by every row set
/// (and every thread) of the split.
pub(crate) struct Quarters {
    pub(crate) north_west: Quarter,
    pub(crate) south_west: Quarter,
    pub(crate) north_east: Quarter,
    pub(crate) south_east: Quarter,
}

/// The four quarters, in the order [`Quarters`] holds them.
const QUARTERS: [(Side, Half); 4] = [
    (Side::West, Half::North),
    (Side::West, Half::South),
    (Side::East, Half::North),
    (Side::East, Half::South),
];

impl Quarters {
    pub(crate) fn new(split: &Split) -> Quarters {
        let [north_west, south_west, north_east, south_east] =
            QUARTERS.map(|(side, half)| Quarter::new(split, side, half));
        Quarters {
            north_west,
            south_west,
            north_east,
            south_east,
        }
    }

    /// [`Quarters::new`], the four quarters built on up to `threads`
    /// threads (at most four), each taking the next quarter left.
    #[cfg(feature = "std")]
    pub(crate) fn on_threads(split: &Split, threads: usize) -> Quarters {
        use core::sync::atomic::{AtomicUsize, Ordering};
        use std::sync::Mutex;
        if threads <= 1 {
            return Quarters::new(split);
        }
        let next = AtomicUsize::new(0);
        let built: [Mutex<Option<Quarter>>; 4] = Default::default();
        std::thread::scope(|scope| {
            for _ in 0..threads.min(QUARTERS.len()) {
                scope.spawn(|| {
                    loop {
                        // Relaxed: the cursor only hands out positions.
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(side, half)) = QUARTERS.get(index) else {
                            break;
                        };
                        let quarter = Quarter::new(split, side, half);
                        *built[index]
                            .lock()
                            .unwrap_or_else(|poison| poison.into_inner()) = Some(quarter);
                    }
                });
            }
        });
        let [north_west, south_west, north_east, south_east] = built.map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|poison| poison.into_inner())
                .expect("every quarter is built before the threads end")
        });
        Quarters {
            north_west,
            south_west,
            north_east,
            south_east,
        }
    }

    /// The north and south quarters of `side`.
    pub(crate) fn of(&self, side: Side) -> (&Quarter, &Quarter) {
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
                        let quarter = Quarter::new(&split, side, half);
                        let rows: Vec<usize> =
                            (0..n).filter(|&r| quarter.rows >> r & 1 != 0).collect();
                        let expected = brute_force(&split, &rows, quarter.first, quarter.width);
                        assert_eq!(quarter.len(), expected, "n = {n}, {side:?} {half:?}");
                    }
                }
            }
        }
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
