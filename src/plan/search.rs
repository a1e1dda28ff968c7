//! A join plan's pieces counted by a plain search instead of a join: a
//! check of a join count by a second algorithm, which shares no code with
//! the join kernels beyond the piece's queens.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Counted, Plan};
use crate::kernel::Method;
use crate::kernel::join::check::search_piece;
use crate::kernel::pieces::Piece;
use crate::support::workers;
use crate::{Count, Error, Kernel};

/// The join pieces of `plan` numbered `indices`, each searched on one of
/// `threads` threads, `done` called on this thread with each piece's
/// index and count as it finishes. Allocates only the list of pieces.
///
/// Fails if `threads` is 0, if the plan is not a join plan, or if an
/// index is out of range or given twice.
pub(crate) fn run_search(
    plan: &Plan,
    indices: &[usize],
    threads: usize,
    done: &mut dyn FnMut(usize, Count),
) -> Result<Counted, Error> {
    if threads == 0 {
        return Err(Error::InvalidThreads);
    }
    if plan.method != Method::Join {
        // The search checks what the join kernels count.
        return Err(Error::WrongMethod {
            kernel: Kernel::Join,
            method: plan.method,
        });
    }
    let pieces = plan.checked(indices)?;
    let next = AtomicUsize::new(0);
    let mut total: Count = 0;
    let ran = workers::run(
        threads.clamp(1, pieces.len().max(1)),
        |send: &mut dyn FnMut((usize, Count))| {
            while let Some(sub) = pieces.get(next.fetch_add(1, Ordering::Relaxed)) {
                if let Piece::Join { n, piece } = &sub.piece {
                    send((sub.index, search_piece(*n, piece)));
                }
            }
        },
        &mut |(index, count)| {
            total += count;
            done(index, count);
        },
    );
    Ok(Counted {
        count: total,
        threads: ran.threads,
        refused: ran.refused,
    })
}
