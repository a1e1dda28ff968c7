//! A random sample of a join count's row sets, joined and timed with the
//! real kernel: what a projection of a count too long to run is made of
//! ([`crate::plan::Sample`]).
//!
//! A draw picks a row set of a piece with probability proportional to its
//! *sampling weight* `sqrt(C(w, j))`, `j` the west's rows north of the
//! line (of `w`): the ways its north queens can take their columns. Then
//! `total weight * x / weight` is an unbiased estimate of the sum of `x`
//! over all row sets, for any `x` (the solutions, the seconds), and the
//! closer the weights follow `x`, the smaller its error. The join's time
//! grows with `C(w, j)` more slowly than the plan's estimate
//! (`C(w, j)^1.5`) says: about as `C(w, j)^0.8` at N = 16 and 18, with
//! the row sets of few ways slower than that. Drawn by the estimate, those
//! are almost never drawn, and the projection came out a third short at
//! N = 16; the square root draws them often enough. A row set that the
//! count skips (not the smallest of its class) is drawn too, and counts
//! nothing, as in the count.
//!
//! The draws that share their tables (their first choices, as many as
//! [`Tables`] keeps) are joined together: their tables are built once
//! from scratch (timed apart), then each is joined (timed, twice: the
//! faster kept). A count builds such tables once per group of row sets
//! that share them, so the tables' share is `total * seconds / weight of
//! the group`, for each draw of the group.

use std::time::{Duration, Instant};
use std::vec::Vec;

use super::band::Band;
use super::memory::Tables;
use super::pieces::{JoinPiece, WayNorth, ways_north};
use super::quarters::HeldQuarters;
use super::split::{Chunk, Split};
use super::stats::JoinStats;
use super::{Joiner, Scratch};
use crate::support::random::SplitMix64;
use crate::{Count, Error};

/// One drawn row set, joined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    /// Its sampling weight (see the module).
    pub weight: f64,
    /// The sampling weight of the row sets that share its tables (its
    /// first choices, as many as a count's tables keep), itself included.
    pub group_weight: f64,
    /// Its share of the count (its class's solutions).
    pub count: Count,
    /// The time its join took, on one thread.
    pub join: Duration,
    /// The time building its group's tables took, on one thread.
    pub tables: Duration,
    /// What its join did: its half-boards, the pairs scanned and found.
    pub stats: JoinStats,
}

impl Observation {
    /// A place for an observation, before its row set is joined.
    const EMPTY: Observation = Observation {
        weight: 0.0,
        group_weight: 0.0,
        count: 0,
        join: Duration::ZERO,
        tables: Duration::ZERO,
        stats: JoinStats {
            row_sets: 0,
            west: 0,
            east: 0,
            pairs: 0,
            scanned: 0,
            lanes: 0,
            found: 0,
            cuts: 0,
            classes: 0,
        },
    };
}

/// What [`sample`] drew and measured.
pub(crate) struct Drawn {
    /// The sampling weight of every row set of the pieces, added up.
    pub(crate) total_weight: f64,
    /// The draws, joined.
    pub(crate) observations: Vec<Observation>,
    /// The times of [`reference`] through the sample.
    pub(crate) machine: Vec<Duration>,
}

/// A drawn row set as [`sample`] holds it until it is joined: a piece
/// that decides all of its choices, in 16 bytes rather than a
/// [`JoinPiece`]'s 32 (the chunk's length fits a byte, the split's number
/// four: a board has at most 31^3 bands).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PackedRowSet {
    split: u32,
    pattern: u32,
    band: Band,
    len: u8,
}

impl PackedRowSet {
    fn of(piece: &JoinPiece) -> PackedRowSet {
        debug_assert!(piece.split <= u32::MAX as usize && piece.chunk.len <= 32);
        PackedRowSet {
            split: piece.split as u32,
            pattern: piece.chunk.pattern,
            band: piece.band,
            len: piece.chunk.len as u8,
        }
    }

    fn piece(self) -> JoinPiece {
        JoinPiece {
            split: self.split as usize,
            band: self.band,
            chunk: Chunk {
                pattern: self.pattern,
                len: usize::from(self.len),
            },
        }
    }
}

/// The bytes a sample holds per draw, at most: its observation, and until
/// it is joined the row set drawn ([`PackedRowSet`]) or, when the sample is
/// read, its place in [`crate::plan::Sample::quantiles`]'s order. (A
/// check holds less per draw: `Sample::memory_estimate` takes the larger.)
pub(crate) const BYTES_PER_DRAW: usize =
    size_of::<Observation>() + max(size_of::<PackedRowSet>(), size_of::<usize>());

