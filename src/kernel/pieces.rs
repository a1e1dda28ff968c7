//! A plan's pieces, as each family of kernels cuts them, and the one type
//! that counts them: [`PieceCounter`].
//!
//! The symmetric kernel splits its subproblems (`symmetric::pieces`), the
//! join cuts its row sets (`join::pieces`); [`Piece`] holds either, and
//! the plan ([`crate::plan`]) numbers, orders, deals, checkpoints and runs
//! them without looking inside. A [`PieceCounter`] is a kernel that counts
//! one method's pieces, proven to run on this CPU: the dispatcher builds
//! it from the kernel table and hands it to the plan.

use alloc::vec::Vec;
use core::fmt;

use super::Method;
use super::join::{self, Joiner};
use super::progress::{InFlight, Progress};
use super::symmetric::{self, Walkers};
use crate::support::workers::Ran;
use crate::{Error, Kernel};

/// One piece of a count: a share of the total, as its family cut it.
// A plan holds pieces of one method only: boxing the large variant would
// add an allocation per piece for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum Piece {
    /// A symmetric subproblem (or a small board, whole).
    Symmetric(symmetric::pieces::SymmetricPiece),
    /// A piece of the join of an `n`x`n` board.
    Join {
        /// Board side.
        n: usize,
        /// Which cut, and which of its row sets.
        piece: join::pieces::JoinPiece,
    },
}

/// Calls `visit` with each piece of an `n`x`n` board by `method` and its
/// estimate (a rough measure of its work: only its order of magnitude
/// means anything), in the family's fixed order.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] for `n` over what the method's kernels
/// accept.
pub(crate) fn for_each_estimated(
    method: Method,
    n: usize,
    mut visit: impl FnMut(Piece, u64),
) -> Result<(), Error> {
    match method {
        Method::Symmetric => {
            Kernel::Symmetric.check_size(n)?;
            symmetric::pieces::for_each_estimated(n, |piece, estimate| {
                visit(Piece::Symmetric(piece), estimate);
            });
        }
        Method::Join => {
            Kernel::Join.check_size(n)?;
            join::pieces::for_each_estimated(n, |piece, estimate| {
                visit(Piece::Join { n, piece }, estimate);
            });
        }
    }
    Ok(())
}

/// How many pieces [`for_each_estimated`] visits, counted without keeping
/// them: cheap even at N = 32 (BENCHMARKS.md, "The memory check answers
/// at once"), so that what a plan holds is known before it is built.
///
/// # Errors
///
/// As [`for_each_estimated`].
pub(crate) fn how_many(method: Method, n: usize) -> Result<usize, Error> {
    Ok(match method {
        Method::Symmetric => {
            Kernel::Symmetric.check_size(n)?;
            symmetric::pieces::how_many(n)
        }
        Method::Join => {
            Kernel::Join.check_size(n)?;
            join::pieces::how_many(n)
        }
    })
}

/// The one piece of a partial board: `n`x`n` (`n` up to 32) with
/// `queens` (`(row, column)`, by row, on the board) placed. `None` if two
/// of them attack each other.
pub(crate) fn partial(n: usize, queens: &[(usize, usize)]) -> Option<Piece> {
    symmetric::pieces::partial(n, queens).map(Piece::Symmetric)
}

/// The first word of the fingerprint of a plan by `method` of an `n`x`n`
/// board: the version of its family's split.
pub(crate) fn split_version(method: Method, n: usize) -> u64 {
    match method {
        Method::Symmetric => symmetric::pieces::SPLIT_VERSION,
        Method::Join => join::pieces::split_version(n),
    }
}

/// About how many bytes counting `pieces` pieces of an `n`x`n` board by
/// `method` allocates on `threads` threads (any of the pieces: a join
/// holds as much as the whole: each thread's quarter-boards are cut by the
/// row sets it joins).
pub(crate) fn memory_estimate(method: Method, n: usize, pieces: usize, threads: usize) -> u64 {
    match method {
        Method::Join => join::memory::estimate(n, threads),
        // A queue entry per piece and each thread's walkers.
        Method::Symmetric => {
            let queue = 16 * pieces as u64;
            let per_thread = 64 << 10;
            queue.saturating_add((threads.max(1) as u64).saturating_mul(per_thread))
        }
    }
}

impl Piece {
    /// Board side N.
    pub(crate) fn n(&self) -> usize {
        match self {
            Piece::Symmetric(piece) => piece.n(),
            Piece::Join { n, .. } => *n,
        }
    }

