//! The join kernels ([`crate::kernel::join`]) counting a small board: the
//! cut into halves and quarters, the quarter-boards, the half-boards of
//! every row set, and the bit-sliced matcher's runs, item by item.
//!
//! [`join`] runs the `join` kernel's own code for every step: its splits
//! and quarter-boards as built for a count, its half-boards as its join
//! writes them (listed here with the quarter-boards they pair, and checked
//! mask for mask against the join's), and its matcher, compiled for a
//! vector of one word (64 patterns, as the portable kernel's) that writes
//! down every word the matcher reads, every item's OR and every run's
//! conflicts. The runs are laid out here as the matcher lays them out, and
//! checked against what it read. Where the queens of a quarter-board stand
//! is found here: the kernel keeps only their diagonal bits, and
//! [`QuarterBoard::queens`] is a placement on its rows and columns with
//! those bits (nearly always the only one).

use alloc::vec;
use alloc::vec::Vec;

use super::Columns;
use crate::kernel::join::halves::Filed;
use crate::kernel::join::matcher::{self, Group};
use crate::kernel::join::quarters::Quarters;
use crate::kernel::join::split::{Chunk, LongDiagonals, Split};
use crate::kernel::join::words::PatternWords;
use crate::{Count, Error, Kernel};

/// The kernel's own halves: the trace shows its quarters by them.
pub use crate::kernel::join::quarters::Half;
/// The kernel's own sides: the trace shows its row sets by them.
pub use crate::kernel::join::split::Side;

/// The largest board [`join`] traces: its lists are kept whole.
pub const MAX_N: usize = 12;

/// A diagonal of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diagonal {
    /// The squares with `row - column` equal to this, running down to the
    /// east (↘).
    Falling(i32),
    /// The squares with `row + column` equal to this, running down to the
    /// west (↙).
    Rising(i32),
}

impl Diagonal {
    /// Whether square (`row`, `column`) is on it.
    pub fn holds(self, row: usize, column: usize) -> bool {
        let (r, c) = (row as i32, column as i32);
        match self {
            Diagonal::Falling(d) => r - c == d,
            Diagonal::Rising(d) => r + c == d,
        }
    }
}

/// The whole count of an `n`x`n` board, one [`Cut`] at a time.
#[derive(Clone, Debug)]
pub struct TracedJoin {
    /// The board's size.
    pub n: usize,
    /// Every cut the kernel counts (one for even `n`, one per row of the
    /// middle column's queen for odd `n`), those no solution passes left
    /// out as the kernel leaves them.
    pub cuts: Vec<Cut>,
}

impl TracedJoin {
    /// The board's solutions, added up as the kernel adds them: each row
    /// set's pairs times the row sets it stands for times its cut's weight.
    pub fn count(&self) -> Count {
        self.cuts
            .iter()
            .flat_map(|cut| {
                cut.row_sets.iter().map(move |set| {
                    Count::from(set.pairs) * Count::from(set.images) * Count::from(cut.weight)
                })
            })
            .sum()
    }
}

/// One way the kernel cuts the board: the halves, the line across them,
/// and every square's bits.
#[derive(Clone, Debug)]
pub struct Cut {
    /// For a band of one queen (odd `n` below 25), the row of the middle
    /// column's queen; `None` for other bands (even `n`: none below 24).
    pub middle: Option<usize>,
    /// The queens placed first in the band of middle columns, `(row,
    /// column)`, west to east.
    pub band: Vec<(usize, usize)>,
    /// The west half's columns are `0..west`.
    pub west: usize,
    /// The east half's columns are `east..n` (`west`, or past the band).
    pub east: usize,
    /// The first row of the south quarters.
    pub line: usize,
    /// The rows the halves share out (all but the band's).
    pub free_rows: u32,
    /// `open[column]`: the rows of the column that the band leaves to the
    /// halves (every row for even `n` below 24).
    pub open: Vec<u32>,
    /// How many solutions each solution found here stands for, beside the
    /// images of its row set: the band's class, twice that where the
    /// kernel uses the transpose.
    pub weight: u32,
    /// Whether the matcher weighs pairs by the two long diagonals (even
    /// `n` from 4, the band holding neither's queen): their bits are then
    /// the top two of every mask.
    pub long_diagonals: bool,
    /// Whether it weighs them by one long diagonal (the band holds the
    /// other's queen): its bit is then the top one.
    pub one_long_diagonal: bool,
    /// `crossing[row][column]`: the square's crossing bits, one per
    /// diagonal through it that crosses between the halves.
    pub crossing: Vec<Vec<u64>>,
    /// `inner[row][column]`: the square's inner bits, one per diagonal
    /// through it that crosses [`Cut::line`] inside its half.
    pub inner: Vec<Vec<u32>>,
    /// The diagonal of each crossing bit in use, by bit.
    pub crossing_bits: Vec<(u32, Diagonal)>,
    /// The diagonal of each inner bit, by bit: the west half's, then the
    /// east's.
    pub inner_bits: [Vec<(u32, Diagonal)>; 2],
    /// The four quarters: north-west, south-west, north-east, south-east.
    pub quarters: [Quarter; 4],
    /// Every row set the kernel joins (the smallest of its class), in its
    /// order.
    pub row_sets: Vec<RowSet>,
}