// What the docs of `Sample::memory_estimate` say, on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () =
    assert!(size_of::<Observation>() == 144 && BYTES_PER_DRAW == 160 && BYTES_PER_PIECE == 56);

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The bytes a thread of a sample holds beside a count's: the tables and
/// buffers of the [`reference`] it times between groups.
pub(crate) fn bytes_per_thread() -> u64 {
    super::memory::estimate(REFERENCE_N, 2).saturating_sub(super::memory::estimate(REFERENCE_N, 1))
}

/// The bytes a sample holds per piece of its plan: the list of references
/// to the plan's pieces (a thin reference, whichever family's piece it
/// points at), the join's pieces, their weights and the weights' running
/// sums.
pub(crate) const BYTES_PER_PIECE: usize =
    size_of::<&JoinPiece>() + size_of::<JoinPiece>() + 2 * size_of::<f64>();

/// An empty list with room for `len` items of `T`, or
/// [`Error::OutOfMemory`] if the allocator refuses it (or `len` items
/// exceed the address space): what the lists of a sample's draws are taken
/// with, never aborting.
pub(super) fn list_of<T>(len: usize) -> Result<Vec<T>, Error> {
    let mut list = Vec::new();
    super::grow::reserve(&mut list, len)?;
    Ok(list)
}

/// `draws` row sets of the join `pieces` of an `n`x`n` board, drawn with
/// `seed` and joined by `joiner` on `threads` threads, those that share
/// tables together (in the order of their choices: the same for the same
/// seed). Threads the system refuses are done without (`crate::support::workers`):
/// each group is joined on one thread and timed there, so fewer threads
/// change the time the sample takes, not what it measures.
///
/// What it holds grows with the draws by [`BYTES_PER_DRAW`]: the draws and
/// their observations, each list taken whole before the first join, and
/// refused as a whole if it does not fit.
///
/// # Errors
///
/// [`Error::InvalidThreads`] for no threads; [`Error::OutOfMemory`] if the
/// lists of the draws, or a group's tables or buffers, are refused (the
/// first such error; no thread takes another group after it).
pub(crate) fn sample(
    joiner: &dyn Joiner,
    n: usize,
    pieces: &[JoinPiece],
    draws: usize,
    seed: u64,
    threads: usize,
) -> Result<Drawn, Error> {
    use core::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Mutex;

    if threads == 0 {
        return Err(Error::InvalidThreads);
    }
    let depth = Tables::of(n).depth;
    let weights = piece_weights(n, pieces);
    let group = |row_set: &PackedRowSet| group_of(row_set, depth);
    let (drawn, mut observations) = drawn_by_group(n, pieces, &weights, draws, seed, depth)?;
    let groups = drawn.chunk_by(|a, b| group(a) == group(b)).count();
    // The next group: its place among the groups, the row sets from it on,
    // and their observations' places.
    let next = Mutex::new((0usize, &drawn[..], &mut observations[..]));
    let failed = AtomicBool::new(false);
    // The reference is timed before the first group, before every
    // `every`-th and at the end of each thread, about 24 times in all.
    let every = (groups / 24).max(1);
    let worker = |send: &mut dyn FnMut(Joined)| {
        let mut scratch = Scratch::default();
        let time_reference = |send: &mut dyn FnMut(Joined)| match reference(joiner) {
            Ok(time) => {
                send(Ok(time));
                true
            }
            Err(error) => {
                failed.store(true, Ordering::Relaxed);
                send(Err(error));
                false
            }
        };
        // Relaxed: the flag only stops early.
        while !failed.load(Ordering::Relaxed) {
            let Some((at, row_sets, out)) = claim_group(&next, depth) else {
                break;
            };
            if at.is_multiple_of(every) && !time_reference(send) {
                break;
            }
            let split = row_sets[0].piece().split(n);
            let joined = join_group(joiner, &split, row_sets, depth, &mut scratch, out);
            if let Err(error) = joined {
                failed.store(true, Ordering::Relaxed);
                send(Err(error));
            }
        }
        // Once more at the end: at least two times in all.
        if !failed.load(Ordering::Relaxed) {
            time_reference(send);
        }
    };
    let (mut machine, mut first_error) = (Vec::new(), None);
    crate::support::workers::run(
        threads.min(groups).max(1),
        worker,
        &mut |joined| match joined {
            Ok(time) => machine.push(time),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        },
    );
    if let Some(error) = first_error {
        return Err(error);
    }
    Ok(Drawn {
        total_weight: weights.iter().sum(),
        observations,
        machine,
    })
}

/// The group a drawn row set is joined in: its split and its first
/// `depth` choices, which decide its tables.
fn group_of(row_set: &PackedRowSet, depth: usize) -> (usize, Chunk) {
    let piece = row_set.piece();
    (piece.split, piece.chunk.first(depth))
}

