//! [`Board`]: one queen per row and per column, stored as the queen's column
//! in each row, with the seed-000 bitboard conversions and its drawing.

use core::fmt;

use crate::{BoardDefect, Error, MAX_N};

/// A placement of N queens with exactly one queen in every row and every
/// column: a permutation of `0..N`, row 0 first.
///
/// Every solution is such a placement; [`Board::is_solution`] tells whether
/// the diagonals are free as well. The invariant (a permutation) is what makes
/// the eight symmetries of the square ([`crate::symmetry`]) well defined.
///
/// Ordering is by size, then lexicographic on the column vector.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    n: u8,
    /// `columns[row]` for `row < n`; zero beyond, so derived traits agree
    /// with the column slice.
    columns: [u8; MAX_N],
}

impl Board {
    /// The empty 0x0 board: the one solution for N = 0.
    pub const EMPTY: Board = Board {
        n: 0,
        columns: [0; MAX_N],
    };

    /// Builds a board from the queen's column in each row.
    ///
    /// Fails unless `columns` is a permutation of `0..columns.len()` with at
    /// most [`MAX_N`] entries.
    pub fn from_columns(columns: &[u8]) -> Result<Board, Error> {
        let n = columns.len();
        if n > MAX_N {
            return Err(Error::InvalidBoard(BoardDefect::TooManyRows { rows: n }));
        }
        let mut seen = 0u64;
        for (row, &col) in columns.iter().enumerate() {
            if usize::from(col) >= n {
                return Err(Error::InvalidBoard(BoardDefect::ColumnOffBoard {
                    row,
                    column: usize::from(col),
                    n,
                }));
            }
            if seen & (1 << col) != 0 {
                return Err(Error::InvalidBoard(BoardDefect::ColumnTwice {
                    column: usize::from(col),
                }));
            }
            seen |= 1 << col;
        }
        let mut board = Board::EMPTY;
        board.n = n as u8;
        board.columns[..n].copy_from_slice(columns);
        Ok(board)
    }

    /// Builds a board from a slice the caller guarantees is a permutation of
    /// `0..len` with `len <= MAX_N` (the kernels' leaves: they place one
    /// queen per row in a free column).
    #[inline]
    pub(crate) fn from_permutation(columns: &[u8]) -> Board {
        debug_assert!(Board::from_columns(columns).is_ok());
        let mut board = Board::EMPTY;
        board.n = columns.len() as u8;
        board.columns[..columns.len()].copy_from_slice(columns);
        board
    }

    /// Board side N.
    #[inline]
    pub fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// The queen's column in each row, row 0 first.
    #[inline]
    pub fn columns(&self) -> &[u8] {
        &self.columns[..self.n()]
    }

    /// Whether no two queens share a diagonal (rows and columns are distinct
    /// by construction).
    pub fn is_solution(&self) -> bool {
        let cols = self.columns();
        (0..cols.len()).all(|r1| {
            (r1 + 1..cols.len()).all(|r2| {
                let dc = i32::from(cols[r1]) - i32::from(cols[r2]);
                dc.unsigned_abs() as usize != r2 - r1
            })
        })
    }

    /// The seed-000 bitboard: bit `row * 8 + col`, least significant bit =
    /// row 0 column 0. Boards up to 8x8 only.
    pub fn to_bitboard(&self) -> Result<u64, Error> {
        if self.n() > 8 {
            return Err(Error::BitboardTooSmall { n: self.n() });
        }
        Ok(self
            .columns()
            .iter()
            .enumerate()
            .fold(0u64, |t, (row, &col)| t | 1 << (row * 8 + usize::from(col))))
    }

    /// Reads an `n`x`n` board back from a seed-000 bitboard.
    ///
    /// Fails if `n > 8`, if a row below `n` has no queen or several, if a bit
    /// lies outside the `n`x`n` corner, or if two queens share a column.
    pub fn from_bitboard(n: usize, bits: u64) -> Result<Board, Error> {
        if n > 8 {
            return Err(Error::BitboardTooSmall { n });
        }
        let mut columns = [0u8; 8];
        for (row, column) in columns.iter_mut().enumerate() {
            let line = (bits >> (row * 8)) & 0xff;
            if row >= n {
                if line != 0 {
                    return Err(Error::InvalidBoard(BoardDefect::RowOffBoard { row, n }));
                }
                continue;
            }
            if line.count_ones() != 1 {
                return Err(Error::InvalidBoard(BoardDefect::QueensInRow {
                    row,
                    queens: line.count_ones() as usize,
                }));
            }
            *column = line.trailing_zeros() as u8;
        }
        Board::from_columns(&columns[..n])
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board{:?}", self.columns())
    }
}

