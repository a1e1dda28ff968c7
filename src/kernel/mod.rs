//! Kernels: every algorithm that counts and enumerates N-Queens solutions,
//! behind one trait ([`Solver`]), one name space ([`Kernel`]) and one table
//! of what each kernel is (`FACTS`: name, sizes, role, plan method, CPU
//! features). This module says what a kernel is, never which one runs:
//! [`crate::dispatch`] decides that, and nothing under `kernel/` imports
//! it.
//!
//! # Layers
//!
//! Imports run one way, down this list:
//!
//! 1. `pieces` (with `std`): a plan's pieces as each family cuts them, and
//!    the one type that counts them, `PieceCounter`, which the dispatcher
//!    builds and the plan runs;
//! 2. the lane kernels (`lanes`), which walk the symmetric kernel's
//!    subproblems in vector lanes;
//! 3. the families, which know nothing of each other: `symmetric`,
//!    `join`, `portable`, davidad's machine (`davidad`, `sse41`, `avx`,
//!    `asm`), and the seeds' reference solvers in [`crate::reference`];
//! 4. this module: the names, the table, the traits.
//!
//! # Adding a kernel
//!
//! 1. Its file(s): a type that implements [`Solver`] and can be built only
//!    where it runs (`new() -> Option<Self>`, asking the CPU for the
//!    features of its row). A kernel that counts a plan's pieces also
//!    implements its family's trait (the symmetric kernel's `Walkers`, the
//!    join's `Joiner`).
//! 2. Its row of the kernel table: a variant of [`Kernel`] and its `FACTS`
//!    row, in the same place.
//! 3. In `crate::dispatch`: the line of `build` that makes its type, and
//!    its place in `auto`'s preference lists.
//!
//! Nothing else names it: the plan, the errors, `--kernels` and the hints
//! of the command line read the table. The dispatcher's tests fail while a
//! kernel is missing from `build` or from a preference list.

pub mod blocks;
#[cfg(feature = "alloc")]
pub mod join;
#[cfg(feature = "std")]
pub(crate) mod pieces;
pub mod portable;
pub mod symmetric;

// The hand-written assembly is ELF for the System V ABI: x86-64 Linux only.
// Elsewhere its `Kernel` variants stay (so their names parse) and report
// themselves unavailable; so do davidad's intrinsics kernels where the
// target has no vector registers or the portable kernel is forced.
#[cfg(asm_kernels)]
pub mod asm;
#[cfg(simd_kernels)]
pub mod avx;
#[cfg(simd_kernels)]
pub mod davidad;
#[cfg(simd_kernels)]
pub mod lanes;
#[cfg(simd_kernels)]
pub mod sse41;

use core::fmt;
use core::ops::{ControlFlow, RangeInclusive};

use crate::cpu::Feature;
use crate::{Board, Count, Error};

/// What a kernel calls for each solution it finds; `Break` stops the search.
pub type Visit<'a> = &'a mut dyn FnMut(&Board) -> ControlFlow<()>;