impl Cut {
    /// The quarter of `side` and `half`.
    pub fn quarter(&self, side: Side, half: Half) -> &Quarter {
        let at = match (side, half) {
            (Side::West, Half::North) => 0,
            (Side::West, Half::South) => 1,
            (Side::East, Half::North) => 2,
            (Side::East, Half::South) => 3,
        };
        &self.quarters[at]
    }

    /// The columns of `side`, `first..end`.
    pub fn columns(&self, side: Side, n: usize) -> (usize, usize) {
        match side {
            Side::West => (0, self.west),
            Side::East => (self.east, n),
        }
    }
}

/// One quarter of a cut and every quarter-board the kernel keeps of it.
#[derive(Clone, Debug)]
pub struct Quarter {
    /// Its half: west or east.
    pub side: Side,
    /// North or south of the line.
    pub half: Half,
    /// Its rows (a board row set).
    pub rows: u32,
    /// Its columns.
    pub columns: Columns,
    /// Its quarter-boards, in the kernel's order (by rows taken, then
    /// columns taken, then as its search found them).
    pub boards: Vec<QuarterBoard>,
}

/// A placement of non-attacking queens in one quarter, as the kernel
/// keeps it, with the squares of its queens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuarterBoard {
    /// The rows its queens take.
    pub rows: u32,
    /// The columns its queens take.
    pub columns: Columns,
    /// Its inner bits: the OR of its queens'.
    pub inner: u32,
    /// Its crossing bits: the OR of its queens'.
    pub crossing: u64,
    /// Its queens, (row, column), top down: a placement on its rows and
    /// columns, on squares left open, with exactly these bits (found here;
    /// the kernel does not keep it). Where several have the same bits, the
    /// kernel keeps as many equal entries, in the order its search found
    /// them, and they are given out in that order.
    pub queens: Vec<(usize, usize)>,
}

/// One row set of the west half, joined: the half-boards of both sides
/// and their matching.
#[derive(Clone, Debug)]
pub struct RowSet {
    /// The west half's rows (a board row set); the east's are the other
    /// free rows.
    pub rows: u32,
    /// How many row sets of the whole count it stands for.
    pub images: u32,
    /// The west half-boards, in the order the kernel's join wrote them.
    pub west: Vec<HalfBoard>,
    /// The east half-boards, likewise.
    pub east: Vec<HalfBoard>,
    /// How many cut bits the sieve files the masks by.
    pub cuts: usize,
    /// Which side's half-boards are the matcher's items (the shorter list);
    /// the other side's are its patterns, bit-sliced.
    pub items: Side,
    /// The items' masks by class (their top `cuts` bits read as a number),
    /// as filed for the matcher.
    pub item_classes: Vec<Vec<u64>>,
    /// The patterns' masks by class, likewise.
    pub pattern_classes: Vec<Vec<u64>>,
    /// The matcher's runs, in its order (none when a side has no
    /// half-board: the kernel then skips the matcher).
    pub runs: Vec<Run>,
    /// The pairs the matcher counted, weighed: the row set's solutions
    /// before its images and the cut's weight.
    pub pairs: u64,
}

impl RowSet {
    /// The half-boards of `side`.
    pub fn side(&self, side: Side) -> &[HalfBoard] {
        match side {
            Side::West => &self.west,
            Side::East => &self.east,
        }
    }
}

/// A half-board: a north and a south quarter-board of one half on
/// complementary columns, with no inner bit in common.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfBoard {
    /// Its north quarter-board, by its place in the quarter's
    /// [`Quarter::boards`].
    pub north: usize,
    /// Its south quarter-board, likewise.
    pub south: usize,
    /// Its mask: the OR of the two quarter-boards' crossing bits.
    pub mask: u64,
}

