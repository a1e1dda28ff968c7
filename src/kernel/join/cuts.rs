//! Which bits of the masks the sieve files a row set's half-boards by: its
//! *cut* bits, chosen for each row set from its own two lists.
//!
//! The sieve (`matcher.rs`) files both sides' masks by a few of their
//! bits, read as a number, the mask's *class*, and matches an item of class
//! `u` only against patterns of classes `v` with `u & v == 0`: every cut
//! bit skips the pairs that both have it. So the best cut bits are those
//! that many items and many patterns of *this* row set have: a bit that
//! half the items and half the patterns have skips a quarter of the pairs
//! left, one that few have skips almost none. Which diagonals those are
//! changes from one row set to the next (a crossing diagonal is used often
//! only where the row set puts queens near it): at N = 24 the bits with
//! the most open squares of the split, the same for every row set, left 1.3
//! to 19 times as many pairs to scan as the bits chosen per row set, for
//! the same number of cuts (BENCHMARKS.md, "The sieve's cut bits").
//!
//! [`chosen`] scores every bit by the share of sampled items that
//! have it times the share of sampled patterns that have it (the share of
//! pairs it would skip on its own), and takes the best. For even N the two
//! long diagonals are always the top two class bits: the pairs are weighed
//! by them (`matcher::weight`).
//!
//! A class is read from a mask by table: one lookup per byte that holds
//! a cut bit, the tables built per row set.

/// How many cut bits the sieve pairs classes by, at most. Fourteen
/// measured best at N = 24 (12 was within noise of it, 10 a third slower,
/// with `--sample`: BENCHMARKS.md), and the lists of N = 22 are too short
/// for more than ten anyway ([`Policy::cuts`]); the buffers that hold a
/// class each are sized by the classes a row set uses, so that small
/// boards pay nothing for the cap.
pub(crate) const CUTS: usize = 14;

/// How many cut bits a row set's sieve takes, and from how many they are
/// chosen for it rather than the split's: the constants a count runs with
/// ([`Policy::TUNED`]), which the tests lower to drive small boards through
/// every path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// One cut more each time the shorter list doubles from this many.
    pub(crate) items_per_cut: usize,
    /// From how many cut bits a row set's are [`chosen`] rather than the
    /// split's [`top`] ones.
    pub(crate) chosen_from: usize,
}

impl Policy {
    /// Each cut skips about a quarter of the pairs left, but splits the
    /// items and patterns into twice as many classes, each scanned on its
    /// own: with fewer than about 100 items to a class the scans' fixed
    /// costs outweigh what the cut saves (measured with `--sample` at
    /// N = 20 and 22 against 50, 200 and 400). Below seven cuts (shorter
    /// lists than about 6,400 half-boards, N = 19 and below) the row set
    /// costs too little for the sampling of [`chosen`] to pay: the
    /// split's top bits are kept.
    pub(crate) const TUNED: Policy = Policy {
        items_per_cut: 100,
        chosen_from: 7,
    };

    /// How many cut bits for a row set whose shorter list has `items`
    /// masks.
    pub(crate) fn cuts(self, items: usize) -> usize {
        ((items / self.items_per_cut.max(1)).max(1).ilog2() as usize).min(CUTS)
    }
}

// The split's top bits are what the small row sets cut by.
const _: () = assert!(Policy::TUNED.chosen_from <= super::split::RANKED + 1);

impl Default for Policy {
    fn default() -> Policy {
        Policy::TUNED
    }
}

/// The cut bits of one row set, and how to read a mask's class from them:
/// its cut bits, lowest first, packed into the low bits of a number (what
/// BMI2's `pext` does, and [`Cuts::class`] does by table). So for even N
/// the long diagonals, mask bits 62 and 63, are the top two class bits.
///
/// Kept from one row set to the next ([`Cuts::set`]): only the tables of
/// the bytes that hold cut bits are rewritten, and no other is read.
#[derive(Clone, Debug)]
pub(crate) struct Cuts {
    /// The cut bits, one bit each.
    mask: u64,
    /// How many cut bits: classes `0..2^len`.
    len: usize,
    /// The bytes of a mask that hold a cut bit, and for each, the class
    /// bits of each value of that byte.
    bytes: [u8; 8],
    used_bytes: usize,
    by_byte: [[u16; 256]; 8],
}

