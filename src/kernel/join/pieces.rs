//! The join cut into numbered pieces: what a plan ([`crate::plan`]) counts
//! on threads, in shards across machines and from checkpoints.
//!
//! A [`JoinPiece`] is a chunk of one split's row sets ([`Chunk`]): those whose
//! first choices of rows, from the outside in, are the chunk's. The pieces
//! of a board are every split's chunks of `Split::piece_len` choices, in a fixed
//! order; their counts add up to the board's. Counting a piece needs its
//! split's quarter-boards, built once per split by whoever counts it
//! ([`count`]) and shared by its threads.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::ops::Range;

use super::band::{self, Band};
use super::deal::{Block, Dealer};
use super::grow;
use super::split::{Chunk, Split, all_rows, outside_in_order};
use super::{Joiner, Scratch, quarters::HeldQuarters};
use crate::kernel::progress::{InFlight, PartsDone, Progress};
use crate::support::workers::Ran;
use crate::{Count, Error};

/// The first word of a join plan's fingerprint: its method ("JOIN") and
/// the version of its split, which changes whenever the pieces or the way
/// they are dealt to shards do (version 2: in runs, `Plan::shard`; version
/// 3: the bands of N = 24 and 25 up), so
/// that shards and checkpoints of other pieces are refused. No symmetric plan's
/// fingerprint starts with it (theirs start with the symmetric split's
/// version, a small number).
pub(crate) const SPLIT_VERSION: u64 = 0x4a4f_494e_0000_0003;

/// One piece of a join count: a chunk of one split's row sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JoinPiece {
    /// Which split: its band's place in [`band::bands`].
    pub(crate) split: usize,
    /// That split's band, the queens it places first.
    pub(crate) band: Band,
    pub(crate) chunk: Chunk,
}

impl JoinPiece {
    /// Its split, built.
    pub(crate) fn split(&self, n: usize) -> Split {
        Split::new(n, self.band)
    }

    /// The rows the piece's choices give the west half and those they give
    /// the east half, as board row sets (the split's rows from the outside
    /// in, found without building it).
    pub(crate) fn rows(&self, n: usize) -> (u32, u32) {
        let free_rows = all_rows(n) & !self.band.row_set();
        let (order, _) = outside_in_order(n, free_rows);
        self.decided(|at| usize::from(order[at]))
    }

    /// Its split, then its choices read first to last: pieces in this order
    /// share their first choices with their neighbours.
    pub(crate) fn choice_order(&self) -> (usize, u32) {
        let len = self.chunk.len as u32;
        let first_to_last = if len == 0 {
            0
        } else {
            self.chunk.pattern.reverse_bits() >> (32 - len)
        };
        (self.split, first_to_last)
    }

    /// Feeds what names the piece (its split and its choices) to a plan's
    /// fingerprint.
    pub(crate) fn fingerprint(&self, eat: &mut dyn FnMut(u64)) {
        eat(self.split as u64);
        eat(self.band.key());
        eat(u64::from(self.chunk.pattern));
        eat(self.chunk.len as u64);
    }

    /// How many row sets it has: those its chunk lists
    /// ([`Chunk::row_sets`]), numbered in that order by a count's parts.
    pub(crate) fn row_sets(&self, n: usize) -> u32 {
        let mut count = 0;
        self.chunk
            .for_each_row_set(&self.split(n), |_, _| count += 1);
        count
    }

    /// [`JoinPiece::rows`] in `split`, the piece's.
    pub(crate) fn rows_in(&self, split: &Split) -> (u32, u32) {
        self.decided(|at| split.row_at(at))
    }

    /// The west and east rows of its choices, the `at`-th choice's row
    /// being `row_at(at)`.
    fn decided(&self, row_at: impl Fn(usize) -> usize) -> (u32, u32) {
        let (mut west, mut east) = (0, 0);
        for at in 0..self.chunk.len {
            let row = 1 << row_at(at);
            if self.chunk.pattern >> at & 1 != 0 {
                west |= row;
            } else {
                east |= row;
            }
        }
        (west, east)
    }
}

