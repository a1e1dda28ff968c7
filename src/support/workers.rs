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
//! for the caller to tell. A thread is asked for only where the address
//! space has room for it whole, its signal stack included, whose refusal
//! would abort the process, and the threads start one at a time, none at
//! work until all have begun ([`Gate`]): so the threads refused are the
//! same from one run to the next, and a refusal never aborts.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    let gate = Gate::default();
    let caller = std::thread::current();
    let started = std::thread::scope(|scope| {
        let (mut started, room) = (0, room_for_a_thread());
        while started < threads && address_space::has_room(room) {
            let sender = sender.clone();
            let (worker, working, caller, gate) = (&worker, &working, &caller, &gate);
            working.fetch_add(1, Ordering::AcqRel);
            let thread = builder(started).spawn_scoped(scope, move || {
                gate.begin(caller);
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
            gate.wait_until_begun(started);
        }
        gate.open();
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

/// How the workers of a [`run_ticking`] start: one at a time, none at
/// work until the last has begun.
///
/// A new thread asks the system for two things: its stack (while it is
/// started, which fails cleanly) and, once running, the signal stack the
/// standard library gives every thread, which aborts the process where it
/// is refused (`failed to allocate an alternative stack`). Under a limit
/// on the address space (`ulimit -v`) a worker already at work could take
/// the room a new thread's signal stack needed, between the two: so each
/// thread is started only where [`address_space::has_room`] finds room
/// for both ([`room_for_a_thread`]), the next only once it has begun, and
/// the work only once all have.
#[derive(Default)]
struct Gate {
    /// Threads that have begun (past their signal stack).
    begun: AtomicUsize,
    /// Whether the workers may work: every thread has been started.
    open: AtomicBool,
}

impl Gate {
    /// On a worker: says it has begun, then waits for the gate to open.
    fn begin(&self, caller: &std::thread::Thread) {
        self.begun.fetch_add(1, Ordering::AcqRel);
        caller.unpark();
        while !self.open.load(Ordering::Acquire) {
            std::thread::park_timeout(GATE_WAIT);
        }
    }

    /// On the caller: waits until `threads` workers have begun.
    fn wait_until_begun(&self, threads: usize) {
        while self.begun.load(Ordering::Acquire) < threads {
            std::thread::park_timeout(GATE_WAIT);
        }
    }

    /// On the caller: lets the workers work (each sees it within
    /// [`GATE_WAIT`]).
    fn open(&self) {
        self.open.store(true, Ordering::Release);
    }
}

/// How often a worker waiting at the gate, and the caller waiting for a
/// worker to begin, look again.
const GATE_WAIT: Duration = Duration::from_millis(1);

/// The room a new thread takes beyond its stack: the standard library's
/// signal stack (`SIGSTKSZ` or the kernel's minimum, some kilobytes, and a
/// guard page), the stack's own guard page, and room to spare.
const THREAD_EXTRA: usize = 512 << 10;

/// The address space a worker thread takes: its stack (`RUST_MIN_STACK`,
/// as the standard library reads it, or its 2 MiB) and [`THREAD_EXTRA`].
/// Looked for before each thread is asked for ([`address_space::has_room`]).
fn room_for_a_thread() -> usize {
    let stack = std::env::var("RUST_MIN_STACK")
        .ok()
        .and_then(|text| text.parse::<usize>().ok())
        .unwrap_or(2 << 20);
    stack.saturating_add(THREAD_EXTRA)
}

cfg_if::cfg_if! {
    if #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64"),
        not(miri)
    ))] {
        mod address_space {
            use core::ffi::c_void;

            // The C library's, which the standard library links on Linux.
            unsafe extern "C" {
                fn mmap(
                    at: *mut c_void,
                    len: usize,
                    prot: i32,
                    flags: i32,
                    fd: i32,
                    offset: i64,
                ) -> *mut c_void;
                fn munmap(at: *mut c_void, len: usize) -> i32;
            }

            // Linux's values on x86-64 and AArch64 (asm-generic/mman*.h).
            const PROT_NONE: i32 = 0;
            const MAP_PRIVATE: i32 = 0x02;
            const MAP_ANONYMOUS: i32 = 0x20;
            const MAP_NORESERVE: i32 = 0x4000;

            /// Whether the room is looked for: here, yes.
            #[cfg(test)]
            pub(super) const LOOKED_FOR: bool = true;

            /// Whether `bytes` of address space can be mapped now: a
            /// mapping that no one may touch, taken and given back at once.
            /// It counts against `ulimit -v` as a thread's stack does, and
            /// commits no memory.
            pub(super) fn has_room(bytes: usize) -> bool {
                let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
                // SAFETY: an anonymous mapping at an address the kernel
                // chooses touches no existing memory; `mmap` returns
                // `MAP_FAILED` (-1) or the start of `bytes` bytes mapped
                // for this call alone.
                let at = unsafe { mmap(core::ptr::null_mut(), bytes, PROT_NONE, flags, -1, 0) };
                if at as isize == -1 {
                    return false;
                }
                // SAFETY: `at..at + bytes` is the mapping just made, which
                // nothing else knows of.
                unsafe { munmap(at, bytes) };
                true
            }
        }
    } else {
        mod address_space {
            /// Whether the room is looked for: not here.
            #[cfg(test)]
            pub(super) const LOOKED_FOR: bool = false;

            /// Elsewhere (and under Miri, which maps no memory for a
            /// thread) the room is not looked for: the thread is asked for.
            pub(super) fn has_room(_bytes: usize) -> bool {
                true
            }
        }
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

    /// The room for a thread is looked for in the address space (where
    /// the system lets it be): what no address space holds is not there, a
    /// page is.
    #[test]
    fn the_room_for_a_thread_is_the_address_spaces() {
        assert_eq!(address_space::has_room(1 << 62), !address_space::LOOKED_FOR);
        assert!(address_space::has_room(4096));
    }

    fn builder_past_limit() -> Builder {
        refusing_after(0, || builder(0))
    }
}
