//! What a count through a plan takes, known before anything is built: the
//! plan itself, and its count's tables and buffers. The command line checks
//! it against the limits of the process before it builds the plan.

use super::{Method, Subproblem};
use crate::Error;
use crate::kernel::pieces;

/// What a count of an `n`x`n` board through the plan of a method takes,
/// found without building the plan (its pieces are counted, not kept, at
/// once even at N = 32: BENCHMARKS.md, "The memory check answers at
/// once").
///
/// ```
/// use queens_simd::plan::{MemoryNeeds, Plan};
/// use queens_simd::kernel::Method;
///
/// let needs = MemoryNeeds::new(Method::Join, 22)?;
/// let plan = Plan::with_method(Method::Join, 22)?;
/// assert_eq!(needs.count(2), plan.memory_estimate(2));
/// assert_eq!(needs.total(2), needs.plan() + needs.count(2));
/// # Ok::<(), queens_simd::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryNeeds {
    n: usize,
    method: Method,
    /// How many subproblems the plan has.
    pieces: usize,
}

impl MemoryNeeds {
    /// The needs of a count of an `n`x`n` board through the plan of
    /// `method`.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] for `n` over what the method's kernels
    /// accept.
    pub fn new(method: Method, n: usize) -> Result<MemoryNeeds, Error> {
        let pieces = pieces::how_many(method, n)?;
        Ok(MemoryNeeds { n, method, pieces })
    }

    /// About how many bytes [`super::Plan::with_method`] takes at most while
    /// it builds the plan, and the plan holds once built (its subproblems,
    /// its order, and a shard's owners).
    pub fn plan(&self) -> u64 {
        (self.pieces as u64)
            .saturating_mul(PLAN_BYTES_PER_PIECE)
            .saturating_add(PLAN_BYTES)
    }

    /// About how many bytes counting the plan (or any shard of it) on
    /// `threads` threads allocates: [`super::Plan::memory_estimate`].
    pub fn count(&self, threads: usize) -> u64 {
        pieces::memory_estimate(self.method, self.n, self.pieces, threads)
    }

    /// About how many bytes a sample of `draws` row sets on `threads`
    /// threads takes beside the count's: [`super::Sample::memory_estimate`].
    pub fn sample(&self, draws: usize, threads: usize) -> u64 {
        super::Sample::memory_estimate(self.pieces, draws, threads)
    }

    /// [`MemoryNeeds::plan`] and [`MemoryNeeds::count`] together.
    pub fn total(&self, threads: usize) -> u64 {
        self.plan().saturating_add(self.count(threads))
    }
}

/// Address space a count keeps free beyond its buffers (4 MiB), probed
/// after each large buffer it allocates, so that the small allocations
/// that cannot fail have room: a check of the address space left adds it.
pub const PROBED_HEADROOM: u64 = crate::kernel::join::grow::HEADROOM;

/// Bytes a plan takes per subproblem, at most, while it is built and once
/// built: the subproblem (`size_of::<Subproblem>()`, 328 bytes on 64-bit
/// targets), its place in the order (8), a shard's owners (8 more, for one
/// number of shards at a time), and a margin for a piece's own lists (a
/// partial board's queens). The test `tests/plan_memory.rs` measures the
/// peak of every plan up to N = 32 under it.
const PLAN_BYTES_PER_PIECE: u64 = 512;

/// Bytes a plan takes besides its subproblems, at most: what building it
/// allocates for a moment (a split of a join plan, a family's first
/// subproblems) and its caches.
const PLAN_BYTES: u64 = 1 << 20;

// The margin per piece covers the subproblem with room to spare.
const _: () = assert!(size_of::<Subproblem>() as u64 + 16 <= PLAN_BYTES_PER_PIECE);
