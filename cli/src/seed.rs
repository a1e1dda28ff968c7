//! The seed of a draw that the user did not seed (`--sample`, `merge
//! --recount`, `script --cross-check`), printed so that it can be repeated.

/// A seed no earlier run is likely to have drawn: the standard library's
/// per-process random hasher keys.
pub(crate) fn fresh() -> u64 {
    use std::hash::BuildHasher;
    std::hash::RandomState::new().hash_one(std::process::id())
}
