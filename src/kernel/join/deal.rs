//! How a join count deals its pieces to its threads: in *blocks*, runs of
//! one piece's row sets, so that every thread works on the piece in hand
//! and a checkpoint can keep how far a piece has got.
//!
//! The dealer opens one piece at a time, in the count's order, lists its
//! row sets once (shared by the threads that join them) and hands out its
//! undone row sets in order, a block to each thread that asks; it opens
//! the next piece only when every row set of the open one is dealt. A
//! block is as many row sets as take about [`BLOCK_SECONDS`] of one core,
//! by the time the blocks so far took per unit of work (a row set's work
//! is that of the plan's estimates: `C(w, j)^1.5`), and at least one; at
//! most a thirty-second of its piece ([`BLOCKS_A_PIECE`]); and at the
//! count's end (no piece left to open) at most the open piece's rest
//! shared among the threads, so that they finish together. Until a block
//! has been timed, blocks are one row set. Blocks are contiguous, so a
//! thread keeps its quarter-boards through one, as it did through a piece.
//! (BENCHMARKS.md, "Every thread on the piece in hand", measures one piece
//! on two threads, a stop and its resume.)

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::ops::Range;
use std::sync::Mutex;

use super::pieces::{JoinPiece, binomial};
use super::split::Split;
use crate::Error;
use crate::kernel::progress::InFlight;

/// About how many seconds of one core a block of a join count takes: what
/// a stop loses of each thread's work at most (or a single row set, where
/// one takes longer: `--sample` says how long the longest drawn took), and
/// how often a piece's progress can be saved.
pub const BLOCK_SECONDS: f64 = 2.0;

/// The fewest blocks a piece is cut in (where it has as many row sets),
/// however short it is: a stop half-way through a piece of a second or
/// two keeps half of it, not nothing.
const BLOCKS_A_PIECE: u64 = 32;

/// Row sets of one piece, handed to one thread.
pub(crate) struct Block {
    /// The piece's number in its plan.
    pub(crate) index: usize,
    pub(crate) piece: JoinPiece,
    /// Every row set of the piece, listed once for all its blocks.
    pub(crate) row_sets: Arc<[(u32, u32)]>,
    /// Which of them this block joins: empty for a piece with nothing
    /// left to count (all of it counted by an earlier run), which is
    /// handed out once so that it is reported finished.
    pub(crate) rows: Range<u32>,
    /// The work of those row sets, in the estimates' units.
    pub(crate) work: u64,
}

impl Block {
    /// The row sets this block joins.
    pub(crate) fn row_sets(&self) -> &[(u32, u32)] {
        &self.row_sets[self.rows.start as usize..self.rows.end as usize]
    }

    /// How many row sets the piece has.
    pub(crate) fn of(&self) -> u32 {
        self.row_sets.len() as u32
    }
}

/// The dealer's state, behind its lock.
struct Deal {
    /// The position, in the count's order, of the next piece to open.
    next: usize,
    open: Option<Open>,
    /// The split the open piece's row sets were listed in.
    split: Option<Split>,
    /// Seconds and work of the blocks timed so far.
    timed: (f64, u128),
}

/// The piece whose row sets are being dealt.
struct Open {
    index: usize,
    piece: JoinPiece,
    row_sets: Arc<[(u32, u32)]>,
    /// `work[i]`: the work of row sets `0..i`.
    work: Vec<u64>,
    /// Its undone row sets not dealt yet, the first last.
    todo: Vec<Range<u32>>,
}

/// Hands out blocks to the threads of one count.
pub(crate) struct Dealer<'a> {
    n: usize,
    pieces: &'a [(usize, JoinPiece)],
    in_flight: &'a InFlight,
    threads: usize,
    deal: Mutex<Deal>,
}

