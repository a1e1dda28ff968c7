//! Counting the pairs of two sets of masks that share no bit: the join's
//! inner loop, where most of its time goes as N grows.
//!
//! The patterns are stored bit-sliced: a block of `L` patterns becomes 64
//! words of `L` bits, word `b` holding bit `b` of every pattern in the
//! block. An item is then matched against the whole block at once: OR
//! together the words of the item's set bits, and lane `j` of the result
//! is set exactly when pattern `j` shares a bit with the item. Its
//! popcount is the block's conflicts with the item, for one OR per set bit
//! of the item (about `n` of them) instead of `L` tests. Lanes past the
//! last pattern stay 0 in every word, so they never count as conflicts,
//! and the pairs that share no bit are all pairs less the conflicts.
//!
//! Before that, a sieve skips most pairs that would conflict on four *cut*
//! bits, the top bits of every mask ([`CUT_SHIFT`]; the split puts there
//! the four crossing diagonals with the most open squares on both sides).
//! The masks come sorted by their cut bits read as a number, their class.
//! An item of class `u` can only match patterns of a class `v` with
//! `u & v == 0`, so it scans only the blocks that hold such classes, runs
//! of neighbouring blocks at a time ([`sieved`]). A block shared with a
//! class it cannot match costs nothing wrong: those patterns share a cut
//! bit with the item, so their lanes count as conflicts. On masks whose
//! cut bits are set half the time, about (3/4)^4 = 32% of the pairs are
//! scanned.

use alloc::vec::Vec;

/// Masks sorted by class ([`CUT_SHIFT`]): those of class `c` are
/// `masks[starts[c]..starts[c + 1]]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Group<'a> {
    pub(crate) masks: &'a [u64],
    pub(crate) starts: [usize; CLASSES + 1],
}

impl Group<'_> {
    pub(crate) fn len(&self) -> usize {
        self.masks.len()
    }
}

/// Counts `items` x `patterns` pairs with `item & pattern == 0`.
pub(crate) trait Matcher {
    /// The number of pairs of an item and a pattern with no bit in common.
    fn disjoint_pairs(&mut self, items: Group<'_>, patterns: Group<'_>) -> u64;
}

/// How many cut bits the sieve pairs classes by.
pub(crate) const CUTS: usize = 4;
/// Where the cut bits are: a mask's class is `mask >> CUT_SHIFT`.
pub(crate) const CUT_SHIFT: u32 = 64 - CUTS as u32;
/// Classes of masks by their cut bits.
pub(crate) const CLASSES: usize = 1 << CUTS;

/// Slices per block, one per bit of a `u64` mask (the join's use at most
/// 62): a fixed size, so that indexing a block by a bit needs no check.
pub(crate) const SLICES: usize = 64;

/// Writes `patterns` bit-sliced into `blocks` (cleared first), `L` to a
/// block of 64 slices of `L / 64` words each, one set bit at a time.
/// Returns the union of the patterns: an item's other bits meet no
/// pattern and need no OR.
pub(crate) fn slice<const WORDS: usize>(
    patterns: &[u64],
    blocks: &mut Vec<[[u64; WORDS]; SLICES]>,
) -> u64 {
    let lanes = 64 * WORDS;
    blocks.clear();
    blocks.resize(patterns.len().div_ceil(lanes), [[0; WORDS]; SLICES]);
    let mut union = 0;
    for (block, group) in blocks.iter_mut().zip(patterns.chunks(lanes)) {
        for (lane, &pattern) in group.iter().enumerate() {
            union |= pattern;
            let (word, bit) = (lane / 64, lane % 64);
            let mut rest = pattern;
            while rest != 0 {
                block[rest.trailing_zeros() as usize % SLICES][word] |= 1 << bit;
                rest &= rest - 1;
            }
        }
    }
    union
}

