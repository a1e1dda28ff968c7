//! [`PartialBoard`]: any queens pre-placed, and the number of ways to
//! complete them.

use core::fmt;

use crate::board::BoardDefect;
use crate::kernel::symmetric::subproblem::{Kind, Subproblem};
use crate::{Count, Error, Kernel, MAX_N};

/// An N x N board with some queens placed anywhere (at most one per row):
/// [`count`](PartialBoard::count) gives the number of solutions that
/// contain them all.
///
/// ```
/// use queens_simd::Kernel;
/// use queens_simd::plan::PartialBoard;
///
/// // Of the 92 solutions for N = 8, 4 have a queen in the corner (0, 0)
/// // and 8 have one in (0, 1).
/// let corner = PartialBoard::new(8)?.with_queen(0, 0)?;
/// assert_eq!(corner.count(Kernel::Auto)?, 4);
/// assert_eq!(PartialBoard::new(8)?.with_queen(0, 1)?.count(Kernel::Auto)?, 8);
/// // Queens on the border, anywhere:
/// let border = PartialBoard::new(8)?.with_queen(7, 3)?.with_queen(2, 0)?;
/// assert_eq!(border.count(Kernel::Auto)?, 4);
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

    /// The number of solutions that hold every queen placed, counted on
    /// this thread by `kernel` (`symmetric`, `symmetric-bmi` or `auto`).
    pub fn count(&self, kernel: Kernel) -> Result<Count, Error> {
        let engine = crate::dispatch::engine(kernel)?;
        let n = self.n;
        if n < 4 {
            // Nothing to split: the few solutions, filtered.
            let solutions = Kernel::Portable.solutions(n)?;
            let holds = |board: &crate::Board| {
                self.queens
                    .iter()
                    .all(|&(row, column)| usize::from(board.columns()[row]) == column)
            };
            return Ok(solutions.iter().filter(|b| holds(b)).count() as Count);
        }
        debug_assert!(n <= MAX_N);
        let Some(sub) = Subproblem::new(n, Kind::Plain, &[], &self.queens, &[]) else {
            return Ok(0);
        };
        let mut total = 0;
        engine.count(
            &mut core::iter::once((0, &sub)),
            false,
            false,
            &mut |_, count| {
                total += count;
            },
        );
        Ok(total)
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
