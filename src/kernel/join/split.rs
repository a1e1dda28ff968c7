//! How the join cuts a board: the two halves, the rows they share out, the
//! diagonals that join them, and which row sets count the same.
//!
//! A [`Split`] is one way to cut the board: for even `n`, the west half is
//! columns `0..n/2` and the east half the rest; for odd `n`, the middle
//! column's queen is placed first, in row `q`, and the halves are the
//! columns on either side of it, on the rows and squares it leaves free.
//! The row set `R` of the west half decides the east's: every other free
//! row. A horizontal line ([`Split::line`]) cuts each half again into a
//! north and a south quarter, which is how the half-boards are built
//! (`quarters.rs`, `halves.rs`).
//!
//! Rows are decided from the outside in (0, n-1, 1, n-2, ...). That order
//! lets a chunk of row sets ([`Chunk`]) be named by its first choices, and
//! tell early whether all its row sets are the smallest of their class
//! ([`Order`]).

use alloc::vec::Vec;

#[cfg(any(test, feature = "trace"))]
use super::band;
use super::band::{Band, Stabilizer};
use super::grow;
pub(crate) use super::transpose::LongDiagonals;
use super::transpose::{self, MiddleRows, TAG_MASK, TagWeights};
use crate::{Error, MAX_N};

/// About how many pieces a board with a band of two or more queens is cut
/// into ([`Split::piece_len`]).
const BAND_PIECES: usize = 65_536;

/// West or east.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The west columns: a queen in every row of `R`.
    West,
    /// The east columns: a queen in every free row not in `R`.
    East,
}

#[cfg(test)]
impl Side {
    pub(crate) const BOTH: [Side; 2] = [Side::West, Side::East];
}

/// Which images of a row set count the same as it: those of the split's
/// band's stabilizer (`band::Stabilizer`), which map the split to itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Images {
    /// The flip top to bottom (`flip(R)`), the mirror left to right (the
    /// east's rows, `!R`) and both: for the empty band of even `n`, and
    /// for odd `n` with the middle queen in the centre.
    FlipAndMirror,
    /// The mirror only: odd `n` with the middle queen in row `q` off the
    /// centre.
    Mirror,
    /// The half-turn only (`flip(!R)`): a band that the half-turn maps to
    /// itself.
    HalfTurn,
    /// None: every row set is counted for itself.
    Alone,
}

/// One way to cut an `n`x`n` board into halves, and the diagonal bits of
/// every square, built once per split of a count: the band's queens placed
/// (`band.rs`), the west half the columns west of the band, the east half
/// those east of it, on the rows and squares the band leaves free.
///
/// A west and an east queen can only meet on a diagonal that crosses the
/// band: those diagonals, with an open square on both sides, are the
/// *crossing* bits, the falling ones (`r - c` constant) first, then the
/// rising ones (`r + c`), at most 62 in all, [`RANKED`] of them moved to
/// the top as the sieve's cut bits for small row sets. A queen on a
/// diagonal that does not cross adds no bit: nothing on the other side can
/// meet it there.
///
/// Likewise a north and a south queen of one half can only meet on a
/// diagonal that crosses [`Split::line`] inside that half: those are the
/// *inner* bits of the half, falling ones first, `2 (w - 1)` for a half of
/// `w` columns (at most 30).
pub(crate) struct Split {
    pub(crate) n: usize,
    /// The queens placed first.
    pub(crate) band: Band,
    /// Columns of the west half: `0..west`; also how many queens it
    /// takes, as the east half does.
    pub(crate) west: usize,
    /// First column of the east half: past the band.
    pub(crate) east: usize,
    pub(crate) images: Images,
    /// How many solutions each solution the split finds stands for, beside
    /// the images of its row set: the band's class ([`Band::orbit`]), twice
    /// that where the transpose is used (see [`Split::new`]); 0 if the
    /// transpose leaves the split nothing to count.
    pub(crate) weight: u32,
    /// How the matcher weighs pairs by the two long diagonals (even `n`
    /// from 4, the transpose's other use).
    pub(crate) diagonals: LongDiagonals,
    /// How the band's queens weigh the pairs the long diagonals weigh 1
    /// (even `n`, a band of two: the transpose's third use), their middle
    /// rows' tags on the crossing bits.
    pub(crate) middle: Option<MiddleRows>,
    /// The rows either half may use: all but the band's.
    pub(crate) free_rows: u32,
    /// The first row of the south quarters: as many free rows above it as
    /// below (one more below for an odd number).
    pub(crate) line: usize,
    /// `open[column]`: the rows of the column the band does not attack
    /// (none for the band's columns).
    pub(crate) open: [u32; MAX_N],
    /// `crossing[row][column]`: the square's crossing bits.
    pub(crate) crossing: [[u64; MAX_N]; MAX_N],
    /// `inner[row][column]`: the square's inner bits, in its own half.
    pub(crate) inner: [[u32; MAX_N]; MAX_N],
    /// The free rows from the outside in.
    order: [u8; MAX_N],
    /// How many rows are free (and decided).
    pub(crate) rows: usize,
}

