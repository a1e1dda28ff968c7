//! Scoped worker threads whose results reach the calling thread: what the
//! plan's symmetric subproblems and the join's pieces are counted with.
//!
//! Each worker reports `(index, count)` through a channel; the calling
//! thread collects them now and then rather than waiting on the channel,
//! which would wake it (and take a core from the workers) once per result.
//! The last worker to finish wakes it; a worker that panics hangs up too,
//! and the scope passes its panic on once the channel is closed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use crate::Count;

/// How often the calling thread collects finished results.
const REPORT_INTERVAL: Duration = Duration::from_millis(50);

/// Runs `worker` on `threads` scoped threads, each with a `send` that
/// hands `(index, count)` to `report`, called on this thread.
pub(crate) fn run(
    threads: usize,
    worker: impl Fn(&mut dyn FnMut(usize, Count)) + Sync,
    report: &mut dyn FnMut(usize, Count),
) {
    let (sender, results) = mpsc::channel::<(usize, Count)>();
    let working = AtomicUsize::new(threads);
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (worker, working, caller) = (&worker, &working, &caller);
            scope.spawn(move || {
                worker(&mut |index, count| {
                    // The receiver lives until every sender is gone.
                    let _ = sender.send((index, count));
                });
                // Hang up first, so that the caller, once woken, finds the
                // channel closed.
                drop(sender);
                if working.fetch_sub(1, Ordering::AcqRel) == 1 {
                    caller.unpark();
                }
            });
        }
        drop(sender);
        loop {
            match results.try_recv() {
                Ok((index, count)) => report(index, count),
                Err(mpsc::TryRecvError::Empty) => std::thread::park_timeout(REPORT_INTERVAL),
                Err(mpsc::TryRecvError::Disconnected) => break,
            }
        }
    });
}