/// One scan of the matcher: the items of one class against the patterns
/// of the classes they can match, gathered into one run of slices.
#[derive(Clone, Debug)]
pub struct Run {
    /// The items' class.
    pub class: usize,
    /// What each pair that shares no bit counts: 1, or 2 for the pairs
    /// that the long diagonals weigh double.
    pub weight: u64,
    /// The patterns' classes in the run, in order: each takes
    /// `patterns.len().div_ceil(64)` words of every slice, from its own
    /// word.
    pub classes: Vec<(usize, Vec<u64>)>,
    /// The bits of every pattern in the run: the slices it holds.
    pub reach: u64,
    /// The run's slices, one per bit of `reach` from the lowest, each
    /// `words` words: bit `j` of word `w` is the slice's bit of the run's
    /// pattern `64 w + j`.
    pub slices: Vec<(u32, Vec<u64>)>,
    /// Each item matched against each group of up to eight vectors (here
    /// of one word each), in the matcher's order.
    pub steps: Vec<MatchStep>,
    /// The run's conflicts, as the matcher added them up.
    pub conflicts: u64,
}

/// One item matched against a group of vectors of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStep {
    /// The item's mask.
    pub item: u64,
    /// The group's first vector (word) of the run.
    pub first: usize,
    /// The OR of the item's slices, one word per vector of the group: a
    /// set bit for each pattern the item shares a bit with.
    pub hits: Vec<u64>,
}

/// The `join` kernel's count of an `n`x`n` board, every step kept.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` over [`MAX_N`].
pub fn join(n: usize) -> Result<TracedJoin, Error> {
    Kernel::Join.check_size(n)?;
    let cuts = Split::all(n)
        .iter()
        .filter(|split| !split.is_empty())
        .map(trace_split)
        .collect();
    Ok(TracedJoin { n, cuts })
}

fn trace_split(split: &Split) -> Cut {
    let n = split.n;
    let built = Quarters::new(split);
    let crossing: Vec<Vec<u64>> = (0..n).map(|r| split.crossing[r][..n].to_vec()).collect();
    let inner: Vec<Vec<u32>> = (0..n).map(|r| split.inner[r][..n].to_vec()).collect();
    let every_square =
        |(first, end): (usize, usize)| (0..n).flat_map(move |r| (first..end).map(move |c| (r, c)));
    let crossing_bits = diagonals_of(
        every_square((0, n)).filter(|&(_, c)| c < split.west || c >= split.east),
        |r, c| crossing[r][c],
    );
    let inner_bits = [Side::West, Side::East].map(|side| {
        diagonals_of(every_square(split.columns(side)), |r, c| {
            u64::from(inner[r][c])
        })
    });
    let quarters = [
        (Side::West, Half::North),
        (Side::West, Half::South),
        (Side::East, Half::North),
        (Side::East, Half::South),
    ]
    .map(|(side, half)| trace_quarter(split, &built, side, half));
    let mut row_sets = Vec::new();
    // No band wider than one below N = 24: the splits' count does not
    // matter to their pieces.
    for chunk in Chunk::all(split, split.piece_len(1)) {
        chunk.for_each_row_set(split, |rows, images| {
            row_sets.push(trace_row_set(split, &built, &quarters, rows, images));
        });
    }
    Cut {
        middle: (split.band.len() == 1).then(|| usize::from(split.band.rows()[0])),
        band: split.band.queens(n).collect(),
        west: split.west,
        east: split.east,
        line: split.line,
        free_rows: split.free_rows,
        open: split.open[..n].to_vec(),
        weight: split.weight,
        long_diagonals: split.diagonals == LongDiagonals::Both,
        one_long_diagonal: split.diagonals == LongDiagonals::One,
        crossing,
        inner,
        crossing_bits,
        inner_bits,
        quarters,
        row_sets,
    }
}

/// The diagonal of every bit that `bits` gives `squares`: the one line
/// all squares with the bit lie on.
fn diagonals_of(
    squares: impl Iterator<Item = (usize, usize)> + Clone,
    bits: impl Fn(usize, usize) -> u64,
) -> Vec<(u32, Diagonal)> {
    let used = squares.clone().fold(0, |all, (r, c)| all | bits(r, c));
    let mut out = Vec::new();
    for bit in (0..64).filter(|&b| used >> b & 1 != 0) {
        let on: Vec<(usize, usize)> = squares
            .clone()
            .filter(|&(r, c)| bits(r, c) >> bit & 1 != 0)
            .collect();
        let (r, c) = (on[0].0 as i32, on[0].1 as i32);
        let diagonal = [Diagonal::Falling(r - c), Diagonal::Rising(r + c)]
            .into_iter()
            .find(|d| on.iter().all(|&(r, c)| d.holds(r, c)))
            .expect("every square of a bit is on its diagonal");
        out.push((bit, diagonal));
    }
    out
}

