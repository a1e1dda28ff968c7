//! The one oracle every test shares: published counts, never computed by the
//! code under test, and the kernel selection for a test run.
#![allow(dead_code)]

use queens_simd::Kernel;
use queens_simd::kernel::Method;

pub mod counting;
#[cfg(target_os = "linux")]
pub mod limits;
mod oracle;
// Each test file uses the part it needs.
#[allow(unused_imports)]
pub use oracle::{A000170, A002562};

/// Largest N whose count the tests check: the big ones only in release
/// builds, so that a debug `cargo test` stays quick, and N = 15 (a second
/// or two a kernel that searches every solution) only with the long tests
/// ([`long_tests`], CI).
pub fn max_count_n() -> usize {
    match (cfg!(debug_assertions), long_tests()) {
        (true, _) => 12,
        (false, false) => 14,
        (false, true) => 15,
    }
}

/// Largest N whose count the tests check for `kernel`: one more than
/// [`max_count_n`] (N = 16 with the long tests, in release builds) for the
/// kernels that search by symmetry class (the symmetric and lane kernels),
/// which take about a second there where the others take ten or more, and
/// two more (N = 17) for the join kernels, which take one to three seconds.
pub fn max_count_n_for(kernel: Kernel) -> usize {
    match kernel {
        k if k.method() == Some(Method::Symmetric) && !cfg!(debug_assertions) => max_count_n() + 1,
        k if k.method() == Some(Method::Join) && !cfg!(debug_assertions) => max_count_n() + 2,
        _ => max_count_n(),
    }
}

/// Largest N whose full solution set the tests compare across kernels.
pub const fn max_set_n() -> usize {
    if cfg!(debug_assertions) { 10 } else { 12 }
}

/// The kernels a test run covers: every concrete kernel, or only the one
/// named by `QUEENS_SIMD_KERNEL` (e.g. `QUEENS_SIMD_KERNEL=portable`).
/// A kernel this CPU cannot run is reported as skipped; with
/// `QUEENS_SIMD_REQUIRE_ALL=1` (set in CI) a skip is a failure, unless
/// the kernel is named in `QUEENS_SIMD_ALLOW_MISSING` (see
/// [`allowed_missing`]).
pub fn kernels_under_test() -> Vec<Kernel> {
    let selected: Vec<Kernel> = match std::env::var("QUEENS_SIMD_KERNEL") {
        Ok(name) => vec![
            name.parse()
                .unwrap_or_else(|e| panic!("QUEENS_SIMD_KERNEL: {e}")),
        ],
        Err(_) => Kernel::ALL.to_vec(),
    };
    selected
        .into_iter()
        .filter(|kernel| {
            if kernel.is_available() {
                return true;
            }
            skip_unavailable(*kernel);
            false
        })
        .collect()
}

/// The kernels under test that list solutions as well as count them (all
/// but the join kernels, which only count).
pub fn listing_kernels_under_test() -> Vec<Kernel> {
    kernels_under_test()
        .into_iter()
        .filter(|kernel| kernel.enumerates())
        .collect()
}

/// Whether `kernel` may be missing even with `QUEENS_SIMD_REQUIRE_ALL=1`:
/// named in `QUEENS_SIMD_ALLOW_MISSING` (comma-separated kernel names).
/// CI names `join-avx512` there only when `/proc/cpuinfo` shows the CPU
/// lacks AVX-512 F or VPOPCNTDQ, and `join-avx512bw` only when it lacks
/// AVX-512 F or BW, which no emulator here can stand in for; on a CPU that
/// has them the kernel must run.
pub fn allowed_missing(kernel: Kernel) -> bool {
    std::env::var("QUEENS_SIMD_ALLOW_MISSING")
        .is_ok_and(|names| names.split(',').any(|name| name.trim() == kernel.name()))
}

/// Says that a test skips `kernel`, which this CPU does not run; panics
/// instead when CI requires every kernel (`QUEENS_SIMD_REQUIRE_ALL=1`) and
/// `QUEENS_SIMD_ALLOW_MISSING` does not name it.
pub fn skip_unavailable(kernel: Kernel) {
    assert!(
        !require_all() || allowed_missing(kernel),
        "kernel {kernel} is not available here and QUEENS_SIMD_REQUIRE_ALL=1 \
         (and QUEENS_SIMD_ALLOW_MISSING does not name it)"
    );
    eprintln!("SKIPPED: kernel {kernel} is not available on this CPU");
}

/// Whether this run must cover everything (`QUEENS_SIMD_REQUIRE_ALL=1`, set
/// in CI): a kernel or tool that is missing fails instead of skipping.
pub fn require_all() -> bool {
    std::env::var("QUEENS_SIMD_REQUIRE_ALL").is_ok_and(|v| v == "1")
}

/// Whether the long sweeps run in full (`QUEENS_SIMD_LONG_TESTS=1`, set in
/// CI by `.ci/run`). Without it each sweep runs a smaller sample of the same
/// cases (every kernel, path and kind of outcome still reached; fewer
/// limits, or one N less), so that `cargo test --release` takes minutes on
/// two cores; CI runs every case. DEVELOPERS.md lists what each sweep
/// leaves to CI.
pub fn long_tests() -> bool {
    std::env::var("QUEENS_SIMD_LONG_TESTS").is_ok_and(|v| v == "1")
}
