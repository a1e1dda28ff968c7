//! The band's rule of the join at even N with a band of two
//! (`kernel::join::transpose::MiddleRows`): the weight it gives each
//! solution, worked out by the join's own types from the two queens the
//! band places first, and which row of docs/join.md's table the solution
//! falls in.

use alloc::vec::Vec;

use crate::kernel::join::band::Band;
use crate::kernel::join::transpose::{MiddleRows, TagWeights, weigh_long_diagonals};
use crate::{Error, Kernel, MAX_N};

/// Where a solution's band and middle rows stand: the rows of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    /// The band's queens on one side of the centre row and the middle
    /// rows' on one side of the centre column: weighed by their distances
    /// from the centre, through the tags.
    Both,
    /// Only the band's queens on one side: weight 0.
    Band,
    /// Only the middle rows' queens on one side: weight 2.
    Middle,
    /// Neither: weight 1.
    Neither,
}

/// A solution as the band's rule weighs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighed {
    /// Each row's queen's column, row 0 first.
    pub columns: Vec<usize>,
    /// Where its band's and its middle rows' queens stand.
    pub sides: Sides,
    /// Its weight, 0, 1 or 2: the pairs of half-boards it is count it
    /// this many times.
    pub weight: u8,
}

/// Every solution of the `n`x`n` board that the long diagonals leave to
/// the band's rule (not queens on both), in order of their columns, each
/// weighed as the join weighs it with a band of two, the queens of columns
/// `n/2 - 1` and `n/2` placed first. Nothing for odd `n`, which has no
/// such rule.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` outside 4 to 14, the boards whose
/// solutions are listed at once.
pub fn band_rule(n: usize) -> Result<Vec<Weighed>, Error> {
    super::check_size(Kernel::Join, n, 4, 14)?;
    if n % 2 == 1 {
        return Ok(Vec::new());
    }
    let mut solutions: Vec<Vec<usize>> = crate::solutions(n)?
        .iter()
        .map(|board| board.columns().iter().map(|&c| usize::from(c)).collect())
        .collect();
    solutions.sort_unstable();
    Ok(solutions
        .into_iter()
        .filter_map(|columns| weigh(n, columns))
        .collect())
}

/// `columns`' weight by the band's rule, or `None` if the long diagonals
/// weigh it (a queen on each).
fn weigh(n: usize, columns: Vec<usize>) -> Option<Weighed> {
    let main = (0..n).any(|row| columns[row] == row);
    let anti = (0..n).any(|row| columns[row] + row == n - 1);
    if main && anti {
        return None;
    }
    let row_in = |column: usize| (0..n).find(|&row| columns[row] == column);
    let band = Band::of(&[row_in(n / 2 - 1)? as u8, row_in(n / 2)? as u8]);
    let (diagonals, _, _) = weigh_long_diagonals(n, &band, &mut [0; MAX_N]);
    let rule = MiddleRows::of(n, &band, diagonals)?;
    // Which half holds each middle row's queen, and the tag fields the
    // join marks on those squares (only where the band's queens stand on
    // one side), as `halves.rs` ORs them into each half-board.
    let (mut west, mut east, mut fields) = (0u8, 0u8, [0u64; 2]);
    for (i, row) in rule.rows().into_iter().enumerate() {
        let column = columns[row];
        let half = if column < n / 2 - 1 {
            west |= 1 << i;
            0
        } else if column > n / 2 {
            east |= 1 << i;
            1
        } else {
            continue;
        };
        if rule.band_one_side() {
            let tag = rule.tag((2 * column).abs_diff(n - 1) as u32);
            fields[half] |= u64::from(tag) << (3 * i);
        }
    }
    let tags = TagWeights::of(&rule, west, east);
    let [w, e] = [0, 1].map(|side| usize::from(tags.index[side][fields[side] as usize]));
    let sides = match (rule.band_one_side(), rule.middle_one_side(west, east)) {
        (true, true) => Sides::Both,
        (true, false) => Sides::Band,
        (false, true) => Sides::Middle,
        (false, false) => Sides::Neither,
    };
    Some(Weighed {
        columns,
        sides,
        weight: tags.weight[w][e],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board turned about its main diagonal: row `r`'s queen in
    /// column `c` becomes column `c`'s in row `r`.
    fn transposed(columns: &[usize]) -> Vec<usize> {
        let mut out = alloc::vec![0; columns.len()];
        for (row, &column) in columns.iter().enumerate() {
            out[column] = row;
        }
        out
    }

    /// The rule's weights add up: each solution's and its transpose's make
    /// 2, so every class of the eight symmetries counts right; the flip
    /// and the mirror keep a weight, so the bands and row sets still fold;
    /// and every weight and every row of the table is reached.
    #[test]
    fn a_solution_and_its_transpose_weigh_two() {
        let mut seen = Vec::new();
        for n in (6..=14).step_by(2) {
            let weighed = band_rule(n).unwrap();
            let weight_of = |columns: &[usize]| {
                weighed
                    .binary_search_by(|w| w.columns.as_slice().cmp(columns))
                    .map(|at| weighed[at].weight)
                    .expect("the long diagonals weigh an image as the solution")
            };
            for solution in &weighed {
                let columns = &solution.columns;
                let transpose = weight_of(&transposed(columns));
                assert_eq!(solution.weight + transpose, 2, "n = {n}: {columns:?}");
                let flipped: Vec<usize> = columns.iter().rev().copied().collect();
                let mirrored: Vec<usize> = columns.iter().map(|&c| n - 1 - c).collect();
                assert_eq!(weight_of(&flipped), solution.weight, "{columns:?}");
                assert_eq!(weight_of(&mirrored), solution.weight, "{columns:?}");
                seen.push((solution.sides, solution.weight));
            }
        }
        for case in [
            (Sides::Both, 0),
            (Sides::Both, 1),
            (Sides::Both, 2),
            (Sides::Band, 0),
            (Sides::Middle, 2),
            (Sides::Neither, 1),
        ] {
            assert!(seen.contains(&case), "{case:?} never seen");
        }
    }

    #[test]
    fn odd_boards_have_no_band_rule_and_large_ones_are_refused() {
        assert_eq!(band_rule(9).unwrap(), Vec::new());
        assert!(band_rule(16).is_err());
    }
}