impl Split {
    /// Every split of an `n`x`n` board (`n` up to 32), one per band of
    /// [`band::bands`], built one at a time.
    #[cfg(any(test, feature = "trace"))]
    pub(crate) fn all(n: usize) -> Vec<Split> {
        debug_assert!(n <= MAX_N);
        band::bands(n)
            .into_iter()
            .map(|band| Split::new(n, band))
            .collect()
    }

    /// The split of an `n`x`n` board with `band`'s queens placed first.
    ///
    /// The transpose, which does not keep the halves, is still used, two
    /// ways:
    ///
    /// * For odd `n`, it swaps the middle column's queen, in row `q` at
    ///   distance `d` from the centre, with the middle row's, in column
    ///   `p`. Every solution without a queen in the centre has `p` at
    ///   another distance than `d` (at the same one the two queens share a
    ///   diagonal), and of a solution and its transpose exactly one has
    ///   the middle row's queen further out. So a split off the centre
    ///   keeps only solutions whose middle row's queen is further from the
    ///   centre than the middle column's, and counts each twice: the flip
    ///   and mirror keep both distances, so the row sets' and the band's
    ///   images still count the same. The middle row's squares nearer the
    ///   centre are closed; if the band holds the middle row's queen, the
    ///   split keeps all or nothing.
    /// * For even `n`, it leaves the main diagonal in place and swaps the
    ///   halves of the anti-diagonal (and vice versa): of a solution with
    ///   queens on both and its transpose, exactly one has them in one half
    ///   (the west half with the band's west columns, the east with the
    ///   rest), and the flip and mirror keep that. So such a solution
    ///   counts twice, one with the two queens in different halves not at
    ///   all ([`LongDiagonals`]).
    pub(crate) fn new(n: usize, band: Band) -> Split {
        Split::build(n, band, true)
    }

    /// The split of `band` with nothing folded: every row set counted for
    /// itself, the band for itself, the transpose unused. Its row sets'
    /// counts are the board's solutions with the band's queens and those
    /// rows west, what a plain search finds (`check.rs`).
    #[cfg(feature = "std")]
    pub(crate) fn unfolded(n: usize, band: Band) -> Split {
        Split::build(n, band, false)
    }