    /// The method of the plan it belongs to.
    pub(crate) fn method(&self) -> Method {
        match self {
            Piece::Symmetric(_) => Method::Symmetric,
            Piece::Join { .. } => Method::Join,
        }
    }

    /// Which boards it covers.
    pub(crate) fn kind(&self) -> SubproblemKind {
        use symmetric::pieces::SymmetricPiece as Symmetric;
        use symmetric::subproblem::RootKind;
        match self {
            Piece::Symmetric(Symmetric::Small { .. }) => SubproblemKind::WholeBoard,
            Piece::Symmetric(Symmetric::SearchRoot(sub)) => match sub.kind {
                RootKind::Corner => SubproblemKind::Corner,
                RootKind::Edge { k } => SubproblemKind::Edge { k },
                RootKind::Tie { k } => SubproblemKind::Tie { k },
                RootKind::Plain => unreachable!("plans hold no plain partial boards"),
            },
            Piece::Join { n, piece } => SubproblemKind::Join {
                band: JoinBand::of(*n, &piece.band),
            },
        }
    }

    /// Whether it is counted in a second pass, after the rest (the
    /// symmetric kernel's ties): a plan orders such pieces last.
    pub(crate) fn second_pass(&self) -> bool {
        matches!(self, Piece::Symmetric(piece) if piece.is_tie())
    }

    /// Its pre-placed queens, `(row, column)`, by row. Symmetric: the
    /// first rows, then any queen placed further down (a tie's). Join: the
    /// band's, in the middle columns (see [`JoinBand`]).
    pub(crate) fn queens(&self) -> Vec<(usize, usize)> {
        match self {
            Piece::Symmetric(piece) => piece.queens(),
            Piece::Join { n, piece } => {
                let mut queens: Vec<(usize, usize)> = piece.band.queens(*n).collect();
                queens.sort_unstable();
                queens
            }
        }
    }

    /// For a join piece, the board rows its choices give the west half and
    /// those they give the east half (each a set: bit `r` for row `r`).
    pub(crate) fn join_rows(&self) -> Option<(u32, u32)> {
        match self {
            Piece::Join { n, piece } => Some(piece.rows(*n)),
            Piece::Symmetric(_) => None,
        }
    }

    /// How many row sets a join piece has (its parts are ranges of them);
    /// `None` for a symmetric piece.
    pub(crate) fn row_sets(&self) -> Option<u32> {
        match self {
            Piece::Join { n, piece } => Some(piece.row_sets(*n)),
            Piece::Symmetric(_) => None,
        }
    }

    /// Where it comes when a join plan's pieces are dealt in runs
    /// ([`crate::plan::Plan::shard`]): its cut, then its choices of rows in
    /// the order they were made. A symmetric piece has no such place.
    pub(crate) fn choice_order(&self) -> Option<(usize, u32)> {
        match self {
            Piece::Join { piece, .. } => Some(piece.choice_order()),
            Piece::Symmetric(_) => None,
        }
    }

    /// Feeds what names the piece to a plan's fingerprint.
    pub(crate) fn fingerprint(&self, eat: &mut dyn FnMut(u64)) {
        match self {
            Piece::Symmetric(piece) => piece.fingerprint(eat),
            Piece::Join { piece, .. } => piece.fingerprint(eat),
        }
    }
}

