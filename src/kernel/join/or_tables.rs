//! The matcher's scan by tables of ORs ("four Russians"), for the kernels
//! whose CPU packs bits in one instruction (BMI2's `pext`,
//! [`PatternWords::COMPRESSES`]).
//!
//! An item is matched against a run by ORing the rows of its bits, one
//! load per bit and vector (`matcher::scan`). Here the run's rows, in the
//! order of their bits, are taken four at a time, and for each four the
//! 16 ORs of their subsets are written once into a table, for a group of
//! up to [`VECTORS`] vectors: the item's bits of the run, packed by
//! `pext`, then say in each nibble which entry of each table to read. An
//! item with `b` bits among a run of `r` rows reads `r / 4` entries instead
//! of `b` rows (at N = 22 to 26 about 5 against 9 to 10), in a loop as long
//! for every item, and no bit is counted out one by one. The tables cost
//! 15 ORs per four rows and vector, shared by every item of the class.

use super::grow::AlignedWords;
use super::words::PatternWords;
use crate::Error;

/// Vectors of the run a table covers: 4 vectors of 16 entries each for
/// every four rows, 20 KiB for 20 rows with 512-bit vectors, to stay in
/// the first-level cache beside the run.
pub(crate) const VECTORS: usize = 4;

/// The conflicts of every item of `items` with the `vectors` vectors of
/// the run at `base` (bit `b`'s row at `offset[b]` words from it, and a row
/// of zeros at `offset[64]`), its rows those of the bits of `reach`, read
/// through tables built in `tables`.
///
/// # Errors
///
/// [`Error::OutOfMemory`] if the room for the tables is refused.
///
/// # Safety
///
/// The CPU runs `W`'s instructions; for every bit `b` of `reach`, and for
/// `b = 64`, `base + offset[b]` is followed by `vectors * W::WORDS`
/// readable words, and `offset[64]`'s are zeros.
#[inline(always)]
pub(crate) unsafe fn scan<W: PatternWords>(
    base: *const u64,
    vectors: usize,
    items: &[u64],
    reach: u64,
    offset: &[u32; 65],
    tables: &mut AlignedWords,
) -> Result<u64, Error> {
    // Each row's offset in the order of its bit, then the row of zeros up
    // to a whole four.
    let fours = (reach.count_ones() as usize).div_ceil(4);
    let mut rows = [offset[64]; 64];
    let (mut rest, mut at) = (reach, 0);
    while rest != 0 {
        rows[at] = offset[rest.trailing_zeros() as usize];
        rest &= rest - 1;
        at += 1;
    }
    tables.resize(fours * 16 * VECTORS * W::WORDS)?;
    let tables = tables.words_mut().as_mut_ptr();
    // SAFETY: the CPU runs `W`'s instructions (this function's contract);
    // the groups cover vectors `first..vectors` and no more, and the
    // tables hold `fours` tables of 16 entries of `VECTORS` vectors.
    unsafe {
        let mut sum = W::zero();
        let mut first = 0;
        while first < vectors {
            let here = base.add(first * W::WORDS);
            sum = match vectors - first {
                1 => scan_group::<W, 1>(here, &rows, fours, items, reach, tables, sum),
                2 => scan_group::<W, 2>(here, &rows, fours, items, reach, tables, sum),
                3 => scan_group::<W, 3>(here, &rows, fours, items, reach, tables, sum),
                _ => scan_group::<W, VECTORS>(here, &rows, fours, items, reach, tables, sum),
            };
            first += VECTORS;
        }
        Ok(W::total(sum))
    }
}

/// `sum` plus the conflicts of every item with the `G` vectors at `base`:
/// the tables of the group, then each item's entries.
///
/// # Safety
///
/// As for [`scan`], for these vectors; `rows` holds `4 * fours` offsets,
/// and `tables` has room for `fours` tables of 16 entries of `G` vectors.
#[inline(always)]
unsafe fn scan_group<W: PatternWords, const G: usize>(
    base: *const u64,
    rows: &[u32; 64],
    fours: usize,
    items: &[u64],
    reach: u64,
    tables: *mut u64,
    mut sum: W,
) -> W {
    let entry = 16 * G * W::WORDS;
    // SAFETY: the caller's, and the CPU runs `W`'s instructions.
    unsafe {
        build::<W, G>(base, rows, fours, tables);
        for &item in items {
            let mut nibbles = W::compress(item, reach);
            let mut hits = [W::zero(); G];
            let mut table = tables.cast_const();
            // Two tables a step, then the last if there is one.
            for _ in 0..fours / 2 {
                let one = table.add((nibbles as usize & 15) * G * W::WORDS);
                let two = table.add(entry + (nibbles as usize >> 4 & 15) * G * W::WORDS);
                for (g, hit) in hits.iter_mut().enumerate() {
                    *hit = hit.or_load_two(one.add(g * W::WORDS), two.add(g * W::WORDS));
                }
                nibbles >>= 8;
                table = table.add(2 * entry);
            }
            if fours % 2 == 1 {
                let one = table.add((nibbles as usize & 15) * G * W::WORDS);
                for (g, hit) in hits.iter_mut().enumerate() {
                    *hit = hit.or_load(one.add(g * W::WORDS));
                }
            }
            sum = W::add_counts(sum, hits);
        }
        sum
    }
}

/// Writes the `fours` tables of the `G` vectors at `base`: entry `e` of
/// table `t` the OR of the rows `4t + i` for each bit `i` of `e`, each
/// entry made from the one without its lowest bit.
///
/// # Safety
///
/// As for [`scan_group`].
#[inline(always)]
unsafe fn build<W: PatternWords, const G: usize>(
    base: *const u64,
    rows: &[u32; 64],
    fours: usize,
    tables: *mut u64,
) {
    let vector = W::WORDS;
    // SAFETY: the caller's, and the CPU runs `W`'s instructions.
    unsafe {
        for four in 0..fours {
            let table = tables.add(four * 16 * G * vector);
            for g in 0..G {
                W::zero().store(table.add(g * vector));
            }
            for e in 1..16usize {
                let row = base.add(rows[4 * four + e.trailing_zeros() as usize] as usize);
                let without = table.add((e & (e - 1)) * G * vector);
                let entry = table.add(e * G * vector);
                for g in 0..G {
                    W::zero()
                        .or_load_two(without.add(g * vector), row.add(g * vector))
                        .store(entry.add(g * vector));
                }
            }
        }
    }
}