    fn build(n: usize, band: Band, fold: bool) -> Split {
        debug_assert!(n <= MAX_N && band.len() <= n && (n - band.len()).is_multiple_of(2));
        let west = band.first_column(n);
        let east = west + band.len();
        let images = match band.stabilizer(n) {
            _ if !fold => Images::Alone,
            Stabilizer::All => Images::FlipAndMirror,
            Stabilizer::Mirror => Images::Mirror,
            Stabilizer::HalfTurn => Images::HalfTurn,
            Stabilizer::Nothing => Images::Alone,
        };
        let free_rows = all_rows(n) & !band.row_set();
        let mut open = [0u32; MAX_N];
        for (column, rows) in open.iter_mut().enumerate().take(n) {
            if column >= west && column < east {
                continue;
            }
            for row in 0..n {
                let attacked = band
                    .queens(n)
                    .any(|(r, c)| r == row || r.abs_diff(row) == c.abs_diff(column));
                if !attacked {
                    *rows |= 1 << row;
                }
            }
        }
        let (transpose, diagonals, long) = if !fold {
            (1, LongDiagonals::Unweighed, [None; 2])
        } else if n % 2 == 1 {
            let weight = transpose::close_nearer_than_middle(n, &band, &mut open);
            (weight, LongDiagonals::Unweighed, [None; 2])
        } else if n >= 4 {
            let (diagonals, weight, long) = transpose::weigh_long_diagonals(n, &band, &mut open);
            (weight, diagonals, long)
        } else {
            (1, LongDiagonals::Unweighed, [None; 2])
        };
        let mut crossing = [[0u64; MAX_N]; MAX_N];
        let pinned = crossing_bits(n, west, east, &open, long, &mut crossing);
        permute_cut_bits(&open, west, east, n, pinned, &mut crossing);
        let middle = MiddleRows::of(n, &band, diagonals);
        if let Some(rule) = &middle {
            // The tags go where no crossing bit is: a band of two leaves at
            // most `2n - 6` crossing diagonals, 58 at N = 32, and the ten
            // ranked ones are at the top.
            debug_assert_eq!(
                crossing.iter().flatten().fold(0, |all, &bits| all | bits) & TAG_MASK,
                0
            );
            rule.mark(n, (0..west).chain(east..n), &mut crossing);
        }
        let line = line(free_rows);
        let mut inner = [[0u32; MAX_N]; MAX_N];
        inner_bits_of_halves(n, west, east, line, &mut inner);
        let mut order = [0u8; MAX_N];
        let rows = outside_in(n, free_rows, &mut order);
        Split {
            n,
            band,
            west,
            east,
            images,
            weight: if fold { band.orbit(n) * transpose } else { 1 },
            diagonals,
            middle,
            free_rows,
            line,
            open,
            crossing,
            inner,
            order,
            rows,
        }
    }

    /// Whether no solution can pass the split: the transpose leaves it
    /// nothing (weight 0), or a free row or a column of a half has no open
    /// square (the band attacks it all).
    pub(crate) fn is_empty(&self) -> bool {
        let halves = (0..self.west).chain(self.east..self.n);
        let open_rows = halves
            .clone()
            .fold(0, |rows, column| rows | self.open[column]);
        self.weight == 0
            || open_rows & self.free_rows != self.free_rows
            || halves.into_iter().any(|column| self.open[column] == 0)
    }

    /// A number that names the split among those of its board.
    pub(crate) fn key(&self) -> u64 {
        self.band.key()
    }

    /// How many free rows (from the outside in) a piece of the join
    /// decides, its chunks' length, for a board of `splits` splits. With no
    /// band or a band of one: about 500 pieces at N = 16, 1,000 at N = 18,
    /// 2,000 at N = 20 for even N (one split), half the rows for odd N
    /// (more, smaller splits: about 1,000 pieces at N = 17, 4,900 at N = 21).
    /// With wider bands, as many as make about [`BAND_PIECES`] in all (the
    /// splits are hundreds or thousands). Enough for every thread to finish
    /// within a small fraction of the total from the others, few enough
    /// for a record to list.
    pub(crate) fn piece_len(&self, splits: usize) -> usize {
        let half = self.rows / 2;
        match self.band.len() {
            0 => half + 3,
            1 => half,
            _ => ((BAND_PIECES / splits.max(1)).max(1).ilog2() as usize).min(self.rows),
        }
    }

    /// The row decided `i`-th.
    pub(crate) fn row_at(&self, i: usize) -> usize {
        usize::from(self.order[i])
    }