/// Every piece of an `n`x`n` board (`n` up to 32), split by split (none
/// of a split that counts nothing), and each split's pieces with their
/// split built, to `visit`.
fn for_each_split(n: usize, mut visit: impl FnMut(&Split, &[JoinPiece])) {
    let bands = band::bands(n);
    let splits = bands.len();
    let mut pieces = Vec::new();
    for (index, band) in bands.into_iter().enumerate() {
        let split = Split::new(n, band);
        if split.is_empty() {
            continue;
        }
        pieces.clear();
        pieces.extend(
            Chunk::all(&split, split.piece_len(splits))
                .into_iter()
                .map(|chunk| JoinPiece {
                    split: index,
                    band,
                    chunk,
                }),
        );
        visit(&split, &pieces);
    }
}

/// Every piece of an `n`x`n` board (`n` up to 32), split by split (none
/// of a split that counts nothing).
#[cfg(test)]
pub(crate) fn pieces(n: usize) -> Vec<JoinPiece> {
    let mut all = Vec::new();
    for_each_split(n, |_, pieces| all.extend_from_slice(pieces));
    all
}

/// Calls `visit` with every piece of an `n`x`n` board (`n` up to 32) and
/// its estimate ([`estimate_in`]): a join plan's pieces, in their fixed
/// order.
pub(crate) fn for_each_estimated(n: usize, mut visit: impl FnMut(JoinPiece, u64)) {
    for_each_split(n, |split, pieces| {
        for piece in pieces {
            visit(*piece, estimate_in(split, piece));
        }
    });
}

/// How many pieces [`for_each_estimated`] visits, found without keeping
/// them: what a plan will hold, before it is built.
pub(crate) fn how_many(n: usize) -> usize {
    let mut count = 0;
    for_each_split(n, |_, pieces| count += pieces.len());
    count
}

/// A rough measure of a piece's work, cheap to compute: the join of a row
/// set with `j` of the west's `w` rows north of the line costs about
/// `C(w, j)^1.5` (measured at N = 16 and 18: within a factor of two for
/// most row sets, and right in its ordering), summed over the piece's row
/// sets, counted by their rows north and south without building them.
#[cfg(test)]
pub(crate) fn estimate(n: usize, piece: &JoinPiece) -> u64 {
    estimate_in(&piece.split(n), piece)
}

/// [`estimate`] in `split`, the piece's: over [`ways_north`], how many
/// row sets times `C(w, j)^1.5`.
pub(crate) fn estimate_in(split: &Split, piece: &JoinPiece) -> u64 {
    ways_north(split, piece).iter().fold(0u64, |total, way| {
        let cost = way.cost.saturating_mul(way.cost.isqrt());
        total.saturating_add(way.sets.saturating_mul(cost))
    })
}

/// Row sets of a piece that take `more_north` of its undecided rows north
/// of the line ([`ways_north`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WayNorth {
    /// How many of the undecided rows they take north of the line.
    pub(crate) more_north: usize,
    /// How many row sets do.
    pub(crate) sets: u64,
    /// `C(w, j)` of each, `j` the west's rows north of the line: how many
    /// ways its north queens can take their columns.
    pub(crate) cost: u64,
}

/// The piece's row sets by how many of its undecided rows they take north
/// of the line.
pub(crate) fn ways_north(split: &Split, piece: &JoinPiece) -> Vec<WayNorth> {
    let north = |rows: u32| (rows & ((1u32 << split.line) - 1)).count_ones() as usize;
    let (west, east) = piece.rows_in(split);
    let undecided = split.free_rows & !(west | east);
    let (open_north, open_south) = (
        north(undecided),
        undecided.count_ones() as usize - north(undecided),
    );
    let (taken, taken_north) = (west.count_ones() as usize, north(west));
    let Some(left) = split.west.checked_sub(taken) else {
        return Vec::new();
    };
    (0..=left.min(open_north))
        .filter(|&more_north| left - more_north <= open_south)
        .map(|more_north| WayNorth {
            more_north,
            sets: binomial(open_north, more_north)
                .saturating_mul(binomial(open_south, left - more_north)),
            cost: binomial(split.west, taken_north + more_north),
        })
        .collect()
}

/// `C(n, k)`, saturating.
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut value = 1u64;
    for i in 0..k.min(n - k) {
        value = value.saturating_mul((n - i) as u64) / (i as u64 + 1);
    }
    value
}

