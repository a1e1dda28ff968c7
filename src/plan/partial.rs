//! [`PartialBoard`]: any queens pre-placed, and the number of ways to
//! complete them.

use core::fmt;

use crate::BoardDefect;
use crate::kernel::pieces::Piece;
use crate::{Error, Kernel};

/// An N x N board with some queens placed anywhere (at most one per row):
/// [`crate::dispatch::count_partial_board`] gives the number of solutions
/// that contain them all.
///
/// ```
/// use queens_simd::Kernel;
/// use queens_simd::dispatch::count_partial_board;
/// use queens_simd::plan::PartialBoard;
///
/// // Of the 92 solutions for N = 8, 4 have a queen in the corner (0, 0)
/// // and 8 have one in (0, 1).
/// let corner = PartialBoard::new(8)?.with_queen(0, 0)?;
/// assert_eq!(count_partial_board(Kernel::Auto, &corner)?, 4);
/// let next = PartialBoard::new(8)?.with_queen(0, 1)?;
/// assert_eq!(count_partial_board(Kernel::Auto, &next)?, 8);
/// // Queens on the border, anywhere:
/// let border = PartialBoard::new(8)?.with_queen(7, 3)?.with_queen(2, 0)?;
/// assert_eq!(count_partial_board(Kernel::Auto, &border)?, 4);
/// # Ok::<(), queens_simd::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialBoard {
    n: usize,
    /// `(row, column)`, sorted by row, at most one per row.
    queens: Vec<(usize, usize)>,
}

impl PartialBoard {
    /// An empty `n`x`n` board, `n` from 0 to 32.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is over 32.
    pub fn new(n: usize) -> Result<PartialBoard, Error> {
        Kernel::Symmetric.check_size(n)?;
        Ok(PartialBoard {
            n,
            queens: Vec::new(),
        })
    }

    /// This board with a queen at (`row`, `column`), both below N. Queens
    /// that attack each other are allowed, and leave no solution.
    ///
    /// # Errors
    ///
    /// [`Error::SquareOffBoard`] if the square is off the board, and
    /// [`Error::InvalidBoard`] if its row already has a queen.
    pub fn with_queen(mut self, row: usize, column: usize) -> Result<PartialBoard, Error> {
        let n = self.n;
        if row >= n || column >= n {
            return Err(Error::SquareOffBoard { row, column, n });
        }
        match self.queens.binary_search_by_key(&row, |&(r, _)| r) {
            Ok(_) => Err(Error::InvalidBoard(BoardDefect::RowTaken { row })),
            Err(at) => {
                self.queens.insert(at, (row, column));
                Ok(self)
            }
        }
    }

    /// Board side N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The queens placed, `(row, column)`, by row.
    pub fn queens(&self) -> &[(usize, usize)] {
        &self.queens
    }

    /// The one piece that counts the solutions holding every queen placed
    /// (a symmetric plan's kind: [`crate::dispatch::count_partial_board`] hands it to the
    /// walkers), or `None` if two of them attack each other.
    pub(crate) fn piece(&self) -> Option<Piece> {
        crate::kernel::pieces::partial(self.n, &self.queens)
    }
}

impl fmt::Display for PartialBoard {
    /// The board drawn as in the solutions' output: `@` for a queen, `.`
    /// for an empty square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.n {
            let queen = self
                .queens
                .iter()
                .find(|&&(r, _)| r == row)
                .map(|&(_, c)| c);
            for column in 0..self.n {
                let mark = if queen == Some(column) { '@' } else { '.' };
                write!(f, "{}{mark}", if column == 0 { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