fn trace_quarter(split: &Split, built: &Quarters, side: Side, half: Half) -> Quarter {
    let (north, south) = built.of(side);
    let quarter = if half == Half::North { north } else { south };
    let below = if split.line >= 32 {
        u32::MAX
    } else {
        (1u32 << split.line) - 1
    };
    let rows = split.free_rows & if half == Half::North { below } else { !below };
    let (first, end) = split.columns(side);
    let board_rows: Vec<usize> = (0..split.n).filter(|&r| rows >> r & 1 != 0).collect();
    let mut boards = vec![None; quarter.inner.len()];
    for set in 0..1usize << board_rows.len() {
        for &columns in quarter.columns_of(set) {
            let range = quarter.range(set, columns);
            for at in range.clone() {
                let rows_taken = board_rows
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| set >> i & 1 != 0)
                    .fold(0u32, |all, (_, &r)| all | 1 << r);
                let columns_taken = (columns << first) as Columns;
                let (inner, crossing) = (quarter.inner[at], quarter.crossing[at]);
                // Placements with the same bits are kept as equal entries,
                // in the order of the search, which is this one's.
                let same =
                    |i: &usize| quarter.inner[*i] == inner && quarter.crossing[*i] == crossing;
                let before = (range.start..at).filter(same).count();
                let mut placements = placements(split, rows_taken, columns_taken, inner, crossing);
                assert_eq!(
                    placements.len(),
                    range.clone().filter(same).count(),
                    "a placement per entry"
                );
                boards[at] = Some(QuarterBoard {
                    rows: rows_taken,
                    columns: columns_taken,
                    inner,
                    crossing,
                    queens: placements.swap_remove(before),
                });
            }
        }
    }
    Quarter {
        side,
        half,
        rows,
        columns: ((1u64 << end) - (1u64 << first)) as Columns,
        boards: boards
            .into_iter()
            .map(|board| board.expect("the index covers every quarter-board"))
            .collect(),
    }
}

/// Every placement of one queen in each row of `rows`, in the columns
/// `columns`, on open squares, none attacking another, whose inner and
/// crossing bits are `inner` and `crossing`.
fn placements(
    split: &Split,
    rows: u32,
    columns: Columns,
    inner: u32,
    crossing: u64,
) -> Vec<Vec<(usize, usize)>> {
    fn place(
        split: &Split,
        rows: &[usize],
        free: Columns,
        queens: &mut Vec<(usize, usize)>,
        out: &mut Vec<Vec<(usize, usize)>>,
        want: (u32, u64),
    ) {
        let Some((&row, rest)) = rows.split_first() else {
            let bits = queens.iter().fold((0, 0), |(i, c), &(r, col)| {
                (i | split.inner[r][col], c | split.crossing[r][col])
            });
            if bits == want {
                out.push(queens.clone());
            }
            return;
        };
        for column in (0..32).filter(|&c| free >> c & 1 != 0) {
            let open = split.open[column] >> row & 1 != 0;
            let attacked = queens
                .iter()
                .any(|&(r, c)| r.abs_diff(row) == c.abs_diff(column));
            if open && !attacked {
                queens.push((row, column));
                place(split, rest, free & !(1 << column), queens, out, want);
                queens.pop();
            }
        }
    }
    let rows: Vec<usize> = (0..split.n).filter(|&r| rows >> r & 1 != 0).collect();
    let mut out = Vec::new();
    place(
        split,
        &rows,
        columns,
        &mut Vec::new(),
        &mut out,
        (inner, crossing),
    );
    out
}

/// What the matcher did with [`Watched`] vectors, in order.
enum Event {
    /// `or_load`: the word it read.
    Load(u64),
    /// `add_counts`: one item's OR of its slices, a word per vector of
    /// the group.
    Counted(Vec<u64>),
    /// `total`: a run's conflicts.
    Total(u64),
}

std::thread_local! {
    static EVENTS: core::cell::RefCell<Vec<Event>> = const { core::cell::RefCell::new(Vec::new()) };
}

/// The portable kernel's vector (one `u64`, 64 patterns), which also
/// writes down each word the matcher reads, each item's OR and each run's
/// total: the kernel's matcher, compiled for it, is watched at work.
#[derive(Clone, Copy)]
struct Watched(u64);