/// `pieces`, those whose first `depth` choices (and split) agree taken
/// together, in the order of the first of each group, the rest after it in
/// the order given: a thread that counts them in turn keeps its tables.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the list is refused (the
/// pieces, their places and their groups' ranks: 56 bytes a piece).
fn grouped(pieces: &[(usize, JoinPiece)], depth: usize) -> Result<Vec<(usize, JoinPiece)>, Error> {
    let key = |at: u64| {
        let piece = &pieces[at as usize].1;
        (piece.split, piece.chunk.first(depth))
    };
    // The pieces' places in `pieces`, sorted by group, then by place: the
    // first of a group ranks it. Then by rank, then by place. No map, and
    // sorts that allocate nothing: only the lists are asked for, fallibly.
    let mut places = grow::zeroed::<u64>(pieces.len())?;
    let in_order = |places: &mut [u64]| {
        for (at, place) in places.iter_mut().enumerate() {
            *place = at as u64;
        }
    };
    in_order(&mut places);
    places.sort_unstable_by_key(|&at| (key(at), at));
    let mut rank = grow::zeroed::<u64>(pieces.len())?;
    let mut first = 0;
    for (i, &at) in places.iter().enumerate() {
        if key(at) != key(places[first]) {
            first = i;
        }
        rank[at as usize] = places[first];
    }
    in_order(&mut places);
    places.sort_unstable_by_key(|&at| (rank[at as usize], at));
    let mut sorted = grow::copied(pieces)?;
    for (slot, &at) in sorted.iter_mut().zip(&places) {
        *slot = pieces[at as usize];
    }
    Ok(sorted)
}

/// What a counting thread keeps from one block to the next: the split of
/// the last, its tables, its buffers.
struct Held {
    split: Option<Split>,
    quarters: HeldQuarters,
    scratch: Scratch,
}

impl Held {
    fn new(depth: usize) -> Held {
        Held {
            split: None,
            quarters: HeldQuarters::new(depth),
            scratch: Scratch::default(),
        }
    }

    /// The solutions of `block`'s row sets, with `joiner`, in the split
    /// held if it is the block's (blocks of one split come together).
    fn count(&mut self, joiner: &dyn Joiner, n: usize, block: &Block) -> Result<Count, Error> {
        if self
            .split
            .as_ref()
            .is_none_or(|split| split.band != block.piece.band)
        {
            self.split = Some(block.piece.split(n));
        }
        let split = self.split.as_ref().expect("just built");
        joiner.count_row_sets(
            split,
            &mut self.quarters,
            block.row_sets(),
            &mut self.scratch,
        )
    }
}

/// A block counted: what a thread sends the calling thread.
struct BlockCounted {
    index: usize,
    rows: Range<u32>,
    of: u32,
    count: Count,
}