/// What a solve does, for `auto`'s choice: the fastest kernel for counting
/// is not always the fastest for visiting every solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    #[cfg(feature = "alloc")]
    fn solutions(&self, n: usize) -> Result<alloc::vec::Vec<Board>, Error> {
        let mut all = alloc::vec::Vec::new();
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
#[non_exhaustive]
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

/// How a [`crate::plan::Plan`] cuts a board into pieces: one method per
/// family of kernels that count pieces, each family counting only its
/// own method's. Each kernel's method is a column of the kernel table
/// ([`Kernel::method`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// The symmetric kernel's subproblems (corner, edge and tie cases,
    /// split by their first rows), counted by the symmetric and lane
    /// kernels.
    Symmetric,
    /// The join kernels' pieces (row sets of the west half, by their first
    /// choices), counted by the join kernels.
    Join,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 2] = [Method::Symmetric, Method::Join];

    /// Its name in records and messages: `symmetric` or `join`.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Symmetric => "symmetric",
            Method::Join => "join",
        }
    }

    /// The method whose plans the concrete `kernel` counts: its
    /// [`Kernel::method`], read from the kernel table. `None` for a kernel
    /// that counts no plan's pieces, and for `auto` and `asm`, which stand
    /// for a kernel that depends on N (see [`crate::plan::Plan::for_kernel`]).
    pub const fn of(kernel: Kernel) -> Option<Method> {
        kernel.method()
    }

    /// The kernels that count this method's plans, in the kernel table's
    /// order (fastest first).
    pub fn kernels(self) -> impl DoubleEndedIterator<Item = Kernel> {
        Kernel::ALL
            .iter()
            .copied()
            .filter(move |k| k.method() == Some(self))
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// A kernel by name. `Auto` stands for the fastest kernel available on this
/// CPU for the size asked (see [`crate::dispatch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kernel {
    /// The fastest available kernel for the size asked.
    Auto,
    /// The best encoding of the hand-written assembly this CPU runs:
    /// [`Kernel::AsmAvx`], else [`Kernel::AsmSse41`]. Like `Auto`, a name
    /// that [`Kernel::resolve`] turns into a concrete kernel.
    Asm,
    /// The symmetric kernel's walkers, 16 at once in the lanes of zmm
    /// registers with AVX-512 F and VPOPCNTDQ (`kernel::lanes`, x86-64
    /// only). Counts only.
    LanesAvx512,
    /// The symmetric kernel's walkers, 8 at once in the lanes of ymm
    /// registers with AVX2 (`kernel::lanes`, x86-64 only). Counts only.
    LanesAvx2,
    /// [`Kernel::Blocks`] compiled with BMI1 and POPCNT (x86-64 only).
    BlocksBmi,
    /// Boards up to N = 8 searched two rows at a time, each choice an AND
    /// of 64-bit sets of the next blocks' placements, the last two rows
    /// counted by one `popcnt`; plain Rust, runs everywhere
    /// (`kernel::blocks`).
    Blocks,
    /// [`Kernel::Symmetric`] compiled with BMI1, BMI2, LZCNT and POPCNT
    /// (x86-64 only).
    SymmetricBmi,
    /// One search per class of solutions under the symmetries of the
    /// square, dead ends pruned a row ahead; plain Rust, runs everywhere
    /// (`kernel::symmetric`).
    Symmetric,
    /// [`Kernel::Join`] matching 512 half-boards per step with AVX-512 F
    /// and VPOPCNTDQ (`kernel::join::avx512`, x86-64 only). Counts only.
    JoinAvx512,
    /// [`Kernel::Join`] matching 256 half-boards per step with AVX2
    /// (`kernel::join::avx2`, x86-64 only). Counts only.
    JoinAvx2,
    /// Joins west and east half-boards by their rows and the diagonals
    /// between them, no search of the whole board; plain Rust, runs
    /// everywhere (`kernel::join`). Counts only.
    Join,
    /// Bitmask backtracking in plain Rust; runs everywhere; the oracle.
    Portable,
    /// Seed 002, davidad's xmm state machine in SSE4.1 encodings
    /// (`kernel::sse41`, x86-64 only).
    Sse41,
    /// Seed 002, davidad's xmm state machine in AVX (VEX) encodings
    /// (`kernel::avx`, x86-64 only).
    Avx,
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

/// Which builds carry a kernel's code (see `build.rs` for the cfgs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// Every build: plain Rust.
    Everywhere,
    /// Builds with the `alloc` feature: plain Rust that holds sets of
    /// half-boards.
    Alloc,
    /// `Simd` builds with the `alloc` feature.
    SimdAlloc,
    /// x86-64 builds that do not force the portable kernel (`x86_kernels`).
    X86,
    /// Those whose target has vector registers (`simd_kernels`).
    Simd,
    /// Those on Linux, for the ELF assembly (`asm_kernels`).
    Asm,
    /// A name for another kernel, resolved by the dispatcher.
    Alias,
}

/// Everything fixed about a kernel, one row per kernel in [`FACTS`].
struct Facts {
    kernel: Kernel,
    name: &'static str,
    description: &'static str,
    sizes: RangeInclusive<usize>,
    role: Role,
    /// The plan whose pieces it counts (on threads, in shards, from
    /// checkpoints), if any: a symmetric plan for the symmetric and lane
    /// kernels, a join plan for the join kernels. (`auto` counts the plan
    /// of the kernel it picks for N: see [`Kernel::splits`].)
    method: Option<Method>,
    /// Whether it visits solutions (enumeration, fundamental solutions)
    /// as well as counting them.
    enumerates: bool,
    build: Build,
    cpu: &'static [Feature],
}