impl Default for Cuts {
    /// No cut bit: one class.
    fn default() -> Cuts {
        Cuts {
            mask: 0,
            len: 0,
            bytes: [0; 8],
            used_bytes: 0,
            by_byte: [[0; 256]; 8],
        }
    }
}

/// How many masks of each side [`chosen`] samples to score the bits:
/// enough to tell a bit that a quarter of the masks have from one that a
/// third have, few enough to cost little beside the row set's join.
const SAMPLED: usize = 512;

/// The top `len` bits of a mask (63 down), where the split puts the
/// crossing diagonals with the most open squares on both sides (and, for
/// even N, the two long diagonals at the very top).
pub(crate) fn top(len: usize) -> u64 {
    debug_assert!(len <= CUTS);
    if len == 0 { 0 } else { u64::MAX << (64 - len) }
}

/// `len` cut bits for the row set whose two lists are `west` and `east`:
/// the bits of `fixed` (the long diagonals that weigh the pairs, the top
/// bits), and the others the bits whose shares of sampled west and east
/// masks multiply to the most.
pub(crate) fn chosen(west: &[u64], east: &[u64], len: usize, fixed: u64) -> u64 {
    debug_assert!(len <= CUTS && fixed.count_ones() as usize <= len);
    let (west_has, east_has) = (sampled_bits(west), sampled_bits(east));
    // Each bit's score: the shares of the samples, multiplied, kept as the
    // product of the counts (each list's bits are counted over the same
    // sample, so the products rank the bits as the shares do).
    let mut scored = [(0u64, 0u8); 64];
    let mut candidates = 0;
    // The middle rows' tags are no diagonals: never a cut.
    let never = fixed | super::transpose::TAG_MASK;
    for bit in 0..64u8 {
        if never >> bit & 1 == 0 {
            let score =
                u64::from(west_has[usize::from(bit)]) * u64::from(east_has[usize::from(bit)]);
            scored[candidates] = (score, bit);
            candidates += 1;
        }
    }
    // Best first; ties by the higher bit, which the split ranked first.
    scored[..candidates].sort_unstable_by(|a, b| b.cmp(a));
    let free = len.saturating_sub(fixed.count_ones() as usize);
    scored[..free]
        .iter()
        .fold(fixed, |mask, &(_, bit)| mask | 1 << bit)
}

impl Cuts {
    /// The cut bits of `mask` (at most [`CUTS`] of them).
    pub(crate) fn set(&mut self, mask: u64) {
        debug_assert!(mask.count_ones() as usize <= CUTS);
        self.mask = mask;
        self.len = mask.count_ones() as usize;
        self.used_bytes = 0;
        // Class bit `j` is the `j`-th cut bit from the bottom: the cut
        // bits below a byte are its table's first class bit. Each value's
        // entry is that of the value less its lowest bit, plus the class
        // bit of that bit, if it is a cut.
        for byte in 0..8 {
            let within = (mask >> (8 * byte)) as u8;
            if within == 0 {
                continue;
            }
            let below = (mask & ((1u64 << (8 * byte)) - 1)).count_ones();
            let mut class_of_bit = [0u16; 8];
            let mut next = below;
            for (bit, class) in class_of_bit.iter_mut().enumerate() {
                if within >> bit & 1 != 0 {
                    *class = 1 << next;
                    next += 1;
                }
            }
            let table = &mut self.by_byte[self.used_bytes];
            table[0] = 0;
            for value in 1..256usize {
                table[value] =
                    table[value & (value - 1)] | class_of_bit[value.trailing_zeros() as usize];
            }
            self.bytes[self.used_bytes] = byte as u8;
            self.used_bytes += 1;
        }
    }

    /// How many cut bits: the classes are `0..2^len`.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The cut bits, as a mask (what `pext` gathers them by in
    /// `join-avx512`, which only builds with `simd_kernels` carry).
    #[cfg_attr(not(simd_kernels), allow(dead_code))]
    pub(crate) fn mask(&self) -> u64 {
        self.mask
    }

