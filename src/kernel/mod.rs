//! Kernels: every algorithm that counts and enumerates N-Queens solutions,
//! behind one trait ([`Solver`]) and one name space ([`Kernel`]).
//!
//! Adding a kernel takes three steps, none of them in the CLI:
//! 1. a module with a type that implements [`Solver`] (constructible only
//!    where it can run: `new() -> Option<Self>`);
//! 2. a variant in [`Kernel`] with its row in [`Kernel::ALL`] and its
//!    name, description, sizes and role below;
//! 3. its arm in [`crate::dispatch`], the one place that maps a kernel to a
//!    solver and decides what `auto` means.

pub mod portable;
pub mod symmetric;

// The hand-written assembly is ELF for the System V ABI: x86-64 Linux only.
// Elsewhere its `Kernel` variants stay and report themselves unavailable.
#[cfg(all(
    target_arch = "x86_64",
    target_os = "linux",
    not(queens_simd_force_portable)
))]
pub mod asm;
// davidad's machine and its two instances exist only on x86-64, and not in a
// build that forces the portable kernel; elsewhere their `Kernel` variants
// stay (so their names parse) and report themselves unavailable.
#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
pub mod avx;
#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
pub mod davidad;
#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
pub mod sse41;

use core::fmt;
use core::ops::{ControlFlow, RangeInclusive};
use core::str::FromStr;

use crate::{Board, Count, Error, dispatch};

/// What a kernel calls for each solution it finds; `Break` stops the search.
pub type Visit<'a> = &'a mut dyn FnMut(&Board) -> ControlFlow<()>;

/// What a solve does, for `auto`'s choice: the fastest kernel for counting
/// is not always the fastest for visiting every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Counting solutions.
    Count,
    /// Visiting every solution.
    Enumerate,
    /// Counting or visiting the fundamental solutions, one per class of
    /// the square's symmetries (`--unique`, [`crate::fundamental`]).
    Fundamental,
}

impl Task {
    /// Every task.
    pub const ALL: [Task; 3] = [Task::Count, Task::Enumerate, Task::Fundamental];
}

/// A solving algorithm. Each method checks `n` against the kernel's
/// [`Kernel::sizes`] and returns [`Error::SizeOutOfRange`] instead of
/// panicking.
pub trait Solver: Send + Sync {
    /// Which kernel this is.
    fn kernel(&self) -> Kernel;

    /// Number of solutions on an `n`x`n` board.
    fn count(&self, n: usize) -> Result<Count, Error>;

    /// Calls `visit` once for every solution, in the kernel's own order,
    /// until it returns `Break`. Returns `Break` if `visit` stopped it.
    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error>;

    /// Like [`Solver::for_each_solution`], restricted to the solutions whose
    /// row-0 queen stands in one of the columns of `first_row` (bit `c` for
    /// column `c`). The empty board of N = 0 has no row 0 and is always
    /// visited. Kernels that can prune their search override this; the
    /// default filters the full enumeration.
    fn for_each_solution_in_first_row(
        &self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.for_each_solution(n, &mut |board| match board.columns().first() {
            Some(&col) if first_row >> col & 1 == 0 => ControlFlow::Continue(()),
            _ => visit(board),
        })
    }

    /// Calls `visit` with the canonical form ([`crate::symmetry::canonical`])
    /// of every class of solutions under the symmetries of the square, in
    /// the kernel's own order, until it returns `Break`. The default
    /// enumerates the solutions whose row-0 queen is in the left half of the
    /// board (where every canonical form has it) and keeps those that are
    /// their own canonical form; kernels that search by class override it.
    fn for_each_fundamental(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        // First, as the mask below is only defined for the kernels' sizes.
        self.kernel().check_size(n)?;
        // A canonical form has its row-0 queen in column c with 2c <= n - 1:
        // the left-right mirror would otherwise be smaller.
        let left_half = (1u32 << n.div_ceil(2)) - 1;
        self.for_each_solution_in_first_row(n, left_half, &mut |board| {
            if crate::symmetry::is_canonical(board) {
                visit(board)
            } else {
                ControlFlow::Continue(())
            }
        })
    }

