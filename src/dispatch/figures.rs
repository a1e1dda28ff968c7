//! The measurements `auto`'s rules cite (`policy.rs`): for each rule, the
//! figures of BENCHMARKS.md that put its families in their order, one a
//! line. The policy's tests hold every rule's list to its figures, and
//! every figure to a section of BENCHMARKS.md.

use crate::Kernel;
use crate::kernel::Task::{self, Count, Enumerate};

/// A measurement a rule cites: at size `n`, for `task`, `faster` took
/// `faster_ns` nanoseconds and `slower` took `slower_ns` (one run each
/// side, on `cpu`); `source` is the section of BENCHMARKS.md that holds
/// them. The rule's list must put `faster` ahead of `slower`.
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))] // read by the test that holds the lists to them
pub(super) struct Figure {
    pub(super) n: usize,
    pub(super) task: Task,
    pub(super) faster: Kernel,
    pub(super) faster_ns: f64,
    pub(super) slower: Kernel,
    pub(super) slower_ns: f64,
    pub(super) cpu: &'static str,
    pub(super) source: &'static str,
}

/// [`Figure`]s, one a line: `measured(n, task, faster, its ns, slower, its
/// ns, cpu, section)`, each kernel by its name, as BENCHMARKS.md gives it
/// (a name that is no kernel's fails the build).
#[allow(clippy::too_many_arguments)] // a table's row, in its columns' order
const fn measured(
    n: usize,
    task: Task,
    faster: &str,
    faster_ns: f64,
    slower: &str,
    slower_ns: f64,
    cpu: &'static str,
    source: &'static str,
) -> Figure {
    Figure {
        n,
        task,
        faster: Kernel::named(faster),
        faster_ns,
        slower: Kernel::named(slower),
        slower_ns,
        cpu,
        source,
    }
}

// The CPUs of the figures, as BENCHMARKS.md names them.
const ZEN_3: &str = "Zen 3";
const ZEN_4: &str = "Zen 4";
const ZEN_5: &str = "Zen 5";
const EMERALD_RAPIDS: &str = "Emerald Rapids";

// The sections of BENCHMARKS.md the figures come from.
const COUNTING: &str = "Counting";
const ENUMERATING: &str = "Enumerating";
const JOIN_KERNELS: &str = "Join kernels";
const LANE_KERNELS: &str = "Lane kernels";
const AUTO_AT_SMALL_N: &str =
    "`auto` at small N, and mirror starts up to N = 11 and 13 (issue 29, part 1)";
const BLOCKS_KERNEL: &str = "The blocks kernel (issue 29, part 2)";
const JOIN_WITHOUT_VPOPCNTDQ: &str = "A 512-bit join without VPOPCNTDQ (issue 45)";

/// Counting from [`super::policy::JOIN_FROM`]: a join kernel ahead of the fastest
/// search, `join-avx512bw` ahead of `join-avx2` (where `join-avx512` does
/// not run: both forced on one CPU, each the mean of its runs, four at
/// N = 18 and two at N = 22, the 60 row sets of `--sample`), and (past the
/// split-512 rules) `lanes-avx512` ahead of `lanes-avx2`.
#[rustfmt::skip] // a table: one figure a line
pub(super) const JOIN_FIGURES: &[Figure] = &[
    measured(14, Count, "join-avx512", 7_774_000.0, "lanes-avx512", 11_623_000.0, ZEN_4, JOIN_KERNELS),
    measured(14, Count, "join", 10_422_000.0, "lanes-avx512", 11_623_000.0, ZEN_4, JOIN_KERNELS),
    measured(14, Count, "lanes-avx512", 11_623_000.0, "symmetric-bmi", 22_776_000.0, ZEN_4, JOIN_KERNELS),
    measured(14, Count, "lanes-avx512", 9_617_000.0, "lanes-avx2", 10_306_000.0, ZEN_4, LANE_KERNELS),
    measured(18, Count, "join-avx512bw", 3_450_000_000.0, "join-avx2", 4_487_500_000.0, EMERALD_RAPIDS, JOIN_WITHOUT_VPOPCNTDQ),
    measured(22, Count, "join-avx512bw", 8_950_000_000.0, "join-avx2", 11_600_000_000.0, EMERALD_RAPIDS, JOIN_WITHOUT_VPOPCNTDQ),
];

/// On a CPU that runs each 512-bit instruction as two 256-bit halves, 16
/// lanes cost about twice 8 a step, and a board this small has too few
/// starts to keep 16 lanes busy: `lanes-avx2` leads. (On Zen 5, which runs
/// them whole, `lanes-avx512` leads at the same N: BENCHMARKS.md, "Ties in
/// lanes".)
#[rustfmt::skip] // a table: one figure a line
pub(super) const SPLIT_512_LARGE_N_FIGURES: &[Figure] = &[
    measured(12, Count, "lanes-avx2", 363_137.0, "lanes-avx512", 420_353.0, ZEN_4, COUNTING),
    measured(13, Count, "lanes-avx2", 1_767_000.0, "lanes-avx512", 2_302_000.0, ZEN_4, COUNTING),
];

/// The same at N = [`super::policy::LANES_FROM`].
#[rustfmt::skip] // a table: one figure a line
pub(super) const SPLIT_512_SMALL_N_FIGURES: &[Figure] = &[Figure {
    n: 9,
    task: Task::Count,
    faster: Kernel::named("lanes-avx2"),
    faster_ns: 4_270.0,
    slower: Kernel::named("lanes-avx512"),
    slower_ns: 5_168.0,
    cpu: "Zen 4",
    source: "Counting",
}];

