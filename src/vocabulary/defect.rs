//! [`BoardDefect`]: why a column list, bitboard or mask record is not a
//! board, the payload of [`crate::Error::InvalidBoard`].

use core::fmt;

use crate::MAX_N;

/// What makes a column list, bitboard or mask record not a board
/// ([`crate::Error::InvalidBoard`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardDefect {
    /// More rows than [`MAX_N`].
    TooManyRows {
        /// Rows given.
        rows: usize,
    },
    /// A queen in a column past the board's side.
    ColumnOffBoard {
        /// Its row.
        row: usize,
        /// Its column.
        column: usize,
        /// The board's side N.
        n: usize,
    },
    /// Two queens in one column.
    ColumnTwice {
        /// The column.
        column: usize,
    },
    /// A queen in a row past the board's side.
    RowOffBoard {
        /// The row.
        row: usize,
        /// The board's side N.
        n: usize,
    },
    /// A row of the board without exactly one queen.
    QueensInRow {
        /// The row.
        row: usize,
        /// How many queens it holds.
        queens: usize,
    },
    /// A queen placed in a row that already has one.
    RowTaken {
        /// The row.
        row: usize,
    },
}

impl fmt::Display for BoardDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardDefect::TooManyRows { rows } => {
                write!(f, "{rows} rows, at most {MAX_N} are supported")
            }
            BoardDefect::ColumnOffBoard { row, column, n } => {
                write!(
                    f,
                    "row {row} has its queen in column {column}, outside 0..{n}"
                )
            }
            BoardDefect::ColumnTwice { column } => {
                write!(f, "column {column} holds more than one queen")
            }
            BoardDefect::RowOffBoard { row, n } => {
                write!(f, "a queen in row {row}, outside the {n}x{n} board")
            }
            BoardDefect::QueensInRow { row, queens } => {
                write!(f, "row {row} has {queens} queens, expected 1")
            }
            BoardDefect::RowTaken { row } => write!(f, "row {row} already has a queen"),
        }
    }
}