    /// The first `depth` rows from the outside in, and those of them in
    /// `rows` (the west's).
    pub(crate) fn decided(&self, depth: usize, rows: u32) -> Decided {
        let decided = (0..depth.min(self.rows)).fold(0u32, |set, at| set | 1 << self.row_at(at));
        Decided {
            rows: decided,
            west: rows & decided,
        }
    }

    /// The columns of `side`, `first..end`.
    pub(crate) fn columns(&self, side: Side) -> (usize, usize) {
        match side {
            Side::West => (0, self.west),
            Side::East => (self.east, self.n),
        }
    }

    /// How the row set `rows` (the west's) files its half-boards by tag,
    /// and weighs the pairs of tags ([`TagWeights`]): by the band's rule
    /// where the split has one, else not at all.
    pub(crate) fn tag_weights(&self, rows: u32) -> TagWeights {
        let Some(rule) = &self.middle else {
            return TagWeights::NONE;
        };
        let holds = |side_rows: u32| {
            let [a, b] = rule.rows();
            (side_rows >> a & 1) as u8 | ((side_rows >> b & 1) as u8) << 1
        };
        TagWeights::of(
            rule,
            holds(self.side_rows(Side::West, rows)),
            holds(self.side_rows(Side::East, rows)),
        )
    }

    /// The rows of `side`'s queens when the west half has row set `rows`.
    pub(crate) fn side_rows(&self, side: Side, rows: u32) -> u32 {
        match side {
            Side::West => rows,
            Side::East => self.free_rows & !rows,
        }
    }
}

/// Numbers the crossing diagonals of `open` (those with an open square in
/// the west half, columns `0..west`, and in the east, `east..n`), and the
/// diagonals of `long` too (those the matcher weighs, crossing or not),
/// falling ones first, then rising, in order; writes every square's bits
/// into `crossing`. Returns the bits of `long`'s diagonals.
fn crossing_bits(
    n: usize,
    west: usize,
    east: usize,
    open: &[u32; MAX_N],
    long: [Option<usize>; 2],
    crossing: &mut [[u64; MAX_N]; MAX_N],
) -> [Option<u32>; 2] {
    // Ids: falling `r - c + n - 1`, then rising `2n - 1 + r + c`.
    let ids = |row: usize, column: usize| [row + n - 1 - column, 2 * n - 1 + row + column];
    let mut sides = [[false; 2]; 4 * MAX_N];
    for column in (0..west).chain(east..n) {
        let side = usize::from(column >= east);
        for row in (0..n).filter(|&row| open[column] >> row & 1 != 0) {
            for id in ids(row, column) {
                sides[id][side] = true;
            }
        }
    }
    let mut bit_of = [None; 4 * MAX_N];
    let mut next = 0u32;
    for (id, bit) in bit_of.iter_mut().enumerate().take(4 * n) {
        if sides[id] == [true, true] || long.contains(&Some(id)) {
            *bit = Some(next);
            next += 1;
        }
    }
    debug_assert!(next <= 64);
    for (row, squares) in crossing.iter_mut().enumerate().take(n) {
        for (column, bits) in squares.iter_mut().enumerate().take(n) {
            *bits = ids(row, column)
                .iter()
                .filter_map(|&id| bit_of[id])
                .fold(0, |bits, bit| bits | 1 << bit);
        }
    }
    long.map(|id| id.and_then(|id| bit_of[id]))
}

/// The first row of the south quarters: as many of `free_rows` above it as
/// from it down (one more below for an odd number).
#[inline(always)]
fn line(free_rows: u32) -> usize {
    let free = free_rows.count_ones() as usize;
    let mut line = 0;
    while (free_rows & all_rows(line)).count_ones() as usize * 2 < free {
        line += 1;
    }
    line
}