    /// Number of classes of solutions under the symmetries of the square
    /// (OEIS A002562). The default counts [`Solver::for_each_fundamental`].
    fn count_fundamental(&self, n: usize) -> Result<Count, Error> {
        let mut classes: Count = 0;
        // The visitor never breaks: the flow it returns carries nothing.
        let _ = self.for_each_fundamental(n, &mut |_| {
            classes += 1;
            ControlFlow::Continue(())
        })?;
        Ok(classes)
    }

    /// Every solution, in the kernel's own order.
    fn solutions(&self, n: usize) -> Result<Vec<Board>, Error> {
        let mut all = Vec::new();
        // The visitor never breaks: the flow it returns carries nothing.
        let _ = self.for_each_solution(n, &mut |board| {
            all.push(*board);
            ControlFlow::Continue(())
        })?;
        Ok(all)
    }
}

/// What a kernel is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A production kernel; `auto` chooses among these.
    Fast,
    /// One of the seed articles' algorithms, kept to cross-check the fast
    /// kernels and to reproduce the articles' comparisons. Never chosen by
    /// `auto`. The number is the seed's file prefix in `shared/seeds/`.
    Reference {
        /// Seed number (000, 001, 003, 004).
        seed: u8,
    },
}

/// A kernel by name. `Auto` stands for the fastest kernel available on this
/// CPU for the size asked (see [`crate::dispatch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kernel {
    /// The fastest available kernel for the size asked.
    Auto,
    /// Bitmask backtracking in plain Rust; runs everywhere; the oracle.
    Portable,
    /// One search per class of solutions under the symmetries of the
    /// square, dead ends pruned a row ahead; plain Rust, runs everywhere
    /// (`kernel::symmetric`).
    Symmetric,
    /// [`Kernel::Symmetric`] compiled with BMI1, BMI2, LZCNT and POPCNT
    /// (x86-64 only).
    SymmetricBmi,
    /// Seed 002, davidad's xmm state machine in SSE4.1 encodings
    /// (`kernel::sse41`, x86-64 only).
    Sse41,
    /// Seed 002, davidad's xmm state machine in AVX (VEX) encodings
    /// (`kernel::avx`, x86-64 only).
    Avx,
    /// The best encoding of the hand-written assembly this CPU runs:
    /// [`Kernel::AsmAvx`], else [`Kernel::AsmSse41`]. Like `Auto`, a name
    /// that [`Kernel::resolve`] turns into a concrete kernel.
    Asm,
    /// Seed 002 by hand in `asm/davidad.s`, SSE4.1 encoding, resumable
    /// explicit stack (`kernel::asm`, x86-64 Linux only).
    AsmSse41,
    /// Seed 002 by hand in `asm/davidad.s`, AVX (VEX) encoding, resumable
    /// explicit stack (`kernel::asm`, x86-64 Linux only).
    AsmAvx,
    /// Seed 000: one `u64` board, recursive scan over its squares
    /// ([`crate::reference::bitboard64`]).
    Bitboard64,
    /// Seed 001: per-square threat masks intersected row by row
    /// ([`crate::reference::threat_masks`]).
    ThreatMasks,
    /// Seed 003: all N^N one-queen-per-row placements
    /// ([`crate::reference::brute_force`]).
    BruteForce,
    /// Seed 004: Heap's algorithm over the N! permutations
    /// ([`crate::reference::heap_permutations`]).
    HeapPermutations,
}