fn record(event: Event) {
    EVENTS.with(|events| events.borrow_mut().push(event));
}

impl PatternWords for Watched {
    const WORDS: usize = 1;

    unsafe fn zero() -> Watched {
        Watched(0)
    }

    unsafe fn or_load(self, words: *const u64) -> Watched {
        // SAFETY: the caller gives a readable word.
        let word = unsafe { *words };
        record(Event::Load(word));
        Watched(self.0 | word)
    }

    unsafe fn add_counts<const G: usize>(sum: Watched, hits: [Watched; G]) -> Watched {
        record(Event::Counted(hits.iter().map(|hit| hit.0).collect()));
        Watched(
            hits.iter()
                .fold(sum.0, |sum, hit| sum + u64::from(hit.0.count_ones())),
        )
    }

    unsafe fn total(sum: Watched) -> u64 {
        record(Event::Total(sum.0));
        sum.0
    }

    unsafe fn store(self, words: *mut u64) {
        // SAFETY: the caller gives a writable word.
        unsafe { *words = self.0 }
    }
}

/// The weight of a pair of classes `u` and `v` of `cuts` cut bits, as the
/// matcher has it: when the top two are the long diagonals, 0 if one holds
/// a queen on one and the other on the other, 2 if either holds both, else
/// 1; when the top one is a long diagonal (the band holds the other's
/// queen), 2 with a queen on it, else 1; else 1.
fn weight(u: usize, v: usize, cuts: usize, diagonals: LongDiagonals) -> u64 {
    match diagonals {
        LongDiagonals::Unweighed => return 1,
        LongDiagonals::One => return 1 + ((u | v) >> (cuts - 1) & 1) as u64,
        LongDiagonals::Both => {}
    }
    let (main, anti) = (1 << (cuts - 1), 1 << (cuts - 2));
    let (u_main, u_anti, v_main, v_anti) =
        (u & main != 0, u & anti != 0, v & main != 0, v & anti != 0);
    if (u_main && v_anti) || (u_anti && v_main) {
        0
    } else if (u_main && u_anti) || (v_main && v_anti) {
        2
    } else {
        1
    }
}

/// The runs the matcher scans, laid out as it lays them out: for each
/// class `u` of items, the classes of patterns it can match, by weight,
/// with the events of its scan checked word for word against them.
fn runs(
    items: &[Vec<u64>],
    patterns: &[Vec<u64>],
    cuts: usize,
    diagonals: LongDiagonals,
    events: &[Event],
) -> Vec<Run> {
    let mut events = events.iter();
    let mut out = Vec::new();
    for (u, items_u) in items
        .iter()
        .enumerate()
        .filter(|(_, items)| !items.is_empty())
    {
        for w in 1..=2 {
            let classes = classes_of_weight(u, w, patterns, cuts, diagonals);
            if classes.is_empty() {
                continue;
            }
            let reach = classes
                .iter()
                .flat_map(|(_, p)| p)
                .fold(0, |all, p| all | p);
            let (words, slices) = slices(&classes, reach);
            let steps = steps(items_u, &slices, words, &mut events);
            let Some(&Event::Total(conflicts)) = events.next() else {
                panic!("the matcher adds up each run");
            };
            out.push(Run {
                class: u,
                weight: w,
                classes,
                reach,
                slices,
                steps,
                conflicts,
            });
        }
    }
    assert!(
        events.next().is_none(),
        "every step of the matcher is in a run"
    );
    out
}

/// The classes of `patterns` with patterns that items of class `u` can
/// match whose pairs weigh `w`, with their patterns, in order: every
/// weight is 1 unless the top cut bits of `cuts` are long diagonals that
/// weigh the pairs (`diagonals`).
fn classes_of_weight(
    u: usize,
    w: u64,
    patterns: &[Vec<u64>],
    cuts: usize,
    diagonals: LongDiagonals,
) -> Vec<(usize, Vec<u64>)> {
    (0..patterns.len())
        .filter(|&v| v & u == 0 && !patterns[v].is_empty())
        .filter(|&v| weight(u, v, cuts, diagonals) == w)
        .map(|v| (v, patterns[v].clone()))
        .collect()
}

