//! A counting allocator for the tests that measure what the library
//! allocates: a test binary makes it its global allocator
//! (`#[global_allocator] static ALLOCATOR: Counting = Counting;`) and
//! measures with [`peak_growth`], one test at a time ([`MEASURING`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system's allocator, counting the bytes held and their peak.
pub struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let held = HELD.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(held, Ordering::Relaxed);
}

// SAFETY: every call is passed on to the system's allocator as it came;
// the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller promised.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            grew(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as the caller promised.
        unsafe { System.dealloc(pointer, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller promised.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            // Both blocks are held for a moment where the block moves.
            grew(new_size);
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

/// One test at a time measures (the others would allocate beside it).
pub static MEASURING: Mutex<()> = Mutex::new(());

/// The most bytes held past what was held when it started, while `work`
/// ran, and what it returned.
pub fn peak_growth<T>(work: impl FnOnce() -> T) -> (usize, T) {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = work();
    (PEAK.load(Ordering::Relaxed).saturating_sub(before), result)
}
