//! Scoped worker threads whose results reach the calling thread: what the
//! plan's symmetric subproblems, the join's pieces and the join's sample
//! are counted with.
//!
//! Each worker reports its results (of any type: a piece's count, a
//! sampled group's observations, an error) through a channel; the calling
//! thread collects them now and then rather than waiting on the channel,
//! which would wake it (and take a core from the workers) once per result.
//! The last worker to finish wakes it; a worker that panics hangs up too,
//! and the scope passes its panic on once the channel is closed. The
//! channel is bounded ([`CHANNEL_CAPACITY`]), its buffer allocated before
//! the workers start: sending a result allocates nothing.
//!
//! # Threads the system refuses
//!
//! The workers claim their work from a shared cursor, so any number of
//! them counts everything. A thread the operating system will not start
//! (`ulimit -u`, no memory for its stack) is therefore no reason to fail:
//! [`run`] goes on with the threads it started, and if it started none,
//! the calling thread does the work itself. [`Ran`] says how many counted,
//! for the caller to tell.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::Builder;
use std::time::Duration;

/// How often the calling thread collects finished results.
const REPORT_INTERVAL: Duration = Duration::from_millis(50);

/// How many results the channel holds before a worker waits for the
/// calling thread to collect them (and wakes it): the channel's buffer is
/// allocated once, as it is made, so that a worker's result never asks for
/// memory, which may have run out by then (a count's buffers grow to the
/// limit, and the error a worker reports must still reach the caller).
const CHANNEL_CAPACITY: usize = 1024;

/// How many threads did the work of a [`run`], or of a count on one
/// thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ran {
    /// The threads that did the work: those started, or 1 (the calling
    /// thread) if none could be.
    pub(crate) threads: usize,
    /// The threads asked for that the operating system refused to start
    /// (after the first refusal no more are tried).
    pub(crate) refused: usize,
}

impl Ran {
    /// The work done on the calling thread, as asked.
    pub(crate) const ONE: Ran = Ran {
        threads: 1,
        refused: 0,
    };
}

/// Runs `worker` on `threads` scoped threads, each with a `send` that
/// hands a result to `report`, called on this thread. Threads that cannot
/// be started are done without (see the module); if none can, `worker`
/// runs once on this thread, its results reported as it sends them.
pub(crate) fn run<T: Send>(
    threads: usize,
    worker: impl Fn(&mut dyn FnMut(T)) + Sync,
    report: &mut dyn FnMut(T),
) -> Ran {
    run_ticking(threads, worker, &mut |sent| {
        if let Some(result) = sent {
            report(result);
        }
    })
}

/// [`run`], with `report(None)` each time the calling thread wakes and
/// finds nothing to collect (every [`REPORT_INTERVAL`] or so while the
/// workers work): a caller that must show it is alive, as a checkpoint's
/// heartbeat does, can. Where no thread starts, the worker runs here and
/// no `None` is reported.
pub(crate) fn run_ticking<T: Send>(
    threads: usize,
    worker: impl Fn(&mut dyn FnMut(T)) + Sync,
    report: &mut dyn FnMut(Option<T>),
) -> Ran {
    let (sender, results) = mpsc::sync_channel::<T>(CHANNEL_CAPACITY);
    // Threads started and not finished.
    let working = AtomicUsize::new(0);
    let caller = std::thread::current();
    let started = std::thread::scope(|scope| {
        let mut started = 0;
        for spawned in 0..threads {
            let sender = sender.clone();
            let (worker, working, caller) = (&worker, &working, &caller);
            working.fetch_add(1, Ordering::AcqRel);
            let thread = builder(spawned).spawn_scoped(scope, move || {
                worker(&mut |result| {
                    // The receiver lives until every sender is gone. Full:
                    // the caller is woken to collect, and this thread waits.
                    if let Err(mpsc::TrySendError::Full(result)) = sender.try_send(result) {
                        caller.unpark();
                        let _ = sender.send(result);
                    }
                });
                // Hang up first, so that the caller, once woken, finds the
                // channel closed.
                drop(sender);
                if working.fetch_sub(1, Ordering::AcqRel) == 1 {
                    caller.unpark();
                }
            });
            if thread.is_err() {
                // Refused: the closure, its sender with it, is dropped.
                working.fetch_sub(1, Ordering::AcqRel);
                break;
            }
            started += 1;
        }
        drop(sender);
        if started == 0 {
            worker(&mut |result| report(Some(result)));
            return 0;
        }
        loop {
            match results.try_recv() {
                Ok(result) => report(Some(result)),
                Err(mpsc::TryRecvError::Empty) => {
                    std::thread::park_timeout(REPORT_INTERVAL);
                    report(None);
                }
                Err(mpsc::TryRecvError::Disconnected) => break,
            }
        }
        started
    });
    Ran {
        threads: started.max(1),
        refused: threads - started,
    }
}