/// Draws the board as seed 000 does: `@` for a queen, `.` for an empty
/// square, squares separated by one space, one row per line (each line ends
/// with `\n`).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = [0u8; 2 * MAX_N];
        for &col in self.columns() {
            for (square, cell) in line.chunks_exact_mut(2).take(self.n()).enumerate() {
                cell[0] = if square == usize::from(col) {
                    b'@'
                } else {
                    b'.'
                };
                cell[1] = b' ';
            }
            line[2 * self.n() - 1] = b'\n';
            // Only b'@', b'.', b' ' and b'\n' were written: valid UTF-8.
            f.write_str(core::str::from_utf8(&line[..2 * self.n()]).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_defect_is_named_with_its_place() {
        let defect = |result: Result<Board, Error>| match result {
            Err(Error::InvalidBoard(defect)) => defect,
            other => panic!("not a board defect: {other:?}"),
        };
        assert_eq!(
            defect(Board::from_columns(&[0; MAX_N + 1])),
            BoardDefect::TooManyRows { rows: MAX_N + 1 }
        );
        assert_eq!(
            defect(Board::from_columns(&[0, 3, 1])),
            BoardDefect::ColumnOffBoard {
                row: 1,
                column: 3,
                n: 3
            }
        );
        assert_eq!(
            defect(Board::from_columns(&[1, 0, 1])),
            BoardDefect::ColumnTwice { column: 1 }
        );
        // A queen in row 2 of a 2x2 board.
        assert_eq!(
            defect(Board::from_bitboard(2, 0b01 | 0b10 << 8 | 1 << 16)),
            BoardDefect::RowOffBoard { row: 2, n: 2 }
        );
        assert_eq!(
            defect(Board::from_bitboard(2, 0b11)),
            BoardDefect::QueensInRow { row: 0, queens: 2 }
        );
        let text = Error::InvalidBoard(BoardDefect::ColumnTwice { column: 1 }).to_string();
        assert_eq!(text, "invalid board: column 1 holds more than one queen");
    }

    #[test]
    fn seed_000_example_round_trips() {
        let board = Board::from_bitboard(8, 577094088726155265).unwrap();
        assert_eq!(board.columns(), &[0, 4, 7, 5, 2, 6, 1, 3]);
        assert_eq!(board.to_bitboard().unwrap(), 577094088726155265);
        assert!(board.is_solution());
    }

    #[test]
    fn seed_000_drawing() {
        let board = Board::from_columns(&[0, 4, 7, 5, 2, 6, 1, 3]).unwrap();
        let expected = "\
@ . . . . . . .
. . . . @ . . .
. . . . . . . @
. . . . . @ . .
. . @ . . . . .
. . . . . . @ .
. @ . . . . . .
. . . @ . . . .
";
        assert_eq!(board.to_string(), expected);
        assert_eq!(Board::EMPTY.to_string(), "");
    }

    #[test]
    fn rejects_non_permutations() {
        assert!(Board::from_columns(&[0, 0]).is_err());
        assert!(Board::from_columns(&[0, 2]).is_err());
        assert!(Board::from_columns(&[0; 33]).is_err());
        assert!(Board::from_bitboard(9, 0).is_err());
        assert!(Board::from_bitboard(2, 0b01_00000001).is_err()); // same column
        assert!(Board::from_bitboard(2, 0b11).is_err()); // two queens in row 0
        assert!(Board::from_bitboard(1, 0x101).is_err()); // queen in row 1 of a 1x1
    }

    #[test]
    fn is_solution_sees_diagonals() {
        assert!(!Board::from_columns(&[0, 1]).unwrap().is_solution());
        assert!(!Board::from_columns(&[1, 0]).unwrap().is_solution());
        assert!(Board::from_columns(&[1, 3, 0, 2]).unwrap().is_solution());
    }
}
