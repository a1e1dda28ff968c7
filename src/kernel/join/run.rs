//! Counting a join plan's pieces on threads: every thread on the piece in
//! hand, each piece's row sets dealt in blocks (`deal.rs`), each block
//! reported as it finishes, so that a checkpoint keeps how far a piece has
//! got and a resumed count leaves out what an earlier one counted.

use alloc::collections::BTreeMap;
use core::ops::Range;

use super::deal::{Block, Dealer};
use super::pieces::{JoinPiece, grouped};
use super::split::Split;
use super::{Joiner, Scratch, quarters::HeldQuarters};
use crate::kernel::progress::{InFlight, PartsDone, Progress};
use crate::support::workers::Ran;
use crate::{Count, Error};

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
/// thread's tables or buffers are refused; [`Error::InvalidInFlight`] if a
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
    use crate::kernel::join::pieces::pieces;
    use alloc::vec::Vec;

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
                        if !kept.is_multiple_of(keep) {
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
}