/// How worker thread number `spawned` (from 0) is started: with the
/// standard library's defaults, or in the tests, past the number of
/// threads [`refusing_after`] allows, with a stack larger than any address
/// space, which the system refuses as it would past `ulimit -u`.
fn builder(spawned: usize) -> Builder {
    #[cfg(test)]
    if spawned >= ALLOWED.get() {
        return Builder::new().stack_size(1 << 50);
    }
    let _ = spawned;
    Builder::new()
}

#[cfg(test)]
std::thread_local! {
    /// How many threads [`run`] may start, on this thread (the one that
    /// calls it): see [`refusing_after`].
    static ALLOWED: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
}

/// Runs `f` with the system refusing every worker thread that [`run`]
/// asks for on this thread past the first `allowed`: the paths of a
/// count on fewer threads than asked, and on none, for the tests.
#[cfg(test)]
pub(crate) fn refusing_after<R>(allowed: usize, f: impl FnOnce() -> R) -> R {
    let before = ALLOWED.replace(allowed);
    let result = f();
    ALLOWED.set(before);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Work from a shared cursor, as the counts claim theirs: every item
    /// is reported once, whether every thread starts, some, or none.
    #[test]
    fn the_threads_started_do_all_the_work() {
        let items = 1000;
        // Threads allowed, asked for, then that counted and refused.
        for (allowed, threads, counted, refused) in [
            (usize::MAX, 4, 4, 0),
            (2, 4, 2, 2),
            (1, 3, 1, 2),
            (0, 4, 1, 4),
            (0, 1, 1, 1),
        ] {
            let next = AtomicUsize::new(0);
            let on = std::thread::current().id();
            let worker = |send: &mut dyn FnMut((usize, bool))| {
                loop {
                    let item = next.fetch_add(1, Ordering::Relaxed);
                    if item >= items {
                        break;
                    }
                    send((item, std::thread::current().id() == on));
                }
            };
            let mut seen = vec![false; items];
            let mut inline = 0;
            let ran = refusing_after(allowed, || {
                run(threads, worker, &mut |(item, here)| {
                    assert!(!std::mem::replace(&mut seen[item], true));
                    inline += usize::from(here);
                })
            });
            let expected = Ran {
                threads: counted,
                refused,
            };
            assert_eq!(ran, expected, "{allowed} of {threads} allowed");
            assert!(seen.iter().all(|&s| s), "{allowed} of {threads} allowed");
            let expected_inline = if allowed == 0 { items } else { 0 };
            assert_eq!(inline, expected_inline, "on the calling thread");
        }
    }

    /// The stack the tests ask for is refused: the failure is the
    /// system's, not a simulation.
    #[test]
    fn the_tests_stack_is_refused() {
        std::thread::scope(|scope| {
            assert!(builder_past_limit().spawn_scoped(scope, || {}).is_err());
        });
    }

    fn builder_past_limit() -> Builder {
        refusing_after(0, || builder(0))
    }
}