/// The sizes of davidad's machine: 16-bit words in one xmm register.
const DAVIDAD_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 16);
const ALL_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, crate::MAX_N);
/// The sizes of the lane kernels: a lane's squares below bit 24 (see
/// `kernel::lanes`).
const LANES_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 24);
/// The sizes of the blocks kernels: a block's placements in one `u64`.
const BLOCKS_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, blocks::MAX_N);
const BMI: &[Feature] = &[
    Feature::Bmi1,
    Feature::Bmi2,
    Feature::Lzcnt,
    Feature::Popcnt,
];

/// One row per kernel, in the order of [`Kernel`]'s variants (checked at
/// compile time below).
const FACTS: [Facts; 20] = [
    Facts {
        kernel: Kernel::Auto,
        name: "auto",
        description: "the fastest kernel available on this CPU",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Alias,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::Asm,
        name: "asm",
        description: "the best encoding of the global_asm! kernel this CPU runs",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Alias,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::LanesAvx512,
        name: "lanes-avx512",
        description: "the symmetric kernel's walkers, 16 in the lanes of AVX-512 registers; counts only",
        sizes: LANES_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: false,
        build: Build::Simd,
        cpu: &[
            Feature::Avx512F,
            Feature::Avx512Vpopcntdq,
            Feature::Bmi1,
            Feature::Bmi2,
            Feature::Lzcnt,
            Feature::Popcnt,
        ],
    },
    Facts {
        kernel: Kernel::LanesAvx2,
        name: "lanes-avx2",
        description: "the symmetric kernel's walkers, 8 in the lanes of AVX2 registers; counts only",
        sizes: LANES_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: false,
        build: Build::Simd,
        cpu: &[
            Feature::Avx2,
            Feature::Bmi1,
            Feature::Bmi2,
            Feature::Lzcnt,
            Feature::Popcnt,
        ],
    },
    Facts {
        kernel: Kernel::BlocksBmi,
        name: "blocks-bmi",
        description: "the blocks kernel built with BMI1 and POPCNT",
        sizes: BLOCKS_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::X86,
        cpu: &[Feature::Bmi1, Feature::Popcnt],
    },
    Facts {
        kernel: Kernel::Blocks,
        name: "blocks",
        description: "boards to N = 8, two rows at a time as sets of their placements",
        sizes: BLOCKS_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::SymmetricBmi,
        name: "symmetric-bmi",
        description: "the symmetric kernel built with BMI1, BMI2, LZCNT and POPCNT",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: true,
        build: Build::X86,
        cpu: BMI,
    },
    Facts {
        kernel: Kernel::Symmetric,
        name: "symmetric",
        description: "one search per symmetry class, dead ends pruned a row ahead, any target",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::JoinAvx512,
        name: "join-avx512",
        description: "joins half-boards, 512 bit-sliced patterns a step in AVX-512; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        build: Build::SimdAlloc,
        cpu: &[Feature::Avx512F, Feature::Avx512Vpopcntdq, Feature::Bmi2],
    },
    Facts {
        kernel: Kernel::JoinAvx2,
        name: "join-avx2",
        description: "joins half-boards, 256 bit-sliced patterns a step in AVX2; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        build: Build::SimdAlloc,
        cpu: &[Feature::Avx2],
    },
    Facts {
        kernel: Kernel::Join,
        name: "join",
        description: "joins half-boards by rows and crossing diagonals, any target; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        build: Build::Alloc,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::Portable,
        name: "portable",
        description: "bitmask backtracking, explicit stack, any target",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::Sse41,
        name: "sse41",
        description: "seed 002, davidad's xmm state machine, SSE4.1 encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Simd,
        cpu: &[Feature::Sse41],
    },
    Facts {
        kernel: Kernel::Avx,
        name: "avx",
        description: "seed 002, davidad's xmm state machine, AVX (VEX) encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Simd,
        cpu: &[Feature::Avx],
    },
    Facts {
        kernel: Kernel::AsmSse41,
        name: "asm-sse41",
        description: "seed 002 by hand in global_asm!, resumable, SSE4.1 encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Asm,
        cpu: &[Feature::Sse41],
    },
    Facts {
        kernel: Kernel::AsmAvx,
        name: "asm-avx",
        description: "seed 002 by hand in global_asm!, resumable, AVX (VEX) encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        build: Build::Asm,
        cpu: &[Feature::Avx],
    },
    Facts {
        kernel: Kernel::Bitboard64,
        name: "bitboard64",
        description: "seed 000, \"Masquerade ball with eight queens\" (2011): u64 board, square scan",
        sizes: RangeInclusive::new(0, 8),
        role: Role::Reference { seed: 0 },
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::ThreatMasks,
        name: "threat-masks",
        description: "seed 001, \"Haskell Solution to the Eight Queens Problem\" (2014): threat masks",
        sizes: RangeInclusive::new(0, 8),
        role: Role::Reference { seed: 1 },
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::BruteForce,
        name: "brute-force",
        description: "seed 003, Andrew Que's brute force (2017): all N^N one-queen-per-row placements",
        sizes: RangeInclusive::new(0, 8),
        role: Role::Reference { seed: 3 },
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
    Facts {
        kernel: Kernel::HeapPermutations,
        name: "heap",
        description: "seed 004, Andrew Que's permutations (2017): Heap's algorithm, diagonals only",
        sizes: RangeInclusive::new(0, 10),
        role: Role::Reference { seed: 4 },
        method: None,
        enumerates: true,
        build: Build::Everywhere,
        cpu: &[],
    },
];

/// [`Kernel::ALL`]: the table's kernels that are not aliases, in its order.
const CONCRETE: [Kernel; FACTS.len() - ALIAS_COUNT] = {
    let mut concrete = [Kernel::Auto; FACTS.len() - ALIAS_COUNT];
    let (mut row, mut next) = (0, 0);
    while row < FACTS.len() {
        if !matches!(FACTS[row].build, Build::Alias) {
            concrete[next] = FACTS[row].kernel;
            next += 1;
        }
        row += 1;
    }
    assert!(next == concrete.len());
    concrete
};

/// `auto` and `asm`.
const ALIAS_COUNT: usize = 2;

// Each row sits at its variant's index.
const _: () = {
    let mut i = 0;
    while i < FACTS.len() {
        assert!(FACTS[i].kernel as usize == i);
        i += 1;
    }
};

impl Kernel {
    /// Every concrete kernel (not `Auto` or `Asm`), fast kernels first:
    /// the kernel table's rows, aliases left out.
    pub const ALL: &'static [Kernel] = &CONCRETE;

    /// The names that stand for another kernel: [`Kernel::resolve`] turns
    /// them into one of [`Kernel::ALL`].
    pub const ALIASES: &'static [Kernel] = &[Kernel::Auto, Kernel::Asm];

    const fn facts(self) -> &'static Facts {
        &FACTS[self as usize]
    }

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        self.facts().name
    }

    /// One line saying what the kernel is.
    pub const fn description(self) -> &'static str {
        self.facts().description
    }

    /// Board sizes the kernel accepts.
    pub const fn sizes(self) -> RangeInclusive<usize> {
        // `RangeInclusive` is not `Copy`; its ends are.
        let sizes = &self.facts().sizes;
        RangeInclusive::new(*sizes.start(), *sizes.end())
    }

    /// Production kernel or seed reference.
    pub const fn role(self) -> Role {
        self.facts().role
    }

    /// The plan whose pieces the kernel counts, and so on several threads,
    /// in shards and from checkpoints: [`Method::Symmetric`] for the
    /// symmetric and lane kernels, [`Method::Join`] for the join kernels,
    /// `None` for the others and for the aliases (`auto` counts the plan of
    /// the kernel it picks for N).
    pub const fn method(self) -> Option<Method> {
        self.facts().method
    }

    /// Whether the kernel counts a [`crate::plan`]'s subproblems, and so
    /// runs on several threads, in shards and from checkpoints: those with
    /// a [`Kernel::method`], and `auto`, which counts the plan of the
    /// kernel it picks for N.
    pub const fn splits(self) -> bool {
        self.facts().method.is_some() || matches!(self, Kernel::Auto)
    }

    /// Whether the kernel counts a whole board on several threads
    /// ([`Kernel::count_on_threads`]): exactly those that split, through
    /// their plan.
    pub const fn counts_on_threads(self) -> bool {
        self.splits()
    }

    /// Whether the kernel visits solutions (enumeration, `--unique`) as
    /// well as counting them. Those that only count answer the rest with
    /// [`Error::CountOnly`].
    pub const fn enumerates(self) -> bool {
        self.facts().enumerates
    }

    /// Which builds carry the kernel.
    pub(crate) const fn build(self) -> Build {
        self.facts().build
    }

    /// The CPU features the kernel needs; its type's `new()` asks for
    /// exactly these.
    pub(crate) const fn cpu_features(self) -> &'static [Feature] {
        self.facts().cpu
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

    /// The kernel called `name` on the command line, if any. (With the
    /// `alloc` feature, `name.parse::<Kernel>()` says which names exist.)
    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALIASES
            .iter()
            .chain(Kernel::ALL)
            .copied()
            .find(|k| k.name() == name)
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "alloc")]
impl core::str::FromStr for Kernel {
    type Err = Error;

