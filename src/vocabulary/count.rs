//! [`Count`]: a number of solutions.

/// A number of solutions. `u128` holds N! for every N <= 32 (32! < 2^118),
/// and the number of solutions never exceeds N!.
pub type Count = u128;
