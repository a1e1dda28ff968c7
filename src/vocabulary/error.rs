//! The crate's one error type.

use core::fmt;

use super::kernel::{Build, Method, Role, UnsupportedSize};
use crate::{BoardDefect, Kernel};

/// Why a request could not be served. Every public entry point returns this
/// instead of panicking on bad input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The board size is outside what the chosen kernel supports.
    SizeOutOfRange {
        /// The size asked for.
        n: usize,
        /// The kernel that was asked.
        kernel: Kernel,
        /// Smallest size it supports.
        min: usize,
        /// Largest size it supports.
        max: usize,
    },
    /// No kernel has this name.
    #[cfg(feature = "alloc")]
    UnknownKernel(alloc::string::String),
    /// The kernel exists but this CPU (or this build) cannot run it.
    KernelUnavailable {
        /// The kernel asked for (an alias resolved).
        kernel: Kernel,
        /// Why it cannot run here: what the build or the CPU lacks.
        because: &'static str,
    },
    /// Only the kernels that split count a plan's subproblems (and so run
    /// on several threads, in shards, or from a checkpoint): the symmetric
    /// and the join kernels, and `auto`.
    NotSplittable(Kernel),
    /// A kernel asked to count the subproblems of a plan of the other
    /// method: a join kernel and a symmetric plan, or a symmetric kernel
    /// and a join plan.
    WrongMethod {
        /// The kernel asked for.
        kernel: Kernel,
        /// The plan's method.
        method: Method,
    },
    /// No plan method has this name (`symmetric` and `join` do).
    #[cfg(feature = "alloc")]
    UnknownMethod(alloc::string::String),
    /// A shard that is not `i/m` with `0 <= i < m`, or that does not
    /// belong to the plan it is used with.
    #[cfg(feature = "alloc")]
    InvalidShard(alloc::string::String),
    /// A subproblem asked of a plan that has no subproblem of that number.
    MissingSubproblem {
        /// The number asked for.
        index: usize,
        /// The plan's board size.
        n: usize,
        /// How many subproblems the plan has (numbered from 0).
        subproblems: usize,
    },
    /// A subproblem listed twice among those to count.
    RepeatedSubproblem {
        /// Its number.
        index: usize,
    },
    /// Pieces in flight (an earlier run's parts, handed to a resumed
    /// count) that do not fit the count: a piece that is not among those
    /// to count, a symmetric one, or parts that do not fit their piece.
    #[cfg(feature = "alloc")]
    InvalidInFlight(alloc::string::String),
    /// The kernel counts solutions but does not visit them (enumeration,
    /// fundamental solutions): the join kernels.
    CountOnly(Kernel),
    /// A thread count of zero.
    InvalidThreads,
    /// The seed-000 bitboard has 8 columns per row: it holds boards up to 8x8.
    BitboardTooSmall {
        /// The size asked for.
        n: usize,
    },
    /// A bitboard or column list that is not one queen per row and column.
    InvalidBoard(BoardDefect),
    /// `verify` holds full solution sets in memory, up to a limit.
    VerifyTooLarge {
        /// The largest N asked for.
        max_n: usize,
        /// The largest N verify accepts.
        limit: usize,
    },
    /// A square whose row or column is N or more.
    SquareOffBoard {
        /// The square's row.
        row: usize,
        /// The square's column.
        column: usize,
        /// The board's side N.
        n: usize,
    },
    /// A seed-000 bitboard square (`row * 8 + col`) past the 64 it has.
    BitboardSquareOutOfRange {
        /// The square asked for.
        square: usize,
    },
    /// A count could not allocate one of its large buffers (a plan's
    /// lists, a join's tables of quarter-boards, its half-boards, the
    /// matcher's slices, a sample's draws): the process's memory limit
    /// (`ulimit -v`, `RLIMIT_AS`) or the system refused it. The count
    /// stopped; the subproblems reported before it were counted right.
    /// `plan::MemoryNeeds` says how much a count takes, to check before it
    /// starts (see the crate's Memory section).
    OutOfMemory {
        /// The size of the buffer that was refused, in bytes (one
        /// allocation, not all that the count holds).
        bytes: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::SizeOutOfRange {
                n,
                kernel,
                min,
                max,
            } => write!(
                f,
                "kernel '{kernel}' supports N from {min} to {max}, but N = {n} was asked"
            ),
            #[cfg(feature = "alloc")]
            Error::UnknownKernel(name) => {
                // A near miss gets the names it nearly is; anything else
                // the whole list.
                let close = Error::kernels_near(name);
                if !close.is_empty() {
                    let close = crate::suggest::quoted_or(&close);
                    return write!(f, "unknown kernel '{name}' (did you mean {close}?)");
                }
                write!(f, "unknown kernel '{name}' (known: ")?;
                for (i, k) in Kernel::ALIASES.iter().chain(Kernel::ALL).enumerate() {
                    write!(f, "{}{k}", if i == 0 { "" } else { ", " })?;
                }
                write!(f, ")")
            }
            Error::KernelUnavailable { kernel, because } => {
                write!(f, "kernel '{kernel}' is not available: {because}")
            }
            Error::NotSplittable(kernel) => {
                write!(
                    f,
                    "kernel '{kernel}' solves whole boards only; a count through a plan (on \
                     threads, in shards) needs a kernel that splits the board into one: "
                )?;
                for (i, method) in Method::ALL.into_iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { ", " })?;
                    write_names(f, method.kernels().rev())?;
                }
                f.write_str(" (or 'auto')")
            }
            Error::WrongMethod { kernel, method } => {
                write!(
                    f,
                    "kernel '{kernel}' does not count the subproblems of a {method} plan: "
                )?;
                for (i, plans) in Method::ALL.into_iter().enumerate() {
                    let counted = if i == 0 { "is counted " } else { "" };
                    let a = if i == 0 { "a" } else { ", a" };
                    write!(f, "{a} {plans} plan {counted}by ")?;
                    write_names(f, plans.kernels().rev())?;
                }
                f.write_str(" (either by 'auto')")
            }
            #[cfg(feature = "alloc")]
            Error::UnknownMethod(name) => {
                write!(f, "unknown plan method '{name}' (known: symmetric, join)")
            }
            #[cfg(feature = "alloc")]
            Error::InvalidShard(why) => write!(f, "invalid shard: {why}"),
            Error::MissingSubproblem {
                index,
                n,
                subproblems,
            } => write!(
                f,
                "subproblem {index} does not exist: the plan for N = {n} has {subproblems}"
            ),
            Error::RepeatedSubproblem { index } => {
                write!(f, "subproblem {index} is listed twice")
            }
            #[cfg(feature = "alloc")]
            Error::InvalidInFlight(why) => write!(f, "invalid pieces in flight: {why}"),
            Error::CountOnly(kernel) => {
                write!(
                    f,
                    "kernel '{kernel}' counts solutions only; to list them or the fundamental \
                     ones, use "
                )?;
                write_names(f, Error::listing_instead(*kernel))
            }
            Error::InvalidThreads => write!(f, "the number of threads must be at least 1"),
            Error::BitboardTooSmall { n } => write!(
                f,
                "the 64-bit bitboard holds boards up to 8x8, but N = {n} was asked"
            ),
            Error::InvalidBoard(why) => write!(f, "invalid board: {why}"),
            Error::VerifyTooLarge { max_n, limit } => write!(
                f,
                "verify compares full solution sets up to N = {limit}, but N = {max_n} was asked"
            ),
            Error::SquareOffBoard { row, column, n } => {
                write!(f, "square ({row}, {column}) is off the {n}x{n} board")
            }
            Error::BitboardSquareOutOfRange { square } => write!(
                f,
                "the 64-bit bitboard has squares 0 to 63 (row * 8 + col), but square {square} was asked"
            ),
            Error::OutOfMemory { bytes } => {
                f.write_str("out of memory: a count could not allocate ")?;
                write_size(f, *bytes)?;
                f.write_str(
                    " for its plan, tables or buffers: the system gave it less than \
                     the memory it was estimated to need",
                )
            }
        }
    }
}