impl Kernel {
    /// Every concrete kernel (not `Auto` or `Asm`), fast kernels first.
    pub const ALL: &'static [Kernel] = &[
        Kernel::SymmetricBmi,
        Kernel::Symmetric,
        Kernel::Portable,
        Kernel::Sse41,
        Kernel::Avx,
        Kernel::AsmSse41,
        Kernel::AsmAvx,
        Kernel::Bitboard64,
        Kernel::ThreatMasks,
        Kernel::BruteForce,
        Kernel::HeapPermutations,
    ];

    /// The names that stand for another kernel: [`Kernel::resolve`] turns
    /// them into one of [`Kernel::ALL`].
    pub const ALIASES: &'static [Kernel] = &[Kernel::Auto, Kernel::Asm];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Portable => "portable",
            Kernel::Symmetric => "symmetric",
            Kernel::SymmetricBmi => "symmetric-bmi",
            Kernel::Sse41 => "sse41",
            Kernel::Avx => "avx",
            Kernel::Asm => "asm",
            Kernel::AsmSse41 => "asm-sse41",
            Kernel::AsmAvx => "asm-avx",
            Kernel::Bitboard64 => "bitboard64",
            Kernel::ThreatMasks => "threat-masks",
            Kernel::BruteForce => "brute-force",
            Kernel::HeapPermutations => "heap",
        }
    }

    /// One line saying what the kernel is.
    pub const fn description(self) -> &'static str {
        match self {
            Kernel::Auto => "the fastest kernel available on this CPU",
            Kernel::Portable => "bitmask backtracking, explicit stack, any target",
            Kernel::Symmetric => {
                "one search per symmetry class, dead ends pruned a row ahead, any target"
            }
            Kernel::SymmetricBmi => "the symmetric kernel built with BMI1, BMI2, LZCNT and POPCNT",
            Kernel::Sse41 => "seed 002, davidad's xmm state machine, SSE4.1 encoding",
            Kernel::Avx => "seed 002, davidad's xmm state machine, AVX (VEX) encoding",
            Kernel::Asm => "the best encoding of the global_asm! kernel this CPU runs",
            Kernel::AsmSse41 => "seed 002 by hand in global_asm!, resumable, SSE4.1 encoding",
            Kernel::AsmAvx => "seed 002 by hand in global_asm!, resumable, AVX (VEX) encoding",
            Kernel::Bitboard64 => {
                "seed 000, \"Masquerade ball with eight queens\" (2011): u64 board, square scan"
            }
            Kernel::ThreatMasks => {
                "seed 001, \"Haskell Solution to the Eight Queens Problem\" (2014): threat masks"
            }
            Kernel::BruteForce => {
                "seed 003, Andrew Que's brute force (2017): all N^N one-queen-per-row placements"
            }
            Kernel::HeapPermutations => {
                "seed 004, Andrew Que's permutations (2017): Heap's algorithm, diagonals only"
            }
        }
    }

    /// Board sizes the kernel accepts.
    pub fn sizes(self) -> RangeInclusive<usize> {
        match self {
            Kernel::Auto => 0..=crate::MAX_N,
            Kernel::Portable | Kernel::Symmetric | Kernel::SymmetricBmi => 0..=crate::MAX_N,
            // 16-bit words in davidad's register.
            Kernel::Sse41 | Kernel::Avx | Kernel::Asm | Kernel::AsmSse41 | Kernel::AsmAvx => 0..=16,
            Kernel::Bitboard64 | Kernel::ThreatMasks | Kernel::BruteForce => 0..=8,
            Kernel::HeapPermutations => 0..=10,
        }
    }

    /// Production kernel or seed reference.
    pub const fn role(self) -> Role {
        match self {
            Kernel::Auto
            | Kernel::Portable
            | Kernel::Symmetric
            | Kernel::SymmetricBmi
            | Kernel::Sse41
            | Kernel::Avx
            | Kernel::Asm
            | Kernel::AsmSse41
            | Kernel::AsmAvx => Role::Fast,
            Kernel::Bitboard64 => Role::Reference { seed: 0 },
            Kernel::ThreatMasks => Role::Reference { seed: 1 },
            Kernel::BruteForce => Role::Reference { seed: 3 },
            Kernel::HeapPermutations => Role::Reference { seed: 4 },
        }
    }

    /// Whether this CPU and build can run the kernel. Always true for
    /// `Auto`, which falls back to `Portable`; true for `Asm` where either
    /// encoding runs.
    pub fn is_available(self) -> bool {
        dispatch::is_available(self)
    }

    /// Why this CPU or build cannot run the kernel, or `None` if it can.
    pub fn unavailable_because(self) -> Option<&'static str> {
        dispatch::unavailable_because(self)
    }

    /// The concrete kernel that would count size `n`: `Auto` and `Asm`
    /// resolved, any other kernel itself. (`Asm` stays itself where no
    /// encoding runs, `Auto` for sizes no kernel accepts.) Defined for
    /// every `n`: [`Kernel::check_size`] and [`Kernel::solver`] tell
    /// whether the kernel accepts it. Short for `resolve_for(n, Task::Count)`.
    pub fn resolve(self, n: usize) -> Kernel {
        self.resolve_for(n, Task::Count)
    }

    /// The concrete kernel that would do `task` for size `n`: `Auto`
    /// resolved for that task, `Asm` to its best encoding, any other kernel
    /// itself. Defined for every `n`, as [`Kernel::resolve`]: for sizes no
    /// kernel accepts, `Auto` stays itself, and its size check reports them
    /// in its own name.
    pub fn resolve_for(self, n: usize, task: Task) -> Kernel {
        match self {
            Kernel::Auto => dispatch::auto_kernel(n, task).unwrap_or(Kernel::Auto),
            Kernel::Asm => dispatch::asm_kernel(),
            other => other,
        }
    }

    /// Errors unless the kernel accepts size `n`; defined for every `n`.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is outside [`Kernel::sizes`].
    pub fn check_size(self, n: usize) -> Result<(), Error> {
        let sizes = self.sizes();
        if sizes.contains(&n) {
            Ok(())
        } else {
            Err(Error::SizeOutOfRange {
                n,
                kernel: self,
                min: *sizes.start(),
                max: *sizes.end(),
            })
        }
    }

    /// The solver that counts size `n`: `Auto` resolved, availability and
    /// size checked. Short for `solver_for(n, Task::Count)`.
    pub fn solver(self, n: usize) -> Result<Box<dyn Solver>, Error> {
        self.solver_for(n, Task::Count)
    }

    /// The solver for `task` at size `n`: `Auto` resolved for that task,
    /// availability and size checked.
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] if `n` is outside [`Kernel::sizes`]
    /// (checked first, in the name asked: `auto`'s range is 0 to 32,
    /// `asm`'s 0 to 16), [`Error::KernelUnavailable`] if this CPU or build
    /// cannot run the kernel.
    pub fn solver_for(self, n: usize, task: Task) -> Result<Box<dyn Solver>, Error> {
        self.check_size(n)?;
        let kernel = self.resolve_for(n, task);
        kernel.check_size(n)?;
        dispatch::solver(kernel)
    }

    /// Number of solutions on an `n`x`n` board.
    pub fn count(self, n: usize) -> Result<Count, Error> {
        self.solver(n)?.count(n)
    }

    /// Calls `visit` for every solution until it returns `Break`.
    pub fn for_each_solution(self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.solver_for(n, Task::Enumerate)?
            .for_each_solution(n, visit)
    }

    /// Calls `visit` for every solution whose row-0 queen stands in a
    /// column of `first_row` (bit `c` for column `c`), until it returns
    /// `Break`.
    pub fn for_each_solution_in_first_row(
        self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.solver_for(n, Task::Enumerate)?
            .for_each_solution_in_first_row(n, first_row, visit)
    }

    /// Every solution, in the kernel's own order.
    pub fn solutions(self, n: usize) -> Result<Vec<Board>, Error> {
        self.solver_for(n, Task::Enumerate)?.solutions(n)
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kernel {
    type Err = Error;

    fn from_str(name: &str) -> Result<Kernel, Error> {
        Kernel::ALIASES
            .iter()
            .chain(Kernel::ALL)
            .copied()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::UnknownKernel(name.to_owned()))
    }
}