/// The `draws` row sets drawn with `seed`, ordered by their group
/// ([`group_of`]), and a list of as many empty observations: each group's
/// thread fills its own slice of them. Both lists are taken first, the
/// larger first, so that a sample that cannot hold its draws is refused
/// before anything is drawn or joined.
fn drawn_by_group(
    n: usize,
    pieces: &[JoinPiece],
    weights: &[f64],
    draws: usize,
    seed: u64,
    depth: usize,
) -> Result<(Vec<PackedRowSet>, Vec<Observation>), Error> {
    let mut observations = list_of::<Observation>(draws)?;
    let mut drawn = list_of::<PackedRowSet>(draws)?;
    drawn.extend(draw(n, pieces, weights, draws, seed).map(|piece| PackedRowSet::of(&piece)));
    // Equal keys are equal row sets (the split names the band), so an
    // unstable sort orders them as a stable one would, and takes no
    // memory.
    drawn.sort_unstable_by_key(|row_set| (group_of(row_set, depth), row_set.piece().chunk));
    observations.resize(drawn.len(), Observation::EMPTY);
    Ok((drawn, observations))
}

/// Row sets in groups, from the group numbered first: those row sets and
/// their observations' places.
type Groups<'a> = (usize, &'a [PackedRowSet], &'a mut [Observation]);

/// The next group of row sets left in `next` (its place among the groups,
/// the row sets from it on, their observations' places), taken from it
/// with its row sets and their observations; `None` once none is left.
fn claim_group<'a>(next: &std::sync::Mutex<Groups<'a>>, depth: usize) -> Option<Groups<'a>> {
    let mut next = next
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (at, rest, out) = &mut *next;
    let first = rest.first()?;
    let group = group_of(first, depth);
    let len = rest
        .iter()
        .take_while(|r| group_of(r, depth) == group)
        .count();
    let (this, later) = rest.split_at(len);
    let (mine, others) = core::mem::take(out).split_at_mut(len);
    let claimed = (*at, this, mine);
    (*at, *rest, *out) = (*at + 1, later, others);
    Some(claimed)
}

/// What a sampling thread reports: a time of the reference, or why the
/// thread stopped.
type Joined = Result<Duration, Error>;

/// The time of a fixed piece of work, the whole join count of N =
/// [`REFERENCE_N`] by `joiner` on this thread, tables and all: timed again
/// and again through a sample, its spread is how much this machine's own
/// speed moved while the sample ran (another process, another guest of
/// the host, the clock), which the draws' error does not see.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if its tables are refused.
fn reference(joiner: &dyn Joiner) -> Result<Duration, Error> {
    // Twice, the faster kept, as the draws are timed.
    let mut fastest = Duration::MAX;
    for _ in 0..2 {
        let start = Instant::now();
        let (mut scratch, mut quarters) = (Scratch::default(), HeldQuarters::new(0));
        let mut total: Count = 0;
        for band in super::band::bands(REFERENCE_N) {
            let split = Split::new(REFERENCE_N, band);
            for chunk in Chunk::all(&split, 0) {
                total += joiner.count_chunk(&split, &mut quarters, &chunk, &mut scratch)?;
            }
        }
        core::hint::black_box(total);
        fastest = fastest.min(start.elapsed());
    }
    Ok(fastest)
}

/// The board of [`reference`]: a count of milliseconds, long enough to
/// time and short enough to repeat while the sample runs.
const REFERENCE_N: usize = 14;

/// Builds the tables that the row sets of `group` (of `split`, all with
/// the same first choices) share, then joins each, timing each step, into
/// `out` (one observation per row set, in order).
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the tables or the join's buffers are refused.
fn join_group(
    joiner: &dyn Joiner,
    split: &Split,
    group: &[PackedRowSet],
    depth: usize,
    scratch: &mut Scratch,
    out: &mut [Observation],
) -> Result<(), Error> {
    let Some(first) = group.first().map(|row_set| row_set.piece()) else {
        return Ok(());
    };
    let mut quarters = HeldQuarters::new(depth);
    let start = Instant::now();
    // Built here, apart: the joins below find them held.
    quarters.for_rows(split, first.rows_in(split).0)?;
    let tables = start.elapsed();
    let shared = JoinPiece {
        chunk: first.chunk.first(depth),
        ..first
    };
    let group_weight = piece_weight(split, &shared);
    for (row_set, observation) in group.iter().zip(out) {
        let row_set = row_set.piece();
        // Twice, the faster kept: another process that takes the core for
        // a slice of the scheduler's (milliseconds) lands in one of them,
        // and would weigh a small row set's time many times over.
        let join = |quarters: &mut HeldQuarters, scratch: &mut Scratch| {
            scratch.take_stats();
            let start = Instant::now();
            let count = joiner.count_chunk(split, quarters, &row_set.chunk, scratch)?;
            Ok::<_, Error>((count, start.elapsed(), scratch.take_stats()))
        };
        let (count, first, stats) = join(&mut quarters, scratch)?;
        let (_, second, _) = join(&mut quarters, scratch)?;
        *observation = Observation {
            // A piece of one row set: its one way is its weight.
            weight: piece_weight(split, &row_set),
            group_weight,
            count,
            join: first.min(second),
            tables,
            stats,
        };
    }
    Ok(())
}