impl core::error::Error for Error {}

impl From<UnsupportedSize> for Error {
    fn from(UnsupportedSize { n, kernel }: UnsupportedSize) -> Error {
        let sizes = kernel.sizes();
        Error::SizeOutOfRange {
            n,
            kernel,
            min: *sizes.start(),
            max: *sizes.end(),
        }
    }
}

impl Error {
    /// The error for a `kernel` this build or CPU cannot run, with the
    /// reason ([`Kernel::unavailable_because`]).
    pub(crate) fn unavailable(kernel: Kernel) -> Error {
        Error::KernelUnavailable {
            kernel,
            because: kernel
                .unavailable_because()
                .unwrap_or("this CPU or build cannot run it"),
        }
    }

    /// The kernel names (aliases first) that `name` nearly is, which
    /// [`Error::UnknownKernel`]'s message suggests; empty when none is
    /// near, and the message lists them all. The command line writes its
    /// own sentence from these.
    #[cfg(feature = "alloc")]
    pub fn kernels_near(name: &str) -> alloc::vec::Vec<&'static str> {
        let names = Kernel::ALIASES.iter().chain(Kernel::ALL).map(|k| k.name());
        crate::suggest::closest(name, names)
    }

    /// The kernels that [`Error::CountOnly`]'s message offers for listing
    /// what `kernel` only counts: the fast ones that list solutions on
    /// every target and at every size `kernel` takes, then `auto`.
    pub fn listing_instead(kernel: Kernel) -> impl Iterator<Item = Kernel> {
        let everywhere = Kernel::ALL.iter().copied().filter(move |k| {
            k.role() == Role::Fast
                && k.enumerates()
                && k.build() == Build::Everywhere
                && k.sizes().end() >= kernel.sizes().end()
        });
        everywhere.chain([Kernel::Auto])
    }
}