/// Counts the pieces `(index, piece)` of an `n`x`n` board with `joiner`
/// on `threads` threads, the row sets `in_flight` says an earlier run
/// counted left out, and reports on this thread each block of row sets as
/// it finishes ([`Progress::Part`]), each piece once all of its row sets
/// are ([`Progress::Done`]: its parts of earlier runs included), and now
/// and then that the count goes on ([`Progress::Alive`]). The pieces are
/// taken in turn, those that share tables together ([`grouped`]), and
/// dealt to the threads in blocks (`deal.rs`): every thread works on the
/// piece in hand. Each thread builds the quarter-boards its row sets read
/// ([`HeldQuarters`]), keeping them for the next that shares them. Returns
/// how many threads counted: fewer than asked if the system refused some
/// (`crate::support::workers`).
///
/// # Errors
///
/// [`Error::InvalidThreads`] for no threads; [`Error::OutOfMemory`] if a
/// thread's tables or buffers are refused; [`Error::InvalidShard`] if a
/// piece of `in_flight` has another number of row sets than it was begun
/// with: the first such error, once every thread has stopped (none takes
/// another block after it; the blocks finished before it are reported).
pub(crate) fn count(
    joiner: &dyn Joiner,
    n: usize,
    pieces: &[(usize, JoinPiece)],
    in_flight: &InFlight,
    threads: usize,
    report: &mut dyn FnMut(Progress),
) -> Result<Ran, Error> {
    use core::sync::atomic::{AtomicBool, Ordering};

    if threads == 0 {
        return Err(Error::InvalidThreads);
    }
    let depth = super::memory::Tables::of(n).depth;
    let pieces = &grouped(pieces, depth)?;
    let dealer = Dealer::new(n, pieces, in_flight, threads);
    let mut tracker = Tracker::new(in_flight);
    // One thread counts on a thread of its own too, so that this one
    // reports that the count is alive while a long row set is joined.
    if pieces.is_empty() {
        let mut held = Held::new(depth);
        let mut timed = None;
        while let Some(block) = dealer.next(timed.take())? {
            let started = std::time::Instant::now();
            let count = held.count(joiner, n, &block)?;
            timed = Some((block.work, started.elapsed().as_secs_f64()));
            tracker.finished(counted(&block, count), report);
        }
        return Ok(Ran::ONE);
    }
    // Set by the first thread whose count fails: the others finish the
    // block they hold and take no other.
    let failed = AtomicBool::new(false);
    let worker = |send: &mut dyn FnMut(Result<BlockCounted, Error>)| {
        let mut held = Held::new(depth);
        let mut timed = None;
        // Relaxed: the flag only stops early.
        while !failed.load(Ordering::Relaxed) {
            let block = match dealer.next(timed.take()) {
                Ok(Some(block)) => block,
                Ok(None) => break,
                Err(error) => {
                    failed.store(true, Ordering::Relaxed);
                    send(Err(error));
                    break;
                }
            };
            let started = std::time::Instant::now();
            let count = held.count(joiner, n, &block);
            timed = Some((block.work, started.elapsed().as_secs_f64()));
            if count.is_err() {
                failed.store(true, Ordering::Relaxed);
                // Its tables and buffers go before the error is reported,
                // so that the other threads, and the caller, have the room.
                held = Held::new(depth);
            }
            send(count.map(|count| counted(&block, count)));
        }
    };
    let mut first_error = None;
    let ran = crate::support::workers::run_ticking(threads, worker, &mut |sent| match sent {
        Some(Ok(block)) => tracker.finished(block, report),
        Some(Err(error)) => {
            first_error.get_or_insert(error);
        }
        None => report(Progress::Alive),
    });
    first_error.map_or(Ok(ran), Err)
}

/// What a thread reports of `block`, whose row sets' share is `count`.
fn counted(block: &Block, count: Count) -> BlockCounted {
    BlockCounted {
        index: block.index,
        rows: block.rows.clone(),
        of: block.of(),
        count,
    }
}

/// The calling thread's account of the pieces in flight: how many of
/// each one's row sets are still to count, and the share of those counted.
struct Tracker<'a> {
    in_flight: &'a InFlight,
    left: BTreeMap<usize, (u32, Count)>,
}

