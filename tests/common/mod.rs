//! The one oracle every test shares: published counts, never computed by the
//! code under test, and the kernel selection for a test run.
#![allow(dead_code)]

use queens_simd::{Count, Kernel};

/// OEIS A000170: solutions of the N-Queens puzzle, N = 0, 1, 2, ...
/// (N = 0: the empty board is the one solution.)
pub const A000170: [Count; 28] = [
    1,
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
];

/// OEIS A002562: fundamental solutions (classes under the 8 symmetries of
/// the square), indexed by N; index 0 is the empty board's one class.
pub const A002562: [Count; 17] = [
    1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
];

/// Largest N whose count the tests check: the big ones only in release
/// builds, so that a debug `cargo test` stays quick.
pub const fn max_count_n() -> usize {
    if cfg!(debug_assertions) { 12 } else { 15 }
}

/// Largest N whose full solution set the tests compare across kernels.
pub const fn max_set_n() -> usize {
    if cfg!(debug_assertions) { 10 } else { 12 }
}

/// The kernels a test run covers: every concrete kernel, or only the one
/// named by `QUEENS_SIMD_KERNEL` (e.g. `QUEENS_SIMD_KERNEL=portable`).
/// A kernel this CPU cannot run is reported as skipped; with
/// `QUEENS_SIMD_REQUIRE_ALL=1` (set in CI) a skip is a failure.
pub fn kernels_under_test() -> Vec<Kernel> {
    let selected: Vec<Kernel> = match std::env::var("QUEENS_SIMD_KERNEL") {
        Ok(name) => vec![
            name.parse()
                .unwrap_or_else(|e| panic!("QUEENS_SIMD_KERNEL: {e}")),
        ],
        Err(_) => Kernel::ALL.to_vec(),
    };
    let require_all = require_all();
    selected
        .into_iter()
        .filter(|kernel| {
            if kernel.is_available() {
                return true;
            }
            assert!(
                !require_all,
                "kernel {kernel} is not available here and QUEENS_SIMD_REQUIRE_ALL=1"
            );
            eprintln!("SKIPPED: kernel {kernel} is not available on this CPU");
            false
        })
        .collect()
}

/// Whether this run must cover everything (`QUEENS_SIMD_REQUIRE_ALL=1`, set
/// in CI): a kernel or tool that is missing fails instead of skipping.
pub fn require_all() -> bool {
    std::env::var("QUEENS_SIMD_REQUIRE_ALL").is_ok_and(|v| v == "1")
}
