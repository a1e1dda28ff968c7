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

use super::memory::Tables;
use super::pieces::{Piece, WayNorth, ways_north};
use super::quarters::HeldQuarters;
use super::split::{Chunk, Split};
use super::stats::JoinStats;
use super::{Joiner, Scratch};
use crate::random::SplitMix64;
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

/// What [`sample`] drew and measured.
pub(crate) struct Drawn {
    /// The sampling weight of every row set of the pieces, added up.
    pub(crate) total_weight: f64,
    /// The draws, joined.
    pub(crate) observations: Vec<Observation>,
    /// The times of [`reference`] through the sample.
    pub(crate) machine: Vec<Duration>,
}

/// `draws` row sets of the join `pieces` of an `n`x`n` board, drawn with
/// `seed` and joined by `joiner` on `threads` threads, those that share
/// tables together (in the order of their choices: the same for the same
/// seed). Threads the system refuses are done without (`crate::workers`):
/// each group is joined on one thread and timed there, so fewer threads
/// change the time the sample takes, not what it measures.
///
/// # Errors
///
/// [`Error::InvalidThreads`] for no threads; [`Error::OutOfMemory`] if a
/// group's tables or buffers are refused (the first such error; no thread
/// takes another group after it).
pub(crate) fn sample(
    joiner: &dyn Joiner,
    n: usize,
    pieces: &[Piece],
    draws: usize,
    seed: u64,
    threads: usize,
) -> Result<Drawn, Error> {
    use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    if threads == 0 {
        return Err(Error::InvalidThreads);
    }
    let depth = Tables::of(n).depth;
    let weights = piece_weights(n, pieces);
    let group = |piece: &Piece| (piece.split, piece.chunk.first(depth));
    let mut drawn = draw(n, pieces, &weights, draws, seed);
    drawn.sort_by_key(|piece| (group(piece), piece.chunk));
    let groups: Vec<&[Piece]> = drawn.chunk_by(|a, b| group(a) == group(b)).collect();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    // The reference is timed before the first group, before every
    // `every`-th and at the end of each thread, about 24 times in all.
    let every = (groups.len() / 24).max(1);
    let worker = |send: &mut dyn FnMut(Joined)| {
        let mut scratch = Scratch::default();
        let time_reference = |send: &mut dyn FnMut(Joined)| match reference(joiner) {
            Ok(time) => {
                send(Ok(Report::Reference(time)));
                true
            }
            Err(error) => {
                failed.store(true, Ordering::Relaxed);
                send(Err(error));
                false
            }
        };
        // Relaxed: the cursor only hands out positions; the flag only
        // stops early.
        while !failed.load(Ordering::Relaxed) {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(&group) = groups.get(at) else { break };
            if at.is_multiple_of(every) && !time_reference(send) {
                break;
            }
            let split = group[0].split(n);
            let joined = join_group(joiner, &split, group, depth, &mut scratch);
            if joined.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            send(joined.map(|observations| Report::Group(at, observations)));
        }
        // Once more at the end: at least two times in all.
        if !failed.load(Ordering::Relaxed) {
            time_reference(send);
        }
    };
    let (mut by_group, mut machine, mut first_error) = (Vec::new(), Vec::new(), None);
    crate::workers::run(
        threads.min(groups.len()).max(1),
        worker,
        &mut |joined| match joined {
            Ok(Report::Group(at, group)) => by_group.push((at, group)),
            Ok(Report::Reference(time)) => machine.push(time),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        },
    );
    if let Some(error) = first_error {
        return Err(error);
    }
    by_group.sort_by_key(|&(at, _)| at);
    Ok(Drawn {
        total_weight: weights.iter().sum(),
        observations: by_group.into_iter().flat_map(|(_, group)| group).collect(),
        machine,
    })
}

/// What a sampling thread reports: a group of draws joined, by its place
/// among the groups, or a time of the reference.
enum Report {
    Group(usize, Vec<Observation>),
    Reference(Duration),
}

/// A report, or why the thread stopped.
type Joined = Result<Report, Error>;

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