/// Every square's inner bits in its own half (columns `0..west` and
/// `east..n`, see [`inner_bits`]) for the line before row `line`, into
/// `inner[row][column]`.
#[inline(always)]
fn inner_bits_of_halves(
    n: usize,
    west: usize,
    east: usize,
    line: usize,
    inner: &mut [[u32; MAX_N]; MAX_N],
) {
    for (first, end) in [(0, west), (east, n)] {
        let width = end - first;
        for (row, squares) in inner.iter_mut().enumerate().take(n) {
            for (column, bits) in squares.iter_mut().enumerate().take(end).skip(first) {
                *bits = inner_bits(row, column - first, width, line);
            }
        }
    }
}

/// The rows of `free_rows` from the outside in (0, n-1, 1, n-2, ...), and
/// how many (for the plan's pieces, which need `std`).
#[cfg(feature = "std")]
pub(crate) fn outside_in_order(n: usize, free_rows: u32) -> ([u8; MAX_N], usize) {
    let mut order = [0u8; MAX_N];
    let rows = outside_in(n, free_rows, &mut order);
    (order, rows)
}

/// The rows of `free_rows` from the outside in (0, n-1, 1, n-2, ...) into
/// `order`; returns how many.
#[inline(always)]
fn outside_in(n: usize, free_rows: u32, order: &mut [u8; MAX_N]) -> usize {
    let mut rows = 0;
    for i in 0..n {
        let row = if i % 2 == 0 { i / 2 } else { n - 1 - i / 2 };
        if free_rows >> row & 1 != 0 {
            order[rows] = row as u8;
            rows += 1;
        }
    }
    rows
}

/// The inner bits of square (`row`, `column`) of a half `width` columns
/// wide (`column` counted from its west edge), for the line before row
/// `line`: the falling diagonal through it meets the line between columns
/// `c` and `c + 1` of the half (bit `c`), the rising one between `c + 1`
/// and `c` (bit `width - 1 + c`), when both are in the half.
fn inner_bits(row: usize, column: usize, width: usize, line: usize) -> u32 {
    let (r, c, w, h) = (row as isize, column as isize, width as isize, line as isize);
    let mut bits = 0;
    // Falling: the diagonal's square in row h - 1 is in column c - (r - h + 1).
    let falling = c - (r - h + 1);
    if (0..w - 1).contains(&falling) {
        bits |= 1 << falling;
    }
    // Rising: its square in row h is in column c + r - h; the one in row
    // h - 1 is one column east.
    let rising = c + r - h;
    if (0..w - 1).contains(&rising) {
        bits |= 1 << (w - 1 + rising);
    }
    bits
}

/// The rows a piece has decided (a board row set) and those of them it
/// gives the west half: the others are the east's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decided {
    pub(crate) rows: u32,
    pub(crate) west: u32,
}

impl Decided {
    /// Nothing decided: the whole quarters.
    #[cfg(any(test, feature = "trace"))]
    pub(crate) const NONE: Decided = Decided { rows: 0, west: 0 };