/// The run of `classes`, bit-sliced as the matcher slices it: each class
/// from a word of its own, a slice for each bit of `reach`. Returns the
/// words of a slice and the slices.
fn slices(classes: &[(usize, Vec<u64>)], reach: u64) -> (usize, Vec<(u32, Vec<u64>)>) {
    let mut lanes: Vec<Option<u64>> = Vec::new();
    for (_, masks) in classes {
        lanes.extend(masks.iter().map(|&m| Some(m)));
        lanes.resize(lanes.len().next_multiple_of(64), None);
    }
    let words = lanes.len() / 64;
    let slices = (0..64)
        .filter(|&bit| reach >> bit & 1 != 0)
        .map(|bit| {
            let word = |k: usize| {
                (0..64).fold(0u64, |word, j| {
                    let set = lanes[64 * k + j].is_some_and(|m| m >> bit & 1 != 0);
                    word | u64::from(set) << j
                })
            };
            (bit, (0..words).map(word).collect())
        })
        .collect();
    (words, slices)
}

/// Every item of `items` matched against each group of up to eight
/// vectors (words) of a run of `words`-word `slices`, in the matcher's
/// order: the words it reads are checked against the run's, and its OR of
/// each item's slices taken from `events`.
fn steps(
    items: &[u64],
    slices: &[(u32, Vec<u64>)],
    words: usize,
    events: &mut core::slice::Iter<'_, Event>,
) -> Vec<MatchStep> {
    let mut steps = Vec::new();
    for first in (0..words).step_by(8) {
        let group = (words - first).min(8);
        // As `matcher::scan` takes them: a whole group of eight one item at
        // a time, a smaller one two or four items at a time.
        let at_once = match group {
            5..=8 => 1,
            3 | 4 => 2,
            _ => 4,
        };
        let mut chunks = items.chunks_exact(at_once);
        for chunk in &mut chunks {
            group_steps(chunk, slices, first, group, events, &mut steps);
        }
        for item in chunks.remainder() {
            group_steps(&[*item], slices, first, group, events, &mut steps);
        }
    }
    steps
}

/// The steps of `items` against the group of `group` vectors from `first`,
/// read from `events`: one item's slices in order, or several items' read
/// in turn, a slice of each per round, as many rounds as the most bits any
/// has (the others reading the run's row of zeros), then each item's ORs.
fn group_steps(
    items: &[u64],
    slices: &[(u32, Vec<u64>)],
    first: usize,
    group: usize,
    events: &mut core::slice::Iter<'_, Event>,
    steps: &mut Vec<MatchStep>,
) {
    let bits_of = |item: u64| -> Vec<&(u32, Vec<u64>)> {
        slices
            .iter()
            .filter(|&&(bit, _)| item >> bit & 1 != 0)
            .collect()
    };
    let mut read = |slice: Option<&[u64]>, g: usize| {
        let Some(Event::Load(loaded)) = events.next() else {
            panic!("the matcher reads an item's slice");
        };
        assert_eq!(
            *loaded,
            slice.map_or(0, |words| words[g]),
            "the matcher's slice"
        );
    };
    let each: Vec<_> = items.iter().map(|&item| bits_of(item)).collect();
    if let [bits] = &each[..] {
        // Two slices a step, vector by vector, then the last alone.
        for pair in bits.chunks(2) {
            for g in 0..group {
                for (_, slice) in pair {
                    read(Some(&slice[first..first + group]), g);
                }
            }
        }
    } else {
        let rounds = each.iter().map(Vec::len).max().unwrap_or(0);
        for round in 0..rounds {
            for bits in &each {
                let slice = bits
                    .get(round)
                    .map(|(_, slice)| &slice[first..first + group]);
                for g in 0..group {
                    read(slice, g);
                }
            }
        }
    }
    for &item in items {
        let Some(Event::Counted(hits)) = events.next() else {
            panic!("the matcher counts each item's conflicts");
        };
        steps.push(MatchStep {
            item,
            first,
            hits: hits.clone(),
        });
    }
}

fn by_class(group: &Group<'_>) -> Vec<Vec<u64>> {
    (0..1usize << group.cuts)
        .map(|class| group.masks[group.starts[class]..group.starts[class + 1]].to_vec())
        .collect()
}