/// The sampling weight of each of `pieces` (of an `n`x`n` board), each
/// split built once: the pieces of a split come together.
pub(super) fn piece_weights(n: usize, pieces: &[JoinPiece]) -> Vec<f64> {
    let mut weights = Vec::with_capacity(pieces.len());
    for same_split in pieces.chunk_by(|a, b| a.band == b.band) {
        let split = same_split[0].split(n);
        weights.extend(same_split.iter().map(|piece| piece_weight(&split, piece)));
    }
    weights
}

/// The sampling weight of the row sets of `piece` (of `split`), added up.
fn piece_weight(split: &Split, piece: &JoinPiece) -> f64 {
    ways_north(split, piece).iter().map(way_weight).sum()
}

/// The sampling weight of a way's row sets: `sqrt(C(w, j))` each.
fn way_weight(way: &WayNorth) -> f64 {
    way.sets as f64 * (way.cost as f64).sqrt()
}

/// `draws` row sets of `pieces` (of an `n`x`n` board; `weights` theirs),
/// each as a piece that decides all of its choices, drawn with `seed` as
/// the module says, one at a time: nothing is held for them here.
pub(super) fn draw<'a>(
    n: usize,
    pieces: &'a [JoinPiece],
    weights: &[f64],
    draws: usize,
    seed: u64,
) -> impl Iterator<Item = JoinPiece> + 'a {
    let mut random = SplitMix64::new(seed);
    let mut running = 0f64;
    let cumulative: Vec<f64> = weights
        .iter()
        .map(|weight| {
            running += weight;
            running
        })
        .collect();
    // No weight, nothing to draw.
    let draws = if running <= 0.0 { 0 } else { draws };
    (0..draws).map(move |_| {
        let target = random.unit() * running;
        let at = cumulative
            .partition_point(|&c| c <= target)
            .min(pieces.len() - 1);
        let piece = &pieces[at];
        JoinPiece {
            chunk: row_set_of(&piece.split(n), piece, &mut random),
            ..*piece
        }
    })
}

/// One row set of `piece`, drawn with probability proportional to its
/// sampling weight, as the chunk of all its choices.
fn row_set_of(split: &Split, piece: &JoinPiece, random: &mut SplitMix64) -> Chunk {
    let ways = ways_north(split, piece);
    let total: f64 = ways.iter().map(way_weight).sum();
    let mut target = random.unit() * total;
    let mut more_north = ways[ways.len() - 1].more_north;
    for way in &ways {
        let this = way_weight(way);
        if target < this {
            more_north = way.more_north;
            break;
        }
        target -= this;
    }
    let (west, _) = piece.rows_in(split);
    let undecided: Vec<usize> = (piece.chunk.len..split.rows)
        .map(|at| split.row_at(at))
        .collect();
    let (north, south): (Vec<usize>, Vec<usize>) =
        undecided.iter().partition(|&&row| row < split.line);
    let left = split.west - west.count_ones() as usize;
    let mut rows = west;
    for (from, k) in [(north, more_north), (south, left - more_north)] {
        for row in random.choose(&from, k) {
            rows |= 1 << row;
        }
    }
    let pattern = (0..split.rows)
        .filter(|&at| rows >> split.row_at(at) & 1 != 0)
        .fold(0u32, |pattern, at| pattern | 1 << at);
    Chunk {
        pattern,
        len: split.rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The draws' order, sorted without a buffer, is a stable sort's: row
    /// sets of equal keys are equal. And a row set held compactly is the
    /// piece drawn.
    #[test]
    fn draws_sort_as_a_stable_sort_would() {
        for n in [10, 12, 13, 16] {
            let pieces = super::super::pieces::pieces(n);
            let weights = piece_weights(n, &pieces);
            let drawn: Vec<JoinPiece> = draw(n, &pieces, &weights, 3000, 7).collect();
            let depth = Tables::of(n).depth;
            let key = |piece: &JoinPiece| ((piece.split, piece.chunk.first(depth)), piece.chunk);
            let mut stable = drawn.clone();
            stable.sort_by_key(key);
            let mut compact: Vec<PackedRowSet> = drawn.iter().map(PackedRowSet::of).collect();
            compact.sort_unstable_by_key(|row_set| key(&row_set.piece()));
            let unstable: Vec<JoinPiece> = compact.iter().map(|row_set| row_set.piece()).collect();
            assert!(stable == unstable, "n = {n}");
        }
    }
}