impl<'a> Dealer<'a> {
    /// A dealer of `pieces` (in the order they are to be counted) of an
    /// `n`x`n` board to `threads` threads, skipping the row sets of
    /// `in_flight` that an earlier run counted.
    pub(crate) fn new(
        n: usize,
        pieces: &'a [(usize, JoinPiece)],
        in_flight: &'a InFlight,
        threads: usize,
    ) -> Dealer<'a> {
        Dealer {
            n,
            pieces,
            in_flight,
            threads: threads.max(1),
            deal: Mutex::new(Deal {
                next: 0,
                open: None,
                split: None,
                timed: (0.0, 0),
            }),
        }
    }

    /// The next block, once the caller's last one (`timed`: its work and
    /// the seconds it took) is accounted for; `None` when every row set is
    /// dealt.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfMemory`] if the list of a piece's row sets is refused;
    /// [`Error::InvalidInFlight`] if an earlier run's parts of the piece do
    /// not fit it (another number of row sets).
    pub(crate) fn next(&self, timed: Option<(u64, f64)>) -> Result<Option<Block>, Error> {
        // A poisoned lock: a thread panicked, and the scope passes its
        // panic on; what the state holds is still whole.
        let mut deal = self
            .deal
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((work, seconds)) = timed {
            deal.timed.0 += seconds;
            deal.timed.1 += u128::from(work);
        }
        loop {
            if let Some(block) = self.cut(&mut deal) {
                return Ok(Some(block));
            }
            let Some(&(index, piece)) = self.pieces.get(deal.next) else {
                return Ok(None);
            };
            deal.next += 1;
            let open = self.open(&mut deal, index, piece)?;
            if open.todo.is_empty() {
                // Nothing left of it to count: one empty block reports it.
                let rows = open.row_sets.len() as u32;
                return Ok(Some(Block {
                    index,
                    piece,
                    row_sets: open.row_sets,
                    rows: rows..rows,
                    work: 0,
                }));
            }
            deal.open = Some(open);
        }
    }

    /// Lists the row sets of `piece` (number `index`) and what is left of
    /// them to count.
    fn open(&self, deal: &mut Deal, index: usize, piece: JoinPiece) -> Result<Open, Error> {
        if deal.split.as_ref().is_none_or(|s| s.band != piece.band) {
            deal.split = Some(piece.split(self.n));
        }
        let split = deal.split.as_ref().expect("just built");
        let mut listed = Vec::new();
        piece.chunk.row_sets(split, &mut listed)?;
        let of = listed.len() as u32;
        let mut work = Vec::new();
        super::grow::reserve(&mut work, listed.len() + 1)?;
        work.push(0u64);
        let north = super::quarters::all_below(split.line);
        for &(rows, _) in &listed {
            let ways = binomial(split.west, (rows & north).count_ones() as usize);
            let last = *work.last().expect("starts with 0");
            work.push(last.saturating_add(ways.saturating_mul(ways.isqrt())));
        }
        let mut todo = match self.in_flight.get(index) {
            Some(parts) if parts.of() != of => {
                return Err(Error::InvalidInFlight(alloc::format!(
                    "subproblem {index} was begun with {} row sets, but it has {of}",
                    parts.of()
                )));
            }
            Some(parts) => parts.todo(),
            None if of == 0 => Vec::new(),
            None => alloc::vec![0..of],
        };
        todo.reverse();
        Ok(Open {
            index,
            piece,
            row_sets: listed.into(),
            work,
            todo,
        })
    }

    /// The next block of the open piece, if it has row sets left.
    fn cut(&self, deal: &mut Deal) -> Option<Block> {
        let last_piece = deal.next >= self.pieces.len();
        let (seconds, timed_work) = deal.timed;
        let open = deal.open.as_mut()?;
        let range = open.todo.pop()?;
        let work_to = |end: u32| open.work[end as usize] - open.work[range.start as usize];
        let piece = *open.work.last().expect("starts with 0");
        let mut most = if timed_work == 0 || seconds <= 0.0 {
            0
        } else {
            (BLOCK_SECONDS * timed_work as f64 / seconds) as u64
        };
        most = most.min(piece / BLOCKS_A_PIECE);
        if last_piece && self.threads > 1 {
            let rest: u64 = open
                .todo
                .iter()
                .map(|r| open.work[r.end as usize] - open.work[r.start as usize])
                .sum::<u64>()
                + work_to(range.end);
            most = most.min(rest / self.threads as u64);
        }
        // The longest run from the range's start within `most`, at least
        // one row set.
        let mut end = range.start + 1;
        while end < range.end && work_to(end + 1) <= most {
            end += 1;
        }
        if end < range.end {
            open.todo.push(end..range.end);
        }
        Some(Block {
            index: open.index,
            piece: open.piece,
            row_sets: open.row_sets.clone(),
            rows: range.start..end,
            work: work_to(end),
        })
    }
}