/// The pairs of `items` and `patterns` that share no bit, through the
/// sieve: `slice(patterns, blocks)` slices the patterns and returns their
/// union (as [`slice()`] does); `conflicts(items, union, blocks)` counts the
/// conflicting pairs of `items` with the bit-sliced patterns of `blocks`,
/// where `union` has every bit any pattern has.
pub(crate) fn sieved<const WORDS: usize>(
    blocks: &mut Vec<[[u64; WORDS]; SLICES]>,
    items: Group<'_>,
    patterns: Group<'_>,
    slice: impl FnOnce(&[u64], &mut Vec<[[u64; WORDS]; SLICES]>) -> u64,
    mut conflicts: impl FnMut(&[u64], u64, &[[[u64; WORDS]; SLICES]]) -> u64,
) -> u64 {
    let lanes = 64 * WORDS;
    let union = slice(patterns.masks, blocks);
    let mut pairs = 0u64;
    for u in 0..CLASSES {
        let items_u = &items.masks[items.starts[u]..items.starts[u + 1]];
        if items_u.is_empty() {
            continue;
        }
        // Only the blocks that hold patterns of the classes with no cut
        // bit of u, runs of neighbouring blocks scanned together.
        let mut scan = |(first, end): (usize, usize)| {
            let scanned = patterns.len().min(end * lanes) - first * lanes;
            let conflicting = conflicts(items_u, union, &blocks[first..end]);
            pairs += items_u.len() as u64 * scanned as u64 - conflicting;
        };
        let mut run: Option<(usize, usize)> = None;
        for v in (0..CLASSES).filter(|v| v & u == 0) {
            let (start, end) = (patterns.starts[v], patterns.starts[v + 1]);
            if start == end {
                continue;
            }
            let blocks = (start / lanes, end.div_ceil(lanes));
            run = match run {
                Some((first, last)) if blocks.0 <= last => Some((first, last.max(blocks.1))),
                Some(done) => {
                    scan(done);
                    Some(blocks)
                }
                None => Some(blocks),
            };
        }
        if let Some(done) = run {
            scan(done);
        }
    }
    pairs
}

/// The positions of the set bits of `mask`, lowest first, into `bits`;
/// returns how many.
#[inline]
pub(crate) fn set_bits(mask: u64, bits: &mut [u8; 64]) -> usize {
    let mut count = 0;
    let mut rest = mask;
    while rest != 0 {
        bits[count] = rest.trailing_zeros() as u8;
        count += 1;
        rest &= rest - 1;
    }
    count
}

/// The portable matcher: 64 patterns to a block, one `u64` per slice.
#[derive(Default)]
pub(crate) struct Portable {
    blocks: Vec<[[u64; 1]; SLICES]>,
}

impl Matcher for Portable {
    fn disjoint_pairs(&mut self, items: Group<'_>, patterns: Group<'_>) -> u64 {
        sieved(&mut self.blocks, items, patterns, slice, conflicts)
    }
}

/// The pairs of `items` and the sliced patterns of `blocks` that share a
/// bit, 64 patterns per `u64`.
fn conflicts(items: &[u64], union: u64, blocks: &[[[u64; 1]; SLICES]]) -> u64 {
    let mut conflicts = 0u64;
    let mut bits = [0u8; 64];
    for &item in items {
        let set = set_bits(item & union, &mut bits);
        let bits = &bits[..set];
        // Four blocks at a time: each slice number read once, four ORs.
        let mut quads = blocks.chunks_exact(4);
        for quad in &mut quads {
            let mut hits = [0u64; 4];
            for &bit in bits {
                let slice = usize::from(bit) % SLICES;
                for (hit, block) in hits.iter_mut().zip(quad) {
                    *hit |= block[slice][0];
                }
            }
            conflicts += hits.iter().map(|h| u64::from(h.count_ones())).sum::<u64>();
        }
        for block in quads.remainder() {
            let mut hit = 0u64;
            for &bit in bits {
                hit |= block[usize::from(bit) % SLICES][0];
            }
            conflicts += u64::from(hit.count_ones());
        }
    }
    conflicts
}

/// `masks` sorted by class into `sorted`, as a [`Group`].
#[cfg(test)]
pub(crate) fn group(masks: &[u64], sorted: &mut Vec<u64>) -> Group<'static> {
    sorted.clear();
    sorted.extend_from_slice(masks);
    sorted.sort_unstable_by_key(|m| m >> CUT_SHIFT);
    let mut starts = [0; CLASSES + 1];
    for c in 0..CLASSES {
        starts[c + 1] = starts[c]
            + sorted
                .iter()
                .filter(|&&m| (m >> CUT_SHIFT) as usize == c)
                .count();
    }
    // Tests only: a leaked copy, so that the group outlives the buffer.
    Group {
        masks: Vec::leak(sorted.clone()),
        starts,
    }
}

/// The oracle: every pair tested, one at a time.
#[cfg(test)]
pub(crate) fn disjoint_pairs_one_by_one(items: &[u64], patterns: &[u64]) -> u64 {
    let mut pairs = 0;
    for &item in items {
        pairs += patterns.iter().filter(|&&p| p & item == 0).count() as u64;
    }
    pairs
}
