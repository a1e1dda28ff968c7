//! The eight symmetries of the square (the dihedral group D4) acting on
//! [`Board`]s, and the canonical form used to name a fundamental solution.
//!
//! With a board as a permutation `p` (`p[row] = column`) and `m = N - 1`, each
//! symmetry moves the queen at `(row, col)` to a new square:
//!
//! | symmetry            | `(row, col)` goes to |
//! |---------------------|----------------------|
//! | identity            | `(row, col)`         |
//! | rotate 90° (clockwise) | `(col, m - row)`  |
//! | rotate 180°         | `(m - row, m - col)` |
//! | rotate 270°         | `(m - col, row)`     |
//! | mirror left-right   | `(row, m - col)`     |
//! | mirror top-bottom   | `(m - row, col)`     |
//! | transpose (main diagonal) | `(col, row)`   |
//! | anti-transpose      | `(m - col, m - row)` |

use crate::{Board, Error, MAX_N};

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves the board as it is.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn anticlockwise.
    Rotate270,
    /// Reflection in the vertical axis: column `c` becomes `N - 1 - c`.
    MirrorColumns,
    /// Reflection in the horizontal axis: row `r` becomes `N - 1 - r`.
    MirrorRows,
    /// Reflection in the main diagonal: `(row, col)` becomes `(col, row)`.
    Transpose,
    /// Reflection in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where this symmetry sends square `(row, col)` of an `n`x`n` board:
    /// any `n`, with `row` and `col` below it.
    ///
    /// # Errors
    ///
    /// [`Error::SquareOffBoard`] if `row >= n` or `col >= n`.
    #[inline]
    pub fn map_square(self, n: usize, row: usize, col: usize) -> Result<(usize, usize), Error> {
        if row >= n || col >= n {
            return Err(Error::SquareOffBoard {
                row,
                column: col,
                n,
            });
        }
        let m = n - 1;
        Ok(match self {
            Symmetry::Identity => (row, col),
            Symmetry::Rotate90 => (col, m - row),
            Symmetry::Rotate180 => (m - row, m - col),
            Symmetry::Rotate270 => (m - col, row),
            Symmetry::MirrorColumns => (row, m - col),
            Symmetry::MirrorRows => (m - row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (m - col, m - row),
        })
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of `board`. Images of a solution are solutions. Defined
    /// for every board: a [`Board`] is always a permutation, and so is its
    /// image.
    ///
    /// Each symmetry has its own loop (the table above, solved for the
    /// image's column vector), so no `match` runs per queen: canonical forms
    /// apply seven of these to every candidate board.
    pub fn apply(self, board: &Board) -> Board {
        let p = board.columns();
        let n = p.len();
        let Some(m) = n.checked_sub(1) else {
            return *board;
        };
        let mut q = [0u8; MAX_N];
        let image = &mut q[..n];
        let m8 = m as u8;
        match self {
            Symmetry::Identity => return *board,
            Symmetry::Rotate90 => {
                for (row, &col) in p.iter().enumerate() {
                    image[usize::from(col)] = m8 - row as u8;
                }
            }
            Symmetry::Rotate180 => {
                for (row, &col) in p.iter().enumerate() {
                    image[m - row] = m8 - col;
                }
            }
            Symmetry::Rotate270 => {
                for (row, &col) in p.iter().enumerate() {
                    image[m - usize::from(col)] = row as u8;
                }
            }
            Symmetry::MirrorColumns => {
                for (row, &col) in p.iter().enumerate() {
                    image[row] = m8 - col;
                }
            }
            Symmetry::MirrorRows => {
                for (row, &col) in p.iter().enumerate() {
                    image[m - row] = col;
                }
            }
            Symmetry::Transpose => {
                for (row, &col) in p.iter().enumerate() {
                    image[usize::from(col)] = row as u8;
                }
            }
            Symmetry::AntiTranspose => {
                for (row, &col) in p.iter().enumerate() {
                    image[m - usize::from(col)] = m8 - row as u8;
                }
            }
        }
        // A symmetry of the square maps a permutation matrix to a
        // permutation matrix.
        Board::from_permutation(image)
    }
}

/// The canonical form of `board`: the lexicographically smallest column
/// vector among its eight images. Two boards are equivalent under the
/// symmetries of the square exactly when their canonical forms are equal.
/// Defined for every board, as are the functions below.
pub fn canonical(board: &Board) -> Board {
    Symmetry::ALL
        .iter()
        .map(|s| s.apply(board))
        .min()
        .unwrap_or(*board)
}

/// Whether `board` is its own canonical form, i.e. no image of it is
/// lexicographically smaller. Cheaper than comparing with [`canonical`]: it
/// rejects on the first row for most boards.
pub fn is_canonical(board: &Board) -> bool {
    let n = board.n();
    // The left-right mirror starts with column n-1-p[0]: the canonical form
    // has its first queen in the left half.
    if n > 0 && usize::from(board.columns()[0]) * 2 > n - 1 {
        return false;
    }
    Symmetry::ALL[1..].iter().all(|s| s.apply(board) >= *board)
}

/// The orbit of `board`: its distinct images, in increasing order, so the
/// first is its canonical form.
pub fn orbit(board: &Board) -> impl Iterator<Item = Board> {
    let mut images = Symmetry::ALL.map(|s| s.apply(board));
    images.sort_unstable();
    let mut previous = None;
    images
        .into_iter()
        .filter(move |&image| previous.replace(image) != Some(image))
}

/// How many distinct boards the orbit of `board` holds: 1, 2, 4 or 8.
pub fn orbit_size(board: &Board) -> usize {
    orbit(board).count()
}

/// The size of `board`'s orbit if `board` is its own canonical form, else
/// `None`. One pass over the seven other images: any smaller one rejects
/// the board, and the images equal to it (its stabilizer) give the orbit
/// size, 8 divided by their number.
///
/// The images are never built: image row `r` of each symmetry is one
/// lookup, `p[r]`, `p[m - r]`, `p⁻¹[r]` or `p⁻¹[m - r]`, maybe reflected
/// (`m - x`), and the comparison stops at the first row that differs,
/// usually row 0. The symmetric kernel runs this at every leaf of its tie
/// subproblems.
pub fn canonical_orbit_size(board: &Board) -> Option<usize> {
    let p = board.columns();
    let n = p.len();
    let Some(m) = n.checked_sub(1) else {
        return Some(1);
    };
    let mut inverse = [0u8; MAX_N];
    for (row, &col) in p.iter().enumerate() {
        inverse[usize::from(col)] = row as u8;
    }
    let inverse = &inverse[..n];
    let m8 = m as u8;
    let mut stabilizer = 1;
    // (image of the inverse, rows read from the bottom, columns reflected):
    // the seven symmetries other than the identity, in the table above's
    // terms Transpose, MirrorRows, Rotate270, MirrorColumns, Rotate90,
    // Rotate180, AntiTranspose.
    for symmetry in 1..8u8 {
        let (of_inverse, from_bottom, reflected) =
            (symmetry & 1 != 0, symmetry & 2 != 0, symmetry & 4 != 0);
        let source = if of_inverse { inverse } else { p };
        let mut order = core::cmp::Ordering::Equal;
        for (row, &col) in p.iter().enumerate() {
            let image = source[if from_bottom { m - row } else { row }];
            let image = if reflected { m8 - image } else { image };
            if image != col {
                order = image.cmp(&col);
                break;
            }
        }
        match order {
            core::cmp::Ordering::Less => return None,
            core::cmp::Ordering::Equal => stabilizer += 1,
            core::cmp::Ordering::Greater => {}
        }
    }
    Some(8 / stabilizer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate90_of_a_4x4_solution() {
        // . @ . .    a quarter turn maps this board onto itself;
        // . . . @    its mirror image is the only other solution.
        // @ . . .
        // . . @ .
        let board = Board::from_columns(&[1, 3, 0, 2]).unwrap();
        assert_eq!(Symmetry::Rotate90.apply(&board), board);
        assert_eq!(
            Symmetry::MirrorColumns.apply(&board).columns(),
            &[2, 0, 3, 1]
        );
        assert_eq!(orbit_size(&board), 2);
        assert_eq!(canonical(&board).columns(), &[1, 3, 0, 2]);
    }
}