/// A kernel that counts a plan's pieces, proven to run on this CPU: the
/// walkers of the symmetric and lane kernels for a symmetric plan, a join
/// kernel for a join plan. The dispatcher builds it from the kernel table
/// (`crate::dispatch`), and the plan runs it.
#[derive(Clone, Copy)]
pub(crate) enum PieceCounter {
    /// Walkers of symmetric subproblems: `symmetric`, `symmetric-bmi`,
    /// `lanes-avx2`, `lanes-avx512`.
    Walkers(&'static dyn Walkers),
    /// A join: `join`, `join-avx2`, `join-avx512bw`, `join-avx512`.
    Joiner(&'static dyn Joiner),
}

impl PieceCounter {
    /// The kernel it is.
    pub(crate) fn kernel(self) -> Kernel {
        match self {
            PieceCounter::Walkers(walkers) => walkers.kernel(),
            PieceCounter::Joiner(joiner) => joiner.kernel(),
        }
    }

    /// The method whose pieces it counts.
    pub(crate) fn method(self) -> Method {
        match self {
            PieceCounter::Walkers(_) => Method::Symmetric,
            PieceCounter::Joiner(_) => Method::Join,
        }
    }

    /// Counts `pieces` (`(index, piece)` pairs, every piece of an `n`x`n`
    /// board by this counter's method) on `threads` threads (at least 1),
    /// leaving out the row sets of the join pieces `in_flight` says an
    /// earlier run counted, and reporting on this thread as each part and
    /// each piece finishes ([`Progress`]). Returns how many threads counted
    /// (fewer than asked if the system refused some, or if there were fewer
    /// pieces).
    ///
    /// # Errors
    ///
    /// [`Error::WrongMethod`] for a piece of the other method's plans;
    /// [`Error::OutOfMemory`] if a join's tables or buffers are refused;
    /// [`Error::InvalidInFlight`] for pieces in flight that the counter does
    /// not cut in parts (symmetric ones), or whose parts do not fit them.
    pub(crate) fn count(
        self,
        n: usize,
        pieces: &[(usize, &Piece)],
        in_flight: &InFlight,
        threads: usize,
        report: &mut dyn FnMut(Progress),
    ) -> Result<Ran, Error> {
        if let Some((_, other)) = pieces.iter().find(|(_, p)| p.method() != self.method()) {
            return Err(Error::WrongMethod {
                kernel: self.kernel(),
                method: other.method(),
            });
        }
        match self {
            PieceCounter::Walkers(walkers) => {
                let mut symmetric_pieces: Vec<(usize, &symmetric::pieces::SymmetricPiece)> =
                    reserved(pieces.len())?;
                symmetric_pieces.extend(pieces.iter().filter_map(|&(index, piece)| match piece {
                    Piece::Symmetric(piece) => Some((index, piece)),
                    Piece::Join { .. } => None,
                }));
                let pieces = symmetric_pieces;
                if !in_flight.is_empty() {
                    return Err(Error::InvalidInFlight(
                        "a symmetric subproblem is counted whole: none can be in flight".into(),
                    ));
                }
                let mut done = |index, count| report(Progress::Done { index, count });
                Ok(symmetric::pieces::count(
                    walkers, &pieces, threads, &mut done,
                ))
            }
            PieceCounter::Joiner(joiner) => {
                // Fallibly: the list is as long as the plan's.
                let mut join_pieces: Vec<(usize, join::pieces::JoinPiece)> =
                    reserved(pieces.len())?;
                join_pieces.extend(pieces.iter().filter_map(|&(index, piece)| match piece {
                    Piece::Join { piece, .. } => Some((index, *piece)),
                    Piece::Symmetric(_) => None,
                }));
                let pieces = join_pieces;
                join::run::count(joiner, n, &pieces, in_flight, threads, report)
            }
        }
    }
}

/// An empty list with room for exactly `len` items, or
/// [`Error::OutOfMemory`]: the lists as long as a plan (its own, and the
/// pieces a count is handed), which must not abort where they do not fit.
pub(crate) fn reserved<T>(len: usize) -> Result<Vec<T>, Error> {
    let mut list = Vec::new();
    list.try_reserve_exact(len)
        .map_err(|_| Error::OutOfMemory {
            bytes: (len as u64).saturating_mul(core::mem::size_of::<T>() as u64),
        })?;
    Ok(list)
}

#[cfg(feature = "std")]
impl PieceCounter {
    /// `draws` row sets of the join `pieces` of an `n`x`n` board, drawn with `seed` and joined on `threads` threads
    /// ([`join::sample`]).
    ///
    /// # Errors
    ///
    /// [`Error::WrongMethod`] for walkers: only a join is sampled;
    /// [`Error::InvalidThreads`] for no threads; [`Error::OutOfMemory`] if
    /// the join's tables or buffers are refused.
    pub(crate) fn sample(
        self,
        n: usize,
        pieces: &[&Piece],
        draws: usize,
        seed: u64,
        threads: usize,
    ) -> Result<join::sample::Drawn, Error> {
        let (joiner, pieces) = self.joiner_and_join_pieces(pieces)?;
        join::sample::sample(joiner, n, &pieces, draws, seed, threads)
    }

    /// `draws` row sets of the join `pieces` (of an `n`x`n` board), drawn
    /// with `seed` as [`PieceCounter::sample`] draws them, each counted by
    /// this join on its split unfolded and by a plain search
    /// (`join::check`).
    ///
    /// # Errors
    ///
    /// [`Error::WrongMethod`] for walkers; [`Error::OutOfMemory`] if the
    /// join's tables or buffers are refused.
    pub(crate) fn check(
        self,
        n: usize,
        pieces: &[&Piece],
        draws: usize,
        seed: u64,
    ) -> Result<Vec<join::check::Checked>, Error> {
        let (joiner, pieces) = self.joiner_and_join_pieces(pieces)?;
        join::check::check(joiner, n, &pieces, draws, seed)
    }

    /// The join and the join pieces of `pieces`, for
    /// [`PieceCounter::sample`] and [`PieceCounter::check`].
    ///
    /// # Errors
    ///
    /// [`Error::WrongMethod`] for walkers.
    fn joiner_and_join_pieces(
        self,
        pieces: &[&Piece],
    ) -> Result<(&'static dyn Joiner, Vec<join::pieces::JoinPiece>), Error> {
        let PieceCounter::Joiner(joiner) = self else {
            return Err(Error::WrongMethod {
                kernel: self.kernel(),
                method: Method::Join,
            });
        };
        let pieces = pieces
            .iter()
            .filter_map(|&piece| match piece {
                Piece::Join { piece, .. } => Some(*piece),
                Piece::Symmetric(_) => None,
            })
            .collect();
        Ok((joiner, pieces))
    }
}

impl fmt::Debug for PieceCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PieceCounter({})", self.kernel())
    }
}

