//! What the kernels and the plan lean on that is not about queens: the
//! worker threads that count pieces (`workers`), and the seeded random
//! numbers that draw a sample's row sets (`random`). Imports nothing above
//! the vocabulary.

#[cfg(feature = "std")]
pub(crate) mod random;
#[cfg(feature = "std")]
pub(crate) mod workers;