/// Counting from [`super::policy::SYMMETRIC_FROM`] to below [`super::policy::JOIN_FROM`], and enumerating
/// from [`super::policy::SYMMETRIC_FROM`]: lanes ahead of the symmetric search, the
/// symmetric search ahead of the portable one; below [`super::policy::JOIN_FROM`] a
/// search ahead of the join.
#[rustfmt::skip] // a table: one figure a line
pub(super) const LARGE_N_FIGURES: &[Figure] = &[
    measured(10, Count, "lanes-avx2", 16_207.0, "symmetric-bmi", 43_600.0, ZEN_4, COUNTING),
    measured(10, Count, "symmetric-bmi", 30_120.0, "portable", 47_170.0, ZEN_5, AUTO_AT_SMALL_N),
    measured(13, Count, "symmetric-bmi", 4_036_000.0, "portable", 24_432_000.0, ZEN_4, COUNTING),
    measured(13, Count, "lanes-avx2", 1_775_000.0, "join-avx512", 3_096_000.0, ZEN_4, JOIN_KERNELS),
    measured(10, Enumerate, "symmetric-bmi", 72_015.0, "portable", 204_794.0, ZEN_4, ENUMERATING),
];

/// Fundamental solutions from [`super::policy::SYMMETRIC_FUNDAMENTAL_FROM`]: no table of
/// BENCHMARKS.md measures this threshold yet; the order is that of
/// enumeration from [`super::policy::SYMMETRIC_FROM`], for the reason given there.
#[rustfmt::skip] // a table: one figure a line
pub(super) const FUNDAMENTAL_FIGURES: &[Figure] = &[];

/// Counting N = [`super::policy::LANES_FROM`] to below [`super::policy::SYMMETRIC_FROM`]: lanes ahead of
/// the portable kernel.
#[rustfmt::skip] // a table: one figure a line
pub(super) const SMALL_N_FIGURES: &[Figure] = &[
    measured(9, Count, "lanes-avx2", 4_270.0, "portable", 14_538.0, ZEN_4, COUNTING),
    measured(9, Count, "lanes-avx512", 2_890.0, "portable", 9_670.0, ZEN_5, AUTO_AT_SMALL_N),
];

/// Counting N = [`super::policy::BLOCKS_FROM`] to 8: the blocks kernels ahead of the lanes
/// and the portable kernel.
#[rustfmt::skip] // a table: one figure a line
pub(super) const BLOCKS_FIGURES: &[Figure] = &[
    measured(5, Count, "blocks-bmi", 72.6, "portable", 144.9, ZEN_4, COUNTING),
    measured(7, Count, "blocks-bmi", 304.0, "lanes-avx2", 994.0, ZEN_3, BLOCKS_KERNEL),
    measured(8, Count, "blocks-bmi", 421.9, "lanes-avx2", 1_288.0, ZEN_4, COUNTING),
    measured(8, Count, "lanes-avx2", 1_288.0, "portable", 3_464.0, ZEN_4, COUNTING),
];

/// Counting below [`super::policy::BLOCKS_FROM`]: the portable kernel ahead of the blocks
/// and lane kernels.
#[rustfmt::skip] // a table: one figure a line
pub(super) const TINY_N_FIGURES: &[Figure] = &[
    measured(4, Count, "portable", 31.7, "blocks-bmi", 45.7, ZEN_4, COUNTING),
    measured(4, Count, "portable", 31.7, "lanes-avx2", 227.8, ZEN_4, COUNTING),
    measured(4, Count, "portable", 23.0, "lanes-avx512", 151.0, ZEN_5, AUTO_AT_SMALL_N),
];

/// Enumerating N = [`super::policy::BLOCKS_ENUMERATION_FROM`] to 8: the blocks kernels
/// ahead of davidad's machine, and it ahead of the portable kernel.
#[rustfmt::skip] // a table: one figure a line
pub(super) const BLOCKS_ENUMERATION_FIGURES: &[Figure] = &[
    measured(7, Enumerate, "blocks-bmi", 1_344.0, "sse41", 2_239.0, ZEN_4, ENUMERATING),
    measured(8, Enumerate, "blocks-bmi", 4_698.0, "sse41", 6_043.0, ZEN_4, ENUMERATING),
    measured(8, Enumerate, "blocks-bmi", 5_500.0, "sse41", 7_800.0, ZEN_3, BLOCKS_KERNEL),
    measured(7, Enumerate, "sse41", 2_239.0, "portable", 3_646.0, ZEN_4, ENUMERATING),
];

/// Enumerating below [`super::policy::SYMMETRIC_FROM`] (but 7 and 8): davidad's machine
/// ahead of the portable kernel, of the symmetric search (at N = 9, just
/// below [`super::policy::SYMMETRIC_FROM`]) and of the blocks kernels (at N = 6, just below
/// [`super::policy::BLOCKS_ENUMERATION_FROM`]).
#[rustfmt::skip] // a table: one figure a line
pub(super) const SMALL_N_ENUMERATION_FIGURES: &[Figure] = &[
    measured(4, Enumerate, "sse41", 56.3, "portable", 127.0, ZEN_4, ENUMERATING),
    measured(6, Enumerate, "sse41", 382.1, "portable", 956.2, ZEN_4, ENUMERATING),
    measured(6, Enumerate, "sse41", 382.1, "blocks-bmi", 408.4, ZEN_4, ENUMERATING),
    measured(6, Enumerate, "portable", 956.2, "symmetric-bmi", 1_824.0, ZEN_4, ENUMERATING),
    measured(9, Enumerate, "sse41", 22_237.0, "portable", 51_039.0, ZEN_4, ENUMERATING),
    measured(9, Enumerate, "sse41", 22_237.0, "symmetric-bmi", 26_215.0, ZEN_4, ENUMERATING),
];