/// Which boards a [`crate::plan::Subproblem`] covers (see [`crate::kernel::symmetric`]
/// for why the symmetric kinds cover every class exactly once, and
/// [`crate::kernel::join`] for the join's pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubproblemKind {
    /// The whole board, for N < 4, which a symmetric plan does not split.
    WholeBoard,
    /// A queen in the corner (0, 0); column 1 empty down to row `a`, where
    /// (1, `a`) holds the row-1 queen. Every board counts 8.
    Corner,
    /// The row-0 queen in column `k`, every other edge queen further than
    /// `k` from the corners. Every board counts 8.
    Edge {
        /// Column of the row-0 queen.
        k: usize,
    },
    /// The row-0 queen in column `k`, no corner queen, and another edge
    /// queen pre-placed exactly `k` from a corner: each board is compared
    /// with its images and counts its orbit if it is canonical.
    Tie {
        /// Column of the row-0 queen.
        k: usize,
    },
    /// A piece of a join plan: the solutions with the band's queens whose
    /// west half's rows (and those of their images under the flip and the
    /// mirror) begin with the piece's choices. Its count is any whole
    /// number.
    Join {
        /// The queens the cut places first, one in each middle column.
        band: JoinBand,
    },
}

/// The queens a join plan's cut places first, one in each of the band of
/// middle columns between the halves: none for even N below 24, the
/// middle column's for odd N below 25 (from the top down to the centre: a
/// queen lower down stands for its flip), two and three columns from
/// there (the smallest placement of each class under the flip and the
/// mirror, which stands for the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinBand {
    /// The band's first column.
    first_column: u8,
    /// Each column's queen's row, first column first.
    rows: [u8; crate::kernel::join::band::MAX_BAND],
    len: u8,
}

impl JoinBand {
    fn of(n: usize, band: &crate::kernel::join::band::Band) -> JoinBand {
        let mut rows = [0; crate::kernel::join::band::MAX_BAND];
        rows[..band.len()].copy_from_slice(band.rows());
        JoinBand {
            first_column: band.first_column(n) as u8,
            rows,
            len: band.len() as u8,
        }
    }

    /// The queens, `(row, column)`, west to east.
    pub fn queens(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows[..usize::from(self.len)]
            .iter()
            .enumerate()
            .map(|(i, &row)| (usize::from(row), usize::from(self.first_column) + i))
    }

    /// How many queens (and columns).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether it places no queen (even N below 24).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl fmt::Display for SubproblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubproblemKind::WholeBoard => write!(f, "whole board"),
            SubproblemKind::Corner => write!(f, "corner"),
            SubproblemKind::Edge { k } => write!(f, "edge k={k}"),
            SubproblemKind::Tie { k } => write!(f, "tie k={k}"),
            SubproblemKind::Join { band } => {
                let mut queens = band.queens();
                match (queens.next(), band.len()) {
                    (None, _) => write!(f, "join"),
                    (Some((row, _)), 1) => write!(f, "join middle row {row}"),
                    (Some((row, column)), _) => {
                        write!(f, "join band ({row}, {column})")?;
                        queens.try_for_each(|(row, column)| write!(f, " ({row}, {column})"))
                    }
                }
            }
        }
    }
}