/// The board of [`reference`]: about 8 ms with AVX-512 on Zen 4.
const REFERENCE_N: usize = 14;

/// Builds the tables that the row sets of `group` (of `split`, each a
/// piece that decides all of its choices, all with the same first choices)
/// share, then joins each, timing each step.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the tables or the join's buffers are refused.
fn join_group(
    joiner: &dyn Joiner,
    split: &Split,
    group: &[Piece],
    depth: usize,
    scratch: &mut Scratch,
) -> Result<Vec<Observation>, Error> {
    let Some(first) = group.first() else {
        return Ok(Vec::new());
    };
    let mut quarters = HeldQuarters::new(depth);
    let start = Instant::now();
    // Built here, apart: the joins below find them held.
    quarters.for_rows(split, first.rows_in(split).0)?;
    let tables = start.elapsed();
    let shared = Piece {
        chunk: first.chunk.first(depth),
        ..*first
    };
    let group_weight = piece_weight(split, &shared);
    group
        .iter()
        .map(|row_set| {
            // Twice, the faster kept: another process that takes the core
            // for a slice of the scheduler's (milliseconds) lands in one of
            // them, and would weigh a small row set's time many times over.
            let join = |quarters: &mut HeldQuarters, scratch: &mut Scratch| {
                scratch.take_stats();
                let start = Instant::now();
                let count = joiner.count_chunk(split, quarters, &row_set.chunk, scratch)?;
                Ok::<_, Error>((count, start.elapsed(), scratch.take_stats()))
            };
            let (count, first, stats) = join(&mut quarters, scratch)?;
            let (_, second, _) = join(&mut quarters, scratch)?;
            Ok(Observation {
                // A piece of one row set: its one way is its weight.
                weight: piece_weight(split, row_set),
                group_weight,
                count,
                join: first.min(second),
                tables,
                stats,
            })
        })
        .collect()
}

/// The sampling weight of each of `pieces` (of an `n`x`n` board), each
/// split built once: the pieces of a split come together.
pub(super) fn piece_weights(n: usize, pieces: &[Piece]) -> Vec<f64> {
    let mut weights = Vec::with_capacity(pieces.len());
    for same_split in pieces.chunk_by(|a, b| a.band == b.band) {
        let split = same_split[0].split(n);
        weights.extend(same_split.iter().map(|piece| piece_weight(&split, piece)));
    }
    weights
}

/// The sampling weight of the row sets of `piece` (of `split`), added up.
fn piece_weight(split: &Split, piece: &Piece) -> f64 {
    ways_north(split, piece).iter().map(way_weight).sum()
}

/// The sampling weight of a way's row sets: `sqrt(C(w, j))` each.
fn way_weight(way: &WayNorth) -> f64 {
    way.sets as f64 * (way.cost as f64).sqrt()
}

/// `draws` row sets of `pieces` (of an `n`x`n` board; `weights` theirs),
/// each as a piece that decides all of its choices, drawn with `seed` as
/// the module says.
pub(super) fn draw(
    n: usize,
    pieces: &[Piece],
    weights: &[f64],
    draws: usize,
    seed: u64,
) -> Vec<Piece> {
    let mut random = SplitMix64::new(seed);
    let mut running = 0f64;
    let cumulative: Vec<f64> = weights
        .iter()
        .map(|weight| {
            running += weight;
            running
        })
        .collect();
    if running <= 0.0 {
        return Vec::new();
    }
    (0..draws)
        .map(|_| {
            let target = random.unit() * running;
            let at = cumulative
                .partition_point(|&c| c <= target)
                .min(pieces.len() - 1);
            let piece = &pieces[at];
            Piece {
                chunk: row_set_of(&piece.split(n), piece, &mut random),
                ..*piece
            }
        })
        .collect()
}

/// One row set of `piece`, drawn with probability proportional to its
/// sampling weight, as the chunk of all its choices.
fn row_set_of(split: &Split, piece: &Piece, random: &mut SplitMix64) -> Chunk {
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
