//! How much memory a join count takes, known before it starts.
//!
//! Nearly all of it is the quarter-boards of one split (`quarters.rs`),
//! which every thread shares: 12 bytes each (inner and crossing bits),
//! and an index of 4 bytes per (rows, columns) of each quarter. They grow
//! about nine times per two N (7.5 million quarter-boards a quarter at
//! N = 20, 67 million at N = 22, 633 million at N = 24). Each thread adds
//! the half-boards of one row set and their slices, a small share of that.
//!
//! [`estimate`] counts the quarter-boards of an unrestricted quarter the
//! size of the board's (an upper bound for odd N, whose middle queen takes
//! some squares) by a search that keeps nothing, where that takes under a
//! second (quarters up to 11 x 11, N up to 23); past that it extrapolates
//! from the 11 x 11 count at the measured rate of growth, which itself
//! grows with the size (the ratio of successive counts rises by about 0.6
//! per size from 6.4 at size 6 to 9.5 at size 12).

/// Bytes per quarter-board: its inner (`u32`) and crossing (`u64`) bits.
const BYTES_PER_QUARTER_BOARD: u64 = 12;

/// Largest quarter side counted exactly.
const COUNTED_UP_TO: usize = 11;

/// What a join count of an `n`x`n` board on `threads` threads takes, in
/// bytes: the quarter-boards of its largest split, their index, and each
/// thread's buffers (at most an eighth of the quarter-boards' bytes, from
/// the half-boards of one row set, measured at N = 16 to 21, plus 4 MiB).
pub(crate) fn estimate(n: usize, threads: usize) -> u64 {
    // The line splits the free rows (all but a middle queen's) in two.
    let free = n - n % 2;
    let (height, width) = (free.div_ceil(2), n / 2);
    let boards = quarter_boards(height, width);
    let index = 4 * (1u64 << (height + width).min(62));
    let quarters = 4u64
        .saturating_mul(boards)
        .saturating_mul(BYTES_PER_QUARTER_BOARD)
        .saturating_add(4u64.saturating_mul(2 * index));
    let per_thread = quarters / 8 + (4 << 20);
    quarters.saturating_add((threads.max(1) as u64).saturating_mul(per_thread))
}

/// The placements of non-attacking queens, any number, at most one per
/// row and column, on a `height` x `width` board: counted up to 11 x 11,
/// extrapolated past.
pub(crate) fn quarter_boards(height: usize, width: usize) -> u64 {
    let (h, w) = (height.min(COUNTED_UP_TO), width.min(COUNTED_UP_TO));
    let mut boards = count(h, w, 0, 0, 0, 0);
    // Each size past the counted one multiplies the count by the ratio
    // of the last two counted sizes, grown by 0.6 a size.
    let past = height.max(width).saturating_sub(COUNTED_UP_TO);
    if past > 0 {
        let smaller = count(h - 1, w - 1, 0, 0, 0, 0).max(1);
        let mut ratio = boards as f64 / smaller as f64;
        for _ in 0..past {
            ratio += 0.6;
            boards = (boards as f64 * ratio).min(u64::MAX as f64 / 2.0) as u64;
        }
    }
    boards
}

/// The placements on rows `row..height` given the columns taken and the
/// diagonals that attack this row's columns.
fn count(height: usize, width: usize, row: usize, columns: u32, falling: u32, rising: u32) -> u64 {
    if row == height {
        return 1;
    }
    let full = (1u32 << width) - 1;
    let (falling_next, rising_next) = (falling << 1, rising >> 1);
    let mut total = count(height, width, row + 1, columns, falling_next, rising_next);
    let mut free = full & !(columns | falling | rising);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        total += count(
            height,
            width,
            row + 1,
            columns | bit,
            (falling | bit) << 1,
            (rising | bit) >> 1,
        );
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::join::quarters::Quarters;
    use crate::kernel::join::split::Split;

    /// The count agrees with the quarters the join builds: equal for even
    /// N, an upper bound for odd N.
    #[test]
    fn the_quarter_count_bounds_the_quarters_built() {
        for n in 4..=12usize {
            let free = n - n % 2;
            let bound = 4 * quarter_boards(free.div_ceil(2), n / 2);
            for split in Split::all(n) {
                let q = Quarters::new(&split);
                let built = (q.north_west.len()
                    + q.south_west.len()
                    + q.north_east.len()
                    + q.south_east.len()) as u64;
                if n % 2 == 0 {
                    assert_eq!(built, bound, "n = {n}");
                } else {
                    assert!(built <= bound, "n = {n}: {built} > {bound}");
                }
            }
        }
    }

    #[test]
    fn the_estimate_grows_with_n_and_threads() {
        let mut last = 0;
        for n in 4..=32 {
            let one = estimate(n, 1);
            assert!(one >= last, "n = {n}");
            assert!(estimate(n, 2) > one);
            last = one;
        }
        // N = 24 takes more than 16 GiB; N = 21 less.
        assert!(estimate(24, 1) > 16 << 30);
        assert!(estimate(21, 2) < 16 << 30);
    }
}