    fn from_str(name: &str) -> Result<Kernel, Error> {
        Kernel::from_name(name).ok_or_else(|| Error::UnknownKernel(name.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_finds_its_kernel_and_no_other() {
        for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
            assert_eq!(Kernel::from_name(kernel.name()), Some(kernel));
            assert_eq!(kernel.name().parse::<Kernel>(), Ok(kernel));
        }
        for name in ["", "AUTO", "sse4.1", "asm ", "symmetric_bmi"] {
            assert_eq!(Kernel::from_name(name), None, "{name:?}");
        }
        assert_eq!(
            Kernel::ALL.len() + Kernel::ALIASES.len(),
            FACTS.len(),
            "every row is a kernel or an alias"
        );
    }

    #[test]
    fn the_kernels_that_split_are_those_with_a_plan_method_and_auto() {
        let splitting: Vec<Kernel> = Kernel::ALIASES
            .iter()
            .chain(Kernel::ALL)
            .copied()
            .filter(|k| k.splits())
            .collect();
        assert_eq!(
            splitting,
            [
                Kernel::Auto,
                Kernel::LanesAvx512,
                Kernel::LanesAvx2,
                Kernel::SymmetricBmi,
                Kernel::Symmetric,
                Kernel::JoinAvx512,
                Kernel::JoinAvx2,
                Kernel::Join
            ]
        );
        for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
            assert_eq!(kernel.counts_on_threads(), kernel.splits(), "{kernel}");
            assert_eq!(Method::of(kernel), kernel.method(), "{kernel}");
        }
        let join: Vec<Kernel> = Method::Join.kernels().collect();
        assert_eq!(join, [Kernel::JoinAvx512, Kernel::JoinAvx2, Kernel::Join]);
        for method in Method::ALL {
            assert_eq!(method.name().parse::<Method>(), Ok(method));
            assert!(method.kernels().all(|k| k.role() == Role::Fast));
        }
    }

    /// Every variant of [`Kernel`], by a match with no wildcard: a new
    /// variant does not compile here until it is listed, and then the
    /// table's checks (above, and the dispatcher's) see it.
    #[test]
    fn every_variant_has_its_row() {
        let every = [
            Kernel::Auto,
            Kernel::Asm,
            Kernel::LanesAvx512,
            Kernel::LanesAvx2,
            Kernel::BlocksBmi,
            Kernel::Blocks,
            Kernel::SymmetricBmi,
            Kernel::Symmetric,
            Kernel::JoinAvx512,
            Kernel::JoinAvx2,
            Kernel::Join,
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
        for kernel in every {
            match kernel {
                Kernel::Auto
                | Kernel::Asm
                | Kernel::LanesAvx512
                | Kernel::LanesAvx2
                | Kernel::BlocksBmi
                | Kernel::Blocks
                | Kernel::SymmetricBmi
                | Kernel::Symmetric
                | Kernel::JoinAvx512
                | Kernel::JoinAvx2
                | Kernel::Join
                | Kernel::Portable
                | Kernel::Sse41
                | Kernel::Avx
                | Kernel::AsmSse41
                | Kernel::AsmAvx
                | Kernel::Bitboard64
                | Kernel::ThreatMasks
                | Kernel::BruteForce
                | Kernel::HeapPermutations => {}
            }
            assert_eq!(kernel.facts().kernel, kernel, "{kernel:?}");
            let listed = Kernel::ALIASES.contains(&kernel) || Kernel::ALL.contains(&kernel);
            assert!(listed, "{kernel:?}");
        }
        assert_eq!(every.len(), FACTS.len());
    }
}