/// The row set's half-boards as the kernel joins them, then its matcher
/// as `count_row_sets` runs it.
fn trace_row_set(
    split: &Split,
    built: &Quarters,
    quarters: &[Quarter; 4],
    rows: u32,
    images: u32,
) -> RowSet {
    let (mut west, mut east) = (Filed::default(), Filed::default());
    // The traced boards are small: their buffers fit.
    // SAFETY: `Filed::join` asks only that the CPU runs `W`'s instructions, and
    // `u64`'s (plain Rust) run on every CPU.
    unsafe { west.join::<u64>(built, Side::West, rows) }.expect("the buffers fit");
    let east_rows = split.side_rows(Side::East, rows);
    // SAFETY: as above: `u64`'s instructions run on every CPU.
    unsafe { east.join::<u64>(built, Side::East, east_rows) }.expect("the buffers fit");
    let halves = |side: Side, filed: &Filed, rows: u32| {
        let (north, south) = (
            &quarters[2 * side as usize],
            &quarters[2 * side as usize + 1],
        );
        let listed = half_boards(north, south, rows);
        // The kernel's join, before filing: one class, as joined.
        let joined = filed.group().masks;
        assert!(
            listed.iter().map(|h| h.mask).eq(joined.iter().copied()),
            "the join's half-boards"
        );
        listed
    };
    let (west_boards, east_boards) = (
        halves(Side::West, &west, rows),
        halves(Side::East, &east, east_rows),
    );
    let mut set = RowSet {
        rows,
        images,
        west: west_boards,
        east: east_boards,
        cuts: 0,
        items: Side::West,
        item_classes: Vec::new(),
        pattern_classes: Vec::new(),
        runs: Vec::new(),
        pairs: 0,
    };
    if west.len() == 0 || east.len() == 0 {
        return set;
    }
    // As `count_row_sets` does it.
    let mut cuts = crate::kernel::join::cuts::Cuts::default();
    // The pictures' boards have no band, so no tags: one per side.
    let tags = split.tag_weights(rows);
    debug_assert_eq!(tags.tags, [1, 1]);
    crate::kernel::join::sieve(
        split,
        &west,
        &east,
        crate::kernel::join::cuts::Policy::TUNED,
        &mut cuts,
    );
    // SAFETY: `Filed::file` asks only that the CPU runs `W`'s instructions, and
    // `Watched`'s (`u64`'s, plain Rust) run on every CPU.
    unsafe { west.file::<Watched>(&cuts, &tags.index[0], 1) }.expect("the buffers fit");
    // SAFETY: as above: `Watched`'s instructions run on every CPU.
    unsafe { east.file::<Watched>(&cuts, &tags.index[1], 1) }.expect("the buffers fit");
    let (w, e) = (west.group(), east.group());
    let (items, patterns, side) = if w.len() <= e.len() {
        (w, e, Side::West)
    } else {
        (e, w, Side::East)
    };
    EVENTS.with(|events| events.borrow_mut().clear());
    let mut scratch = matcher::MatcherScratch::default();
    // SAFETY: `Watched`'s instructions (`u64`'s) run on every CPU.
    set.pairs = unsafe {
        let weighing = matcher::Weighing::from(split.diagonals);
        matcher::disjoint_pairs::<Watched>(items, patterns, &weighing, &mut scratch)
    }
    .expect("the buffers fit");
    set.cuts = cuts.len();
    set.items = side;
    set.item_classes = by_class(&items);
    set.pattern_classes = by_class(&patterns);
    let events = EVENTS.with(|events| core::mem::take(&mut *events.borrow_mut()));
    set.runs = runs(
        &set.item_classes,
        &set.pattern_classes,
        set.cuts,
        split.diagonals,
        &events,
    );
    set
}

