//! The registry: the one map from a kernel's name to the code that runs
//! it (`build`), written from the kernel table's rows. Each kernel type can be built only
//! where this CPU runs it (its `new()` asks for the features of its row in
//! the kernel table), so what this hands out is `'static` and proves its
//! features: a solver for whole boards and, for a kernel that counts a
//! plan's pieces, the [`PieceCounter`] the plan runs.

#[cfg(feature = "std")]
use crate::Error;
#[cfg(feature = "std")]
use crate::kernel::Method;
#[cfg(feature = "alloc")]
use crate::kernel::join::Joiner;
#[cfg(feature = "std")]
use crate::kernel::pieces::PieceCounter;
use crate::kernel::symmetric::Walkers;
use crate::{Kernel, Solver};

/// A kernel built: its solver and, for a kernel that counts a plan's
/// pieces, the same kernel as a [`PieceCounter`].
#[derive(Clone, Copy)]
pub(super) struct Built {
    pub(super) solver: &'static dyn Solver,
    #[cfg(feature = "std")]
    pub(super) counter: Option<PieceCounter>,
}

impl Built {
    /// A kernel that solves whole boards only.
    fn solver(solver: &'static dyn Solver) -> Built {
        Built {
            solver,
            #[cfg(feature = "std")]
            counter: None,
        }
    }

    /// A kernel whose walkers also count a symmetric plan's pieces.
    fn walkers(walkers: &'static dyn Walkers) -> Built {
        Built {
            solver: walkers,
            #[cfg(feature = "std")]
            counter: Some(PieceCounter::Walkers(walkers)),
        }
    }

    /// A join kernel, which also counts a join plan's pieces.
    #[cfg(feature = "alloc")]
    fn joiner<J: Joiner + 'static>(joiner: &'static J) -> Built {
        Built {
            solver: joiner,
            #[cfg(feature = "std")]
            counter: Some(PieceCounter::Joiner(joiner)),
        }
    }
}

/// The kernel type behind a concrete `kernel`, built, or `None` where this
/// build or CPU cannot run it: the one map from names to the code that
/// runs them, written from the kernel table (`registry_rows!`), a match
/// arm per row with no wildcard. (Whether it counts pieces, which this
/// says by the row's `code`, must agree with the row's plan method: a test
/// checks it.)
pub(super) fn build(kernel: Kernel) -> Option<Built> {
    // The crate's root goes in as a token, for the rows' paths.
    crate::vocabulary::kernel::kernels!(registry_rows, kernel, crate)
}

/// [`build`]'s match, a callback of the kernel table (`kernels!`): each row
/// its type's constructor, under its build's cfg, the proof it returns
/// handed out as the row's `code` says (`solver`, `walkers`, `joiner`);
/// `None` for the aliases and for a row this build does not carry.
macro_rules! registry_rows {
    (
        ($kernel:ident, $root:tt)
        $(
            $(#[$doc:meta])*
            $variant:ident {
                name: $name:literal,
                description: $description:literal,
                sizes: $sizes:expr,
                role: $role:expr,
                method: $method:expr,
                enumerates: $enumerates:literal,
                family: $family:ident,
                cpu: $cpu:literal,
                build: $build:ident,
                code: $how:ident $(($($path:ident)::+))?,
            }
        )*
    ) => {
        match $kernel {
            $( Kernel::$variant => registry_row!($root, $build, $how $(, $($path)::+)?), )*
        }
    };
}
use registry_rows;

/// One row of [`registry_rows!`].
macro_rules! registry_row {
    ($root:tt, Alias, alias) => {
        None
    };
    ($root:tt, $build:ident, $how:ident, $($path:ident)::+) => {
        crate::vocabulary::kernel::if_built!($build {
            $root::$($path)::+().map(|k| Built::$how(k.as_static()))
        } else {
            None
        })
    };
}
use registry_row;

/// The solver behind a concrete `kernel`, or `None` where this build or
/// CPU cannot run it.
pub(super) fn try_solver(kernel: Kernel) -> Option<&'static dyn Solver> {
    build(kernel).map(|built| built.solver)
}

/// The asm kernel in the encoding the name `asm` stands for on this CPU
/// (`dispatch::asm_kernel`, which decides it: AVX where it runs, else
/// SSE4.1), built; `None` where neither runs.
#[cfg(asm_kernels)]
pub fn best_asm() -> Option<crate::kernel::asm::Asm> {
    crate::kernel::asm::Asm::of(super::policy::asm_kernel())
}

/// The counter of `method`'s pieces that `asked` stands for: the kernel
/// itself if it counts them and runs here; for `auto`, the fastest kernel
/// of that method this CPU runs (the first of `auto`'s list for large
/// boards).
///
/// # Errors
///
/// [`Error::WrongMethod`] for a kernel that counts the other method's
/// pieces, [`Error::KernelUnavailable`] if this CPU or build cannot run the
/// kernel, [`Error::NotSplittable`] for one that counts no pieces.
#[cfg(feature = "std")]
pub(crate) fn counter(asked: Kernel, method: Method) -> Result<PieceCounter, Error> {
    if asked.method().is_some_and(|own| own != method) {
        return Err(Error::WrongMethod {
            kernel: asked,
            method,
        });
    }
    let kernel = match asked {
        Kernel::Auto => {
            super::policy::auto_for_plans(method).ok_or_else(|| Error::unavailable(Kernel::Auto))?
        }
        Kernel::Asm => super::policy::asm_kernel(),
        other => other,
    };
    // Availability first: a kernel this CPU lacks is unavailable, whether
    // or not it would split.
    let built = build(kernel).ok_or_else(|| Error::unavailable(kernel))?;
    if kernel.method().is_none() {
        return Err(Error::NotSplittable(asked));
    }
    built.counter.ok_or_else(|| Error::unavailable(kernel))
}