    /// The part of it in `band` (a board row set).
    pub(crate) fn within(self, band: u32) -> Decided {
        Decided {
            rows: self.rows & band,
            west: self.west & band,
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
        match split.images {
            Images::Alone => return Some(self),
            // R against !R, which differ in every free row: the highest
            // (row n - 1, never the middle queen's above the centre) decides.
            Images::Mirror => return (row + 1 != split.n || !in_rows).then_some(self),
            Images::HalfTurn | Images::FlipAndMirror => {}
        }
        // The free rows come in pairs (j, n - 1 - j): the images keep the
        // band's rows, so the band takes both rows of a pair or neither.
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
        if split.images == Images::HalfTurn {
            // Only R against flip(!R).
            next.below_flip = true;
        } else if at == 1 && b {
            // R against !R: they differ in every row, first in row n - 1.
            return None;
        }
        if !next.below_flip && a != b {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Chunk {
    pub(crate) pattern: u32,
    pub(crate) len: usize,
}

impl Chunk {
    /// Every chunk of `len` choices that holds some row set the join
    /// counts (`split.west` rows, the smallest of its class). (Plans and
    /// samples list them; a count builds them with [`Chunk::try_all`].)
    #[cfg(any(feature = "std", test))]
    pub(crate) fn all(split: &Split, len: usize) -> Vec<Chunk> {
        let mut chunks = Vec::new();
        Chunk::for_each(split, len, |chunk| chunks.push(chunk));
        chunks
    }

    /// Calls `visit` with every chunk of [`Chunk::all`], in order.
    fn for_each(split: &Split, len: usize, mut visit: impl FnMut(Chunk)) {
        let len = len.min(split.rows);
        for pattern in 0u32..1 << len {
            let in_rows = pattern.count_ones() as usize;
            if in_rows > split.west || len - in_rows > split.rows - split.west {
                continue;
            }
            if (Chunk { pattern, len }).order(split).is_some() {
                visit(Chunk { pattern, len });
            }
        }
    }

    /// The chunk of its first `len` choices (all of them if it has fewer),
    /// which holds it.
    #[cfg(feature = "std")]
    pub(crate) fn first(&self, len: usize) -> Chunk {
        let len = len.min(self.len);
        Chunk {
            pattern: self.pattern & ((1u64 << len) - 1) as u32,
            len,
        }
    }

    fn order(&self, split: &Split) -> Option<Order> {
        let mut order = Some(Order::default());
        for at in 0..self.len {
            order = order.and_then(|o| o.after(split, at, self.pattern >> at & 1 != 0));
        }
        order
    }

    /// [`Chunk::all`], its list grown fallibly: what a count builds while
    /// it holds tables.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for the list is refused.
    pub(crate) fn try_all(split: &Split, len: usize) -> Result<Vec<Chunk>, Error> {
        let (mut chunks, mut refused) = (Vec::new(), Ok(()));
        Chunk::for_each(split, len, |chunk| {
            grow::push_while_room(&mut chunks, &mut refused, chunk);
        });
        refused.map(|()| chunks)
    }

    /// Every row set `rows` of the chunk that is the smallest of its
    /// class, with the number of row sets it stands for ([`orbit`]), in the
    /// outside-in order of their choices, into `out` (cleared first).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the room for the list is refused (a few
    /// thousand row sets, but asked for between a count's tables); `out`
    /// then holds some of them.
    pub(crate) fn row_sets(&self, split: &Split, out: &mut Vec<(u32, u32)>) -> Result<(), Error> {
        out.clear();
        let mut refused = Ok(());
        self.for_each_row_set(split, |rows, images| {
            grow::push_while_room(out, &mut refused, (rows, images));
        });
        refused
    }

    /// Calls `visit(rows, images)` for every row set of
    /// [`Chunk::row_sets`].
    pub(crate) fn for_each_row_set(&self, split: &Split, mut visit: impl FnMut(u32, u32)) {
        let (mut rows, mut taken) = (0u32, 0usize);
        for at in 0..self.len {
            if self.pattern >> at & 1 != 0 {
                rows |= 1 << split.row_at(at);
                taken += 1;
            }
        }
        if taken > split.west {
            return;
        }
        // The undecided rows, from the outside in: choose the rest of the
        // west's rows among them.
        // On the stack: a count lists a chunk's row sets between its tables.
        let mut undecided = [0usize; MAX_N];
        let undecided = &mut undecided[..split.rows.saturating_sub(self.len)];
        for (i, row) in undecided.iter_mut().enumerate() {
            *row = split.row_at(self.len + i);
        }
        choose(undecided, split.west - taken, rows, &mut |rows| {
            let images = orbit(split, rows);
            if images > 0 {
                visit(rows, images);
            }
        });
    }
}

/// Calls `visit` with `rows` plus every `k` of `from`.
fn choose(from: &[usize], k: usize, rows: u32, visit: &mut impl FnMut(u32)) {
    if k == 0 {
        visit(rows);
        return;
    }
    if from.len() < k {
        return;
    }
    choose(&from[1..], k - 1, rows | 1 << from[0], visit);
    choose(&from[1..], k, rows, visit);
}

/// How many crossing diagonals the split ranks at the masks' top bits:
/// more than the sieve of a row set takes from there
/// (`cuts::Policy::chosen_from`; larger row sets choose their own).
pub(crate) const RANKED: usize = 10;
/// Where the ranked bits start.
const RANKED_SHIFT: u32 = 64 - RANKED as u32;

/// Moves [`RANKED`] crossing diagonals to the masks' top bits, the cut bits of
/// the matcher's sieve for small row sets: those with the most open squares
/// on both sides (product of the two counts), which most half-boards of
/// both sides use; `pinned`'s bits (the long diagonals the matcher weighs)
/// at the very top, the first above the second. The other bits keep their
/// order below them.
fn permute_cut_bits(
    open: &[u32; MAX_N],
    west: usize,
    east: usize,
    n: usize,
    pinned: [Option<u32>; 2],
    crossing: &mut [[u64; MAX_N]; MAX_N],
) {
    let mut squares = [[0u32; 64]; 2];
    for column in 0..n {
        let side = usize::from(column >= east);
        if column >= west && column < east {
            continue; // the band
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
    // Lowest first: `cuts[RANKED - 1]` goes to the top bit.
    // On the stack: a split is built by each counting thread, between its
    // tables, where the memory may have run out.
    let (mut pinned_bits, mut pinned_len) = ([0usize; 2], 0);
    for &bit in pinned.iter().flatten() {
        pinned_bits[pinned_len] = bit as usize;
        pinned_len += 1;
    }
    let pinned = &pinned_bits[..pinned_len];
    let mut others = by_use
        .iter()
        .map(|&(_, bit)| bit)
        .filter(|bit| !pinned.contains(bit));
    let mut cuts = [0usize; RANKED];
    for cut in cuts.iter_mut().take(RANKED - pinned.len()) {
        *cut = others.next().unwrap_or(0);
    }
    for (i, &bit) in pinned.iter().enumerate() {
        cuts[RANKED - 1 - i] = bit;
    }
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
        place[cut] = RANKED_SHIFT + i as u32;
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

/// How many row sets of the split `rows` stands for: itself and its images
/// (see [`Images`]). Returns 0 if `rows` is not the smallest of its images,
/// so that each class is counted once, by its smallest member. (The other
/// splits of its band's class are the split's weight.)
pub(crate) fn orbit(split: &Split, rows: u32) -> u32 {
    let n = split.n;
    let complement = split.free_rows & !rows;
    let flip = |r: u32| {
        if n == 0 {
            r
        } else {
            r.reverse_bits() >> (32 - n)
        }
    };
    match split.images {
        Images::Alone => 1,
        // R and !R, never equal: the band leaves rows free.
        Images::Mirror => 2 * u32::from(rows < complement),
        Images::HalfTurn => {
            let image = flip(complement);
            if rows > image {
                0
            } else {
                2 - u32::from(rows == image)
            }
        }
        Images::FlipAndMirror => {
            if rows > complement && split.free_rows != 0 {
                return 0;
            }
            let (flipped, flipped_complement) = (flip(rows), flip(complement));
            if rows > flipped || rows > flipped_complement {
                return 0;
            }
            // Four images, two pairs of which may coincide: R = flip(R)
            // exactly when !R = flip(!R), and R = flip(!R) exactly when
            // !R = flip(R). (For n = 0 and 1 there is one row set, the
            // empty one.)
            if rows == complement {
                return 1;
            }
            4 / (1 + u32::from(rows == flipped)) / (1 + u32::from(rows == flipped_complement))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class of row sets, in every split, is counted once: with
    /// every width of band, the row sets the splits count, each times its
    /// images and its band's class, are every row set of every placement
    /// of the band.
    #[test]
    fn every_class_is_counted_once_by_its_smallest_member() {
        for n in 0..=11 {
            for width in (n % 2..=band::MAX_BAND.min(n)).step_by(2) {
                let w = (n - width) / 2;
                let (mut covered, mut placements) = (0u64, 0u64);
                for band in band::bands_of_width(n, width) {
                    let split = Split::new(n, band);
                    placements += u64::from(band.orbit(n));
                    for rows in 0u32..1 << n {
                        if rows & !split.free_rows == 0 && rows.count_ones() as usize == w {
                            covered += u64::from(orbit(&split, rows) * band.orbit(n));
                        }
                    }
                }
                // Each placement's free rows (n - width of them), w west.
                let sets = placements * binomial(n - width, w);
                assert_eq!(covered, sets, "n = {n}, a band of {width}");
            }
        }
    }

    /// The splits of an `n`x`n` board with every width of band.
    fn every_split(n: usize) -> Vec<Split> {
        (n % 2..=band::MAX_BAND.min(n))
            .step_by(2)
            .flat_map(|width| band::bands_of_width(n, width))
            .map(|band| Split::new(n, band))
            .collect()
    }

    fn binomial(n: usize, k: usize) -> u64 {
        (0..k).fold(1, |c, i| c * (n - i) as u64 / (i as u64 + 1))
    }

    /// The chunks' row sets are every counted row set, each once, and a
    /// chunk is dropped only if it holds none.
    #[test]
    fn the_chunks_hold_exactly_the_smallest_row_sets() {
        for n in 1..=11 {
            for split in every_split(n) {
                for len in 0..=split.rows {
                    let mut seen = Vec::new();
                    for chunk in Chunk::all(&split, len) {
                        chunk.for_each_row_set(&split, |rows, images| {
                            assert_eq!(images, orbit(&split, rows));
                            seen.push(rows);
                        });
                    }
                    let mut expected: Vec<u32> = (0u32..1 << n)
                        .filter(|&rows| {
                            rows & !split.free_rows == 0
                                && rows.count_ones() as usize == split.west
                                && orbit(&split, rows) > 0
                        })
                        .collect();
                    seen.sort_unstable();
                    expected.sort_unstable();
                    assert_eq!(seen, expected, "n = {n}, len = {len}");
                }
            }
        }
    }

    #[test]
    fn the_search_order_keeps_exactly_the_smallest_row_sets() {
        for n in 1..=11 {
            for split in every_split(n) {
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
        // The two long diagonals are the top cut bits, main above anti.
        for r in 0..8 {
            assert_eq!(split.crossing[r][r] >> 62, 0b10);
            assert_eq!(split.crossing[r][7 - r] >> 62, 0b01);
        }
        // The cut bits are in use.
        let used = split
            .crossing
            .iter()
            .flatten()
            .fold(0, |all, bits| all | bits);
        assert_eq!(used >> RANKED_SHIFT, (1 << RANKED) - 1);
        // Odd n: the middle queen in row 1 of 5 leaves (0, 0) free, not (0, 1).
        let split = &Split::all(5)[1];
        assert_eq!(split.open[0] & 1, 1);
        assert_eq!(split.open[1] & 1, 0);
        assert_eq!(split.free_rows, 0b11101);
    }

    /// Two squares of one half, one each side of the line, share an inner
    /// bit exactly when they share a diagonal.
    #[test]
    fn inner_bits_are_the_diagonals_across_the_line() {
        for n in 2..=13 {
            for split in Split::all(n) {
                for side in Side::BOTH {
                    let (first, end) = split.columns(side);
                    for (r1, r2) in
                        (0..split.line).flat_map(|a| (split.line..n).map(move |b| (a, b)))
                    {
                        for c1 in first..end {
                            for c2 in first..end {
                                let diagonal = r1.abs_diff(r2) == c1.abs_diff(c2);
                                let shared = split.inner[r1][c1] & split.inner[r2][c2] != 0;
                                assert_eq!(shared, diagonal, "n = {n} ({r1}, {c1}) ({r2}, {c2})");
                            }
                        }
                    }
                }
            }
        }
    }
}