/// Every pair of a north and a south quarter-board of one half on `rows`
/// and complementary columns with no inner bit in common, in the order
/// the kernel's join tests them.
fn half_boards(north: &Quarter, south: &Quarter, rows: u32) -> Vec<HalfBoard> {
    let all = north.columns;
    let mut out = Vec::new();
    for (at, n) in north.boards.iter().enumerate() {
        if n.rows != rows & north.rows {
            continue;
        }
        for (s_at, s) in south.boards.iter().enumerate() {
            if s.rows == rows & south.rows
                && s.columns == all & !n.columns
                && n.inner & s.inner == 0
            {
                out.push(HalfBoard {
                    north: at,
                    south: s_at,
                    mask: n.crossing | s.crossing,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For every board up to [`MAX_N`]: the trace adds up to the kernel's
    /// count; every row set's half-boards are exactly the placements of
    /// its queens in the half that brute force finds, and its pairs what
    /// testing every pair of masks finds; each matcher step's OR is the OR
    /// of the item's slices, and each run's conflicts the sum of its
    /// steps' popcounts.
    #[test]
    fn the_trace_is_the_count_step_by_step() {
        for n in 1..=if cfg!(debug_assertions) { 9 } else { MAX_N } {
            let join = join(n).unwrap();
            assert_eq!(
                join.count(),
                crate::kernel::portable::oracle_count(n),
                "n = {n}"
            );
            for cut in &join.cuts {
                for set in &cut.row_sets {
                    for side in [Side::West, Side::East] {
                        check_half_boards(n, cut, set, side);
                    }
                    if !set.runs.is_empty() {
                        check_pairs(cut, set);
                    }
                    for run in &set.runs {
                        check_run(run);
                    }
                }
            }
        }
    }

    /// `set`'s half-boards of `side` are exactly the placements of its
    /// queens there that brute force finds, each with the crossing bits of
    /// its queens.
    fn check_half_boards(n: usize, cut: &Cut, set: &RowSet, side: Side) {
        let rows = if side == Side::West {
            set.rows
        } else {
            cut.free_rows & !set.rows
        };
        let (north, south) = (
            cut.quarter(side, Half::North),
            cut.quarter(side, Half::South),
        );
        let mut found: Vec<u64> = set
            .side(side)
            .iter()
            .map(|h| {
                let mut queens = north.boards[h.north].queens.clone();
                queens.extend(&south.boards[h.south].queens);
                let placement = queens
                    .iter()
                    .fold(0u64, |all, &(r, c)| all | (c as u64) << (5 * r));
                assert_eq!(
                    queens
                        .iter()
                        .fold(0, |all, &(r, c)| all | cut.crossing[r][c]),
                    h.mask
                );
                placement
            })
            .collect();
        found.sort_unstable();
        let mut expected = half_placements(n, cut, side, rows);
        expected.sort_unstable();
        assert_eq!(found, expected, "n = {n}, rows {rows:b}");
    }

    /// `set`'s pairs are those that testing every pair of its items and
    /// patterns finds.
    fn check_pairs(cut: &Cut, set: &RowSet) {
        let masks = |side: &[HalfBoard]| side.iter().map(|h| h.mask).collect::<Vec<u64>>();
        let (items, patterns) = if set.items == Side::West {
            (masks(&set.west), masks(&set.east))
        } else {
            (masks(&set.east), masks(&set.west))
        };
        let weighing = match (cut.long_diagonals, cut.one_long_diagonal) {
            (true, _) => LongDiagonals::Both,
            (_, true) => LongDiagonals::One,
            _ => LongDiagonals::Unweighed,
        };
        // The pictures' boards have no band, so no tags: one per side.
        let weighing = matcher::Weighing::from(weighing);
        let pairs = matcher::disjoint_pairs_one_by_one(&items, &patterns, [1, 1], &weighing);
        assert_eq!(set.pairs, pairs);
    }

    /// Each of `run`'s steps' ORs is the OR of the item's slices, and its
    /// conflicts the sum of their popcounts.
    fn check_run(run: &Run) {
        let mut conflicts = 0;
        for step in &run.steps {
            for (g, &hit) in step.hits.iter().enumerate() {
                let or = run
                    .slices
                    .iter()
                    .filter(|&&(bit, _)| step.item >> bit & 1 != 0)
                    .fold(0, |all, (_, words)| all | words[step.first + g]);
                assert_eq!(hit, or);
                conflicts += u64::from(hit.count_ones());
            }
        }
        assert_eq!(conflicts, run.conflicts);
    }

    /// Every placement of one queen per row of `rows` in `side`'s columns,
    /// each column once, on open squares, none attacking another, as
    /// `sum column << 5 row`.
    fn half_placements(n: usize, cut: &Cut, side: Side, rows: u32) -> Vec<u64> {
        let (first, end) = cut.columns(side, n);
        let rows: Vec<usize> = (0..n).filter(|&r| rows >> r & 1 != 0).collect();
        let mut out = Vec::new();
        let mut queens: Vec<(usize, usize)> = Vec::new();
        fn go(
            cut: &Cut,
            rows: &[usize],
            columns: (usize, usize),
            queens: &mut Vec<(usize, usize)>,
            out: &mut Vec<u64>,
        ) {
            let Some((&row, rest)) = rows.split_first() else {
                out.push(
                    queens
                        .iter()
                        .fold(0u64, |all, &(r, c)| all | (c as u64) << (5 * r)),
                );
                return;
            };
            for column in columns.0..columns.1 {
                let ok = cut.open[column] >> row & 1 != 0
                    && queens
                        .iter()
                        .all(|&(r, c)| c != column && r.abs_diff(row) != c.abs_diff(column));
                if ok {
                    queens.push((row, column));
                    go(cut, rest, columns, queens, out);
                    queens.pop();
                }
            }
        }
        go(cut, &rows, (first, end), &mut queens, &mut out);
        out
    }
}
