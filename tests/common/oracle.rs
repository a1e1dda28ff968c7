//! The published counts every test and bench checks against: OEIS tables,
//! never computed by the code under test. Shared by `tests/common` and by
//! the benches (through `#[path]`), so there is one oracle.

use queens_simd::Count;

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