// The names' parsers: here rather than beside the names, which sit below
// the error type.
#[cfg(feature = "alloc")]
impl core::str::FromStr for Method {
    type Err = Error;

    /// `symmetric` or `join`, as [`Method::name`] writes them.
    fn from_str(name: &str) -> Result<Method, Error> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .ok_or_else(|| Error::UnknownMethod(name.into()))
    }
}

#[cfg(feature = "alloc")]
impl core::str::FromStr for Kernel {
    type Err = Error;

    fn from_str(name: &str) -> Result<Kernel, Error> {
        Kernel::from_name(name).ok_or_else(|| Error::UnknownKernel(name.into()))
    }
}

/// Writes `kernels` as a list of quoted names: `'a'`, `'a' or 'b'`,
/// `'a', 'b' or 'c'`.
fn write_names(f: &mut fmt::Formatter<'_>, kernels: impl Iterator<Item = Kernel>) -> fmt::Result {
    let mut kernels = kernels.peekable();
    let mut first = true;
    while let Some(kernel) = kernels.next() {
        let separator = match (first, kernels.peek()) {
            (true, _) => "",
            (false, None) => " or ",
            (false, Some(_)) => ", ",
        };
        write!(f, "{separator}'{kernel}'")?;
        first = false;
    }
    Ok(())
}

