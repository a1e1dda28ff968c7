//! A plan's memory is known before it is built: the heap that building a
//! plan takes at its peak, and that it holds with a shard's owners dealt,
//! is under `Plan::build_memory_estimate`, for every N and both methods.
//! The heap is measured by this test binary's own allocator, which counts
//! what is allocated and freed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use queens_simd::plan::{Method, Plan, Shard, Subproblem};

/// The system's allocator, counting the bytes held and their peak.
struct Counting;

static HELD: AtomicU64 = AtomicU64::new(0);
static PEAK: AtomicU64 = AtomicU64::new(0);

/// One measurement at a time: the test harness runs tests on threads.
static MEASURING: Mutex<()> = Mutex::new(());

// SAFETY: every call is passed to `System` unchanged; the counters are
// only arithmetic on the sizes it was given.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System`'s.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let held =
                HELD.fetch_add(layout.size() as u64, Ordering::SeqCst) + layout.size() as u64;
            PEAK.fetch_max(held, Ordering::SeqCst);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is `System`'s.
        unsafe { System.dealloc(pointer, layout) };
        HELD.fetch_sub(layout.size() as u64, Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most the heap grows while `work` runs (and what it leaves held).
fn peak_of<T>(work: impl FnOnce() -> T) -> (T, u64) {
    let _one = MEASURING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = work();
    (result, PEAK.load(Ordering::SeqCst) - before)
}

#[test]
fn every_plan_is_built_in_the_memory_estimated_before() {
    for method in [Method::Symmetric, Method::Join] {
        for n in 0..=32 {
            let estimate = Plan::build_memory_estimate(n, method).unwrap();
            let (plan, peak) = peak_of(|| {
                let plan = Plan::with_method(n, method).unwrap();
                let _ = plan.shard(Shard::new(0, 1000).unwrap());
                plan
            });
            assert!(
                peak <= estimate,
                "N = {n}, {method}: {peak} bytes at the peak, estimated {estimate}"
            );
            // Close, not a bound of anything: within 2 MiB and twice the plan.
            let held = plan.len() as u64 * std::mem::size_of::<Subproblem>() as u64;
            assert!(estimate <= 2 * held + (2 << 20), "N = {n}, {method}");
        }
    }
}

#[test]
fn a_plan_too_large_for_the_size_is_refused_before_it_is_built() {
    for method in [Method::Symmetric, Method::Join] {
        assert!(Plan::build_memory_estimate(33, method).is_err());
    }
}