impl<'a> Tracker<'a> {
    fn new(in_flight: &'a InFlight) -> Tracker<'a> {
        Tracker {
            in_flight,
            left: BTreeMap::new(),
        }
    }

    /// Reports `block` (as a part, unless it is empty), and its piece if
    /// that was its last row sets.
    fn finished(&mut self, block: BlockCounted, report: &mut dyn FnMut(Progress)) {
        let earlier = self.in_flight.get(block.index);
        let (left, count) = self.left.entry(block.index).or_insert_with(|| {
            let done = earlier.map_or(0, PartsDone::len);
            (block.of - done, earlier.map_or(0, PartsDone::count))
        });
        let rows = block.rows.end - block.rows.start;
        *left -= rows;
        // At most N! in all: no overflow.
        *count += block.count;
        let (left, count) = (*left, *count);
        if rows > 0 {
            report(Progress::Part {
                index: block.index,
                rows: block.rows,
                of: block.of,
                count: block.count,
            });
        }
        if left == 0 {
            self.left.remove(&block.index);
            report(Progress::Done {
                index: block.index,
                count,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::split::Side;

    /// Counts `all` on `threads` threads with the system refusing those
    /// past `allowed`, the parts of `begun` left out: every piece's whole
    /// count (checked to be reported once), every part reported, and the
    /// threads that ran. Each part is checked to be new, within its piece
    /// and outside `begun`'s.
    fn counted(
        n: usize,
        all: &[(usize, JoinPiece)],
        begun: &InFlight,
        threads: usize,
        allowed: usize,
    ) -> (Vec<Option<Count>>, InFlight, Ran) {
        let mut whole = alloc::vec![None; all.len()];
        let mut parts = begun.clone();
        let ran = crate::support::workers::refusing_after(allowed, || {
            count(
                &crate::kernel::join::Join(()),
                n,
                all,
                begun,
                threads,
                &mut |progress| match progress {
                    Progress::Part {
                        index,
                        rows,
                        of,
                        count,
                    } => parts.add(index, rows, of, count).unwrap(),
                    Progress::Done { index, count } => {
                        assert!(whole[index].replace(count).is_none(), "{index} twice");
                    }
                    Progress::Alive => {}
                },
            )
        })
        .unwrap();
        (whole, parts, ran)
    }

    /// The pieces' counts add up to the board's (the portable kernel's),
    /// whatever the threads, and whatever the system refuses of them:
    /// `allowed` threads started of those asked, none at all (the calling
    /// thread counts), or all; and every piece's parts cover its row sets
    /// once and add up to its count.
    #[test]
    fn the_pieces_add_up_to_the_board() {
        for n in 0..=12 {
            let all: Vec<(usize, JoinPiece)> = pieces(n).into_iter().enumerate().collect();
            let expected = crate::kernel::portable::oracle_count(n);
            for (threads, allowed) in [(1, 0), (2, usize::MAX), (3, usize::MAX), (3, 1), (3, 0)] {
                let (whole, parts, ran) = counted(n, &all, &InFlight::new(), threads, allowed);
                let total: Count = whole.iter().map(|c| c.expect("every piece")).sum();
                assert_eq!(total, expected, "n = {n}, {allowed} of {threads} threads");
                for (index, piece) in &all {
                    let of = piece.row_sets(n);
                    let (done, count) = parts.get(*index).map_or((0, 0), |p| (p.len(), p.count()));
                    assert_eq!((done, count), (of, whole[*index].unwrap()), "{index}");
                }
                // Even one thread is started (none for no pieces): where
                // none can be, this one counts.
                let asked = if all.is_empty() { 0 } else { threads };
                let started = allowed.min(asked);
                assert_eq!(
                    ran.threads,
                    started.max(1),
                    "n = {n}, {allowed} of {threads}"
                );
                assert_eq!(
                    ran.refused,
                    asked - started,
                    "n = {n}, {allowed} of {threads}"
                );
            }
        }
    }

    /// A count resumed from some of the parts an earlier one reported
    /// counts only the other row sets, and every piece's count is the
    /// same: every other part kept, every third, none, all of them.
    #[test]
    fn a_count_resumed_from_its_parts_counts_the_rest_and_agrees() {
        for n in [9, 12, 14] {
            let all: Vec<(usize, JoinPiece)> = pieces(n).into_iter().enumerate().collect();
            let (whole, _, _) = counted(n, &all, &InFlight::new(), 1, usize::MAX);
            for keep in [2, 3, usize::MAX, 1] {
                // Parts of one row set each, a part of every `keep`-th kept.
                let mut begun = InFlight::new();
                let mut kept = 0usize;
                for (index, piece) in &all {
                    let split = piece.split(n);
                    let mut row_sets = Vec::new();
                    piece.chunk.row_sets(&split, &mut row_sets).unwrap();
                    for (at, row_set) in row_sets.iter().enumerate() {
                        kept += 1;
                        if kept % keep != 0 {
                            continue;
                        }
                        let mut scratch = Scratch::default();
                        let mut quarters = HeldQuarters::new(0);
                        let count = crate::kernel::join::Join(())
                            .count_row_sets(&split, &mut quarters, &[*row_set], &mut scratch)
                            .unwrap();
                        let rows = at as u32..at as u32 + 1;
                        begun
                            .add(*index, rows, row_sets.len() as u32, count)
                            .unwrap();
                    }
                }
                for threads in [1, 3] {
                    let (again, parts, _) = counted(n, &all, &begun, threads, usize::MAX);
                    assert_eq!(again, whole, "n = {n}, every {keep}, {threads} threads");
                    for (index, piece) in &all {
                        let done = parts.get(*index).map_or(0, PartsDone::len);
                        assert_eq!(done, piece.row_sets(n), "n = {n}, piece {index}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_piece_has_an_estimate_and_the_rows_it_decides() {
        for n in [12, 13, 16] {
            for piece in pieces(n) {
                assert!(estimate(n, &piece) > 0, "n = {n}, {piece:?}");
                let (west, east) = piece.rows(n);
                assert_eq!(west & east, 0);
                assert_eq!((west | east).count_ones() as usize, piece.chunk.len);
                let split = piece.split(n);
                assert_eq!(split.side_rows(Side::West, west), west);
                assert_eq!(piece.rows_in(&split), (west, east));
            }
        }
    }
}