/// `bytes` for a person, as the command line shows sizes: GiB from 1 GiB
/// up, else MiB, else KiB, one decimal (`1.5 GiB`, `70.4 MiB`), or bytes
/// under 1 KiB. In integers: this builds without `std`.
fn write_size(f: &mut fmt::Formatter<'_>, bytes: u64) -> fmt::Result {
    let Some((shift, unit)) = [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        .into_iter()
        .find(|&(shift, _)| bytes >> shift != 0)
    else {
        return write!(f, "{bytes} {}", if bytes == 1 { "byte" } else { "bytes" });
    };
    // Tenths of the unit, rounded to the nearest.
    let tenths = (u128::from(bytes) * 10 + (1u128 << (shift - 1))) >> shift;
    write!(f, "{}.{} {unit}", tenths / 10, tenths % 10)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// The kernels these messages name come from the kernel table: a
    /// kernel added to a plan method is named without touching them.
    #[test]
    fn messages_name_the_kernels_of_the_table() {
        assert_eq!(
            Error::NotSplittable(Kernel::Sse41).to_string(),
            "kernel 'sse41' solves whole boards only; a count through a plan (on threads, in \
             shards) needs a kernel that splits the board into one: 'symmetric', 'symmetric-bmi', \
             'lanes-avx2' or 'lanes-avx512', 'join', 'join-avx2', 'join-avx512bw' or 'join-avx512' \
             (or 'auto')"
        );
        assert_eq!(
            Error::WrongMethod {
                kernel: Kernel::Join,
                method: Method::Symmetric
            }
            .to_string(),
            "kernel 'join' does not count the subproblems of a symmetric plan: a symmetric plan \
             is counted by 'symmetric', 'symmetric-bmi', 'lanes-avx2' or 'lanes-avx512', a join \
             plan by 'join', 'join-avx2', 'join-avx512bw' or 'join-avx512' (either by 'auto')"
        );
        assert_eq!(
            Error::CountOnly(Kernel::JoinAvx2).to_string(),
            "kernel 'join-avx2' counts solutions only; to list them or the fundamental ones, \
             use 'symmetric', 'portable' or 'auto'"
        );
    }

    /// One error of each variant, the kernel-naming ones for every kernel:
    /// the match has no catch-all, so a new variant fails the build here
    /// until it is added.
    fn every_error() -> alloc::vec::Vec<Error> {
        use alloc::vec::Vec;
        let kernels = || Kernel::ALIASES.iter().chain(Kernel::ALL).copied();
        let mut errors: Vec<Error> = Vec::new();
        for kernel in kernels() {
            errors.push(UnsupportedSize { n: 99, kernel }.into());
            errors.push(Error::unavailable(kernel));
            errors.push(Error::NotSplittable(kernel));
            errors.push(Error::CountOnly(kernel));
            for method in Method::ALL {
                errors.push(Error::WrongMethod { kernel, method });
            }
        }
        // A near miss, and a name like none.
        for name in ["symetric", "avx3", "no-such-kernel-at-all"] {
            errors.push(Error::UnknownKernel(name.into()));
        }
        errors.extend([
            Error::UnknownMethod("joins".into()),
            Error::InvalidShard("shard 3/2 does not exist".into()),
            Error::MissingSubproblem {
                index: 9,
                n: 4,
                subproblems: 2,
            },
            Error::RepeatedSubproblem { index: 1 },
            Error::InvalidInFlight("subproblem 1 is not among those to count".into()),
            Error::InvalidThreads,
            Error::BitboardTooSmall { n: 9 },
            Error::InvalidBoard(BoardDefect::ColumnTwice { column: 1 }),
            Error::VerifyTooLarge {
                max_n: 20,
                limit: 15,
            },
            Error::SquareOffBoard {
                row: 9,
                column: 0,
                n: 8,
            },
            Error::BitboardSquareOutOfRange { square: 64 },
            Error::OutOfMemory { bytes: 1 << 30 },
        ]);
        for error in &errors {
            match error {
                Error::SizeOutOfRange { .. }
                | Error::UnknownKernel(_)
                | Error::KernelUnavailable { .. }
                | Error::NotSplittable(_)
                | Error::WrongMethod { .. }
                | Error::UnknownMethod(_)
                | Error::InvalidShard(_)
                | Error::MissingSubproblem { .. }
                | Error::RepeatedSubproblem { .. }
                | Error::InvalidInFlight(_)
                | Error::CountOnly(_)
                | Error::InvalidThreads
                | Error::BitboardTooSmall { .. }
                | Error::InvalidBoard(_)
                | Error::VerifyTooLarge { .. }
                | Error::SquareOffBoard { .. }
                | Error::BitboardSquareOutOfRange { .. }
                | Error::OutOfMemory { .. } => {}
            }
        }
        errors
    }

    /// The library's errors describe the library: no command-line flag
    /// (`--kernels`, `--unique`) and no command line. The command line
    /// adds its own hints where it reports them (the `queens-simd-cli` package's `status::message`).
    #[test]
    fn messages_name_no_flag_of_the_command_line() {
        let errors = every_error();
        assert!(errors.len() > 6 * Kernel::ALL.len());
        for error in errors {
            let text = error.to_string();
            let flag = text
                .match_indices("--")
                .any(|(at, _)| text[at + 2..].starts_with(|c: char| c.is_ascii_alphabetic()));
            assert!(!flag, "{error:?} names a flag: {text}");
            assert!(!text.contains("command line"), "{error:?}: {text}");
        }
    }

    /// Sizes read as the command line writes them.
    #[test]
    fn out_of_memory_says_how_much() {
        let text = |bytes| Error::OutOfMemory { bytes }.to_string();
        assert_eq!(
            text(96 << 20),
            "out of memory: a count could not allocate 96.0 MiB for its plan, tables or \
             buffers: the system gave it less than the memory it was estimated to need"
        );
        assert!(text(1536 << 20).contains(" 1.5 GiB "));
        assert!(text(70_400 << 10).contains(" 68.8 MiB "));
        assert!(text(2047).contains(" 2.0 KiB "));
        assert!(text(1000).contains(" 1000 bytes "));
        assert!(text(1).contains(" 1 byte "));
        assert!(text(u64::MAX).contains(" 17179869184.0 GiB "));
    }
}
