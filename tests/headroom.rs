//! The headroom a join count keeps free (`kernel::join::grow::HEADROOM`,
//! 4 MiB) covers what it allocates infallibly between two of its buffers.
//!
//! Each buffer a join count grows is followed by a probe: an allocation of
//! `HEADROOM` bytes, freed at once (`grow::headroom_left`). This binary's
//! allocator counts, on each thread, what is allocated between two probes
//! (less the buffer just before a probe, the one it checks), and on the
//! calling thread, everything it allocates while the count runs (it
//! collects the results, it probes nothing). Each allocation is counted
//! as the pages it would map if it were a mapping of its own (glibc, for a
//! thread that has no arena), the worst case.
#![cfg(target_os = "linux")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use queens_simd::Kernel;
use queens_simd::dispatch::Options;

/// `grow::HEADROOM`: the size of a probe.
const HEADROOM: usize = 4 << 20;

/// A page: what an allocation of its own maps at least.
const PAGE: u64 = 4096;

struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
/// The most a worker allocated between two probes, and the probes.
static MOST_BETWEEN: AtomicU64 = AtomicU64::new(0);
static PROBES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's pages since its last probe, and its last allocation's.
    static SINCE: Cell<u64> = const { Cell::new(0) };
    static LAST: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed to `System` as it came.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            let pages = (layout.size() as u64 + 16).div_ceil(PAGE) * PAGE;
            let _ = SINCE.try_with(|since| {
                if layout.size() == HEADROOM {
                    let last = LAST.try_with(Cell::get).unwrap_or(0);
                    let between = since.get().saturating_sub(last);
                    MOST_BETWEEN.fetch_max(between, Ordering::Relaxed);
                    PROBES.fetch_add(1, Ordering::Relaxed);
                    since.set(0);
                } else {
                    since.set(since.get() + pages);
                    let _ = LAST.try_with(|last| last.set(pages));
                }
            });
        }
        // SAFETY: the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn the_headroom_covers_what_a_count_allocates_between_its_buffers() {
    for (n, threads) in [(16, 1), (16, 2), (18, 2)] {
        let plan = queens_simd::dispatch::plan_for(Kernel::Auto, n).unwrap();
        let options = Options::new().with_threads(threads);
        MOST_BETWEEN.store(0, Ordering::Relaxed);
        PROBES.store(0, Ordering::Relaxed);
        SINCE.with(|since| since.set(0));
        COUNTING.store(true, Ordering::Relaxed);
        let counted = options.count_reporting(&plan, plan.all(), |_, _| {});
        COUNTING.store(false, Ordering::Relaxed);
        counted.unwrap();
        let caller = SINCE.with(Cell::get);
        let between = MOST_BETWEEN.load(Ordering::Relaxed);
        eprintln!(
            "N = {n} on {threads} threads: {} probes; at most {} KiB between two on a worker, \
             {} KiB on the calling thread",
            PROBES.load(Ordering::Relaxed),
            between >> 10,
            caller >> 10
        );
        // Every thread's at once, the calling thread's too, with room to
        // spare: a quarter of the headroom.
        assert!(
            threads as u64 * between + caller <= HEADROOM as u64 / 4,
            "N = {n} on {threads} threads: {between} bytes between probes, {caller} on the caller"
        );
    }
}