    /// The class of `mask`: its cut bits, lowest first, as the low bits
    /// of a number.
    #[inline(always)]
    pub(crate) fn class(&self, mask: u64) -> usize {
        let mut class = 0;
        for (slot, &byte) in self.bytes[..self.used_bytes].iter().enumerate() {
            class |= self.by_byte[slot][(mask >> (8 * byte) & 0xff) as usize];
        }
        usize::from(class)
    }
}

/// How many of up to [`SAMPLED`] masks of `masks`, spread evenly over it,
/// have each bit.
fn sampled_bits(masks: &[u64]) -> [u32; 64] {
    let step = masks.len().div_ceil(SAMPLED).max(1);
    let mut has = [0u32; 64];
    for &mask in masks.iter().step_by(step) {
        let mut rest = mask;
        while rest != 0 {
            has[rest.trailing_zeros() as usize] += 1;
            rest &= rest - 1;
        }
    }
    has
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(mask: u64) -> Cuts {
        let mut cuts = Cuts::default();
        cuts.set(mask);
        cuts
    }

    #[test]
    fn a_class_is_the_cut_bits_lowest_first() {
        let mut cuts = of(1 << 3 | 1 << 9 | 1 << 40 | 1 << 63);
        assert_eq!(cuts.len(), 4);
        assert_eq!(cuts.class(0), 0);
        assert_eq!(cuts.class(1 << 3), 0b0001);
        assert_eq!(cuts.class(1 << 40 | 1 << 63), 0b1100);
        assert_eq!(cuts.class(u64::MAX), 0b1111);
        assert_eq!(cuts.class(!(1 << 9)), 0b1101);
        // Every mask against the bit-by-bit definition, the tables reused.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mask = seed;
            let mut cut = seed.rotate_left(17) & seed.rotate_left(40) & seed.rotate_left(5);
            while cut.count_ones() as usize > CUTS {
                cut &= cut - 1;
            }
            cuts.set(cut);
            let mut expected = 0;
            for (j, bit) in (0..64).filter(|b| cut >> b & 1 != 0).enumerate() {
                expected |= ((mask >> bit & 1) as usize) << j;
            }
            assert_eq!(cuts.class(mask), expected, "{cut:#x} {mask:#x}");
        }
    }

    #[test]
    fn the_top_cuts_are_the_top_bits() {
        let cuts = of(top(3));
        assert_eq!(cuts.mask(), 0b111 << 61);
        assert_eq!(cuts.class(1 << 63), 0b100);
        assert_eq!(cuts.class(1 << 61 | 1 << 60), 0b001);
        assert_eq!(of(top(0)).class(u64::MAX), 0);
    }

    /// The chosen bits are those both sides have most; the long diagonals
    /// are the top two class bits with `diagonals`.
    #[test]
    fn the_bits_both_sides_have_most_are_chosen() {
        // Bits 5 and 7 in every west mask and most east ones, bit 20 in
        // every west mask and no east one, bit 30 in two fifths of each
        // (the lists are longer than the sample: every other mask of the
        // west's is read).
        let west: Vec<u64> = (0..1000u64)
            .map(|i| 1 << 5 | 1 << 7 | 1 << 20 | u64::from(i % 5 < 2) << 30 | (i & 2) << 40)
            .collect();
        let east: Vec<u64> = (0..900u64)
            .map(|i| 1 << 5 | u64::from(i % 3 != 0) << 7 | u64::from(i % 5 < 2) << 30 | 1 << 50)
            .collect();
        let mask = chosen(&west, &east, 4, 0);
        for bit in [5, 7, 30] {
            assert_ne!(mask >> bit & 1, 0, "bit {bit} of {mask:#x}");
        }
        assert_eq!(mask >> 20 & 1, 0);
        assert_eq!(mask >> 50 & 1, 0);
        let cuts = of(chosen(&west, &east, 5, 0b11 << 62));
        assert_eq!(cuts.class(1 << 63), 0b10000);
        assert_eq!(cuts.class(1 << 62), 0b01000);
        assert_eq!(
            cuts.mask() & (1 << 5 | 1 << 7 | 1 << 30),
            1 << 5 | 1 << 7 | 1 << 30
        );
    }
}
