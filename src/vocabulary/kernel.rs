//! The kernel table: every kernel's name ([`Kernel`]) and what is fixed
//! about it, one row each (`FACTS`: name, sizes, role, plan method, CPU
//! features, the builds that carry it), and the words its columns use
//! ([`Method`], [`Role`]). Whether this build and CPU run a kernel is read
//! from its row too ([`Kernel::is_available`]); which kernel runs, and the
//! code that runs it, are the dispatcher's (`crate::dispatch`).
//!
//! This module imports nothing of the crate but [`super::cpu`]: every
//! other layer names kernels through it.

use core::fmt;
use core::ops::RangeInclusive;

use super::cpu::{self, Feature};

/// Largest board side any part of the crate handles.
pub const MAX_N: usize = 32;

/// A size a kernel does not take: [`Kernel::check_size`]'s answer, which
/// `?` turns into [`crate::Error::SizeOutOfRange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedSize {
    /// The size asked for.
    pub n: usize,
    /// The kernel that was asked.
    pub kernel: Kernel,
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

/// How a plan (`plan::Plan`, with the `std` feature) cuts a board into pieces: one method per
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
    /// for a kernel that depends on N (see `dispatch::plan_for`, with the
    /// `std` feature).
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

/// A kernel by name. `Auto` stands for the fastest kernel available on this
/// CPU for the size asked (see [`crate::dispatch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kernel {
    /// The fastest available kernel for the size asked.
    Auto,
    /// The best encoding of the hand-written assembly this CPU runs:
    /// [`Kernel::AsmAvx`], else [`Kernel::AsmSse41`]. Like `Auto`, a name
    /// that [`crate::dispatch::resolve_for`] turns into a concrete kernel.
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
    /// [`Kernel::Join`] matching 512 half-boards per step with AVX-512 F
    /// and BW, its popcount by `vpshufb` for CPUs without VPOPCNTDQ
    /// (`kernel::join::avx512bw`, x86-64 only). Counts only.
    JoinAvx512Bw,
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

/// The algorithm a kernel encodes, one per family of kernels that differ
/// only in the CPU features they are compiled for. `auto` prefers
/// families ([`crate::dispatch`]), and within a family takes the kernels
/// in the kernel table's order, the widest vectors first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// The join of half-boards: `join-avx512`, `join-avx512bw`,
    /// `join-avx2`, `join`.
    Join,
    /// The symmetric walkers in vector lanes: `lanes-avx512`, `lanes-avx2`.
    Lanes,
    /// The symmetric search: `symmetric-bmi`, `symmetric`.
    Symmetric,
    /// Two rows a step as sets of placements: `blocks-bmi`, `blocks`.
    Blocks,
    /// Bitmask backtracking: `portable`.
    Portable,
    /// davidad's xmm state machine: `sse41`, `avx`, `asm-sse41`, `asm-avx`.
    Davidad,
    /// A seed article's own algorithm, each its own: never preferred.
    Reference,
    /// `auto` and `asm`, names for another kernel.
    Alias,
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
    /// The algorithm it encodes: `auto`'s preferences order families, and
    /// within a family the kernels follow this table's order.
    family: Family,
    build: Build,
    cpu: &'static [Feature],
}

/// Each kernel's CPU features, as `#[target_feature(enable = ...)]` takes
/// them: written once, here, for the kernel table and for the kernel's
/// code. `target_features!(LanesAvx2)` is the list (the table's `cpu`
/// column is parsed from it); `target_features!(LanesAvx2 => { fn ... })`
/// compiles each function given with those features, in the kernel's own
/// file. (An attribute takes a literal, not a constant: hence a macro.)
macro_rules! target_features {
    (LanesAvx512 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! {
            @ "avx512f,avx512vpopcntdq,bmi1,bmi2,lzcnt,popcnt" $($then)*
        }
    };
    (LanesAvx2 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx2,bmi1,bmi2,lzcnt,popcnt" $($then)* }
    };
    (BlocksBmi $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "bmi1,popcnt" $($then)* }
    };
    (SymmetricBmi $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "bmi1,bmi2,lzcnt,popcnt" $($then)* }
    };
    (JoinAvx512 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx512f,avx512bw,avx512vpopcntdq,bmi2" $($then)* }
    };
    (JoinAvx512Bw $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx512f,avx512bw,bmi2" $($then)* }
    };
    (JoinAvx2 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx2" $($then)* }
    };
    (Sse41 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "sse4.1" $($then)* }
    };
    (Avx $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx" $($then)* }
    };
    (AsmSse41 $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "sse4.1" $($then)* }
    };
    (AsmAvx $($then:tt)*) => {
        $crate::vocabulary::kernel::target_features! { @ "avx" $($then)* }
    };
    (@ $features:literal) => {
        $features
    };
    (@ $features:literal => { $($item:item)* }) => {
        $( #[target_feature(enable = $features)] $item )*
    };
}
pub(crate) use target_features;

/// The kernel table's `cpu` column for a kernel of [`target_features!`].
macro_rules! cpu_of {
    ($kernel:ident) => {
        &cpu::named::<{ cpu::count_named(target_features!($kernel)) }>(target_features!($kernel))
    };
}

/// The sizes of davidad's machine: 16-bit words in one xmm register.
const DAVIDAD_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 16);
const ALL_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, MAX_N);
/// The sizes of the lane kernels: a lane's squares below bit 24 (see
/// `kernel::lanes`).
const LANES_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 24);
/// The sizes of the blocks kernels: a block's placements in one `u64`,
/// 8 columns by 8 (`kernel::blocks::MAX_N` reads it from here).
const BLOCKS_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 8);

/// One row per kernel, in the order of [`Kernel`]'s variants (checked at
/// compile time below).
const FACTS: [Facts; 21] = [
    Facts {
        kernel: Kernel::Auto,
        name: "auto",
        description: "the fastest kernel available on this CPU",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Alias,
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
        family: Family::Alias,
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
        family: Family::Lanes,
        build: Build::Simd,
        cpu: cpu_of!(LanesAvx512),
    },
    Facts {
        kernel: Kernel::LanesAvx2,
        name: "lanes-avx2",
        description: "the symmetric kernel's walkers, 8 in the lanes of AVX2 registers; counts only",
        sizes: LANES_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: false,
        family: Family::Lanes,
        build: Build::Simd,
        cpu: cpu_of!(LanesAvx2),
    },
    Facts {
        kernel: Kernel::BlocksBmi,
        name: "blocks-bmi",
        description: "the blocks kernel built with BMI1 and POPCNT",
        sizes: BLOCKS_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Blocks,
        build: Build::X86,
        cpu: cpu_of!(BlocksBmi),
    },
    Facts {
        kernel: Kernel::Blocks,
        name: "blocks",
        description: "boards to N = 8, two rows at a time as sets of their placements",
        sizes: BLOCKS_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Blocks,
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
        family: Family::Symmetric,
        build: Build::X86,
        cpu: cpu_of!(SymmetricBmi),
    },
    Facts {
        kernel: Kernel::Symmetric,
        name: "symmetric",
        description: "one search per symmetry class, dead ends pruned a row ahead, any target",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Symmetric),
        enumerates: true,
        family: Family::Symmetric,
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
        family: Family::Join,
        build: Build::SimdAlloc,
        cpu: cpu_of!(JoinAvx512),
    },
    Facts {
        kernel: Kernel::JoinAvx512Bw,
        name: "join-avx512bw",
        description: "joins half-boards, 512 bit-sliced patterns a step in AVX-512 F/BW, popcount by \
                      vpshufb; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        family: Family::Join,
        build: Build::SimdAlloc,
        cpu: cpu_of!(JoinAvx512Bw),
    },
    Facts {
        kernel: Kernel::JoinAvx2,
        name: "join-avx2",
        description: "joins half-boards, 256 bit-sliced patterns a step in AVX2; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        family: Family::Join,
        build: Build::SimdAlloc,
        cpu: cpu_of!(JoinAvx2),
    },
    Facts {
        kernel: Kernel::Join,
        name: "join",
        description: "joins half-boards by rows and crossing diagonals, any target; counts only",
        sizes: ALL_SIZES,
        role: Role::Fast,
        method: Some(Method::Join),
        enumerates: false,
        family: Family::Join,
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
        family: Family::Portable,
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
        family: Family::Davidad,
        build: Build::Simd,
        cpu: cpu_of!(Sse41),
    },
    Facts {
        kernel: Kernel::Avx,
        name: "avx",
        description: "seed 002, davidad's xmm state machine, AVX (VEX) encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Davidad,
        build: Build::Simd,
        cpu: cpu_of!(Avx),
    },
    Facts {
        kernel: Kernel::AsmSse41,
        name: "asm-sse41",
        description: "seed 002 by hand in global_asm!, resumable, SSE4.1 encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Davidad,
        build: Build::Asm,
        cpu: cpu_of!(AsmSse41),
    },
    Facts {
        kernel: Kernel::AsmAvx,
        name: "asm-avx",
        description: "seed 002 by hand in global_asm!, resumable, AVX (VEX) encoding",
        sizes: DAVIDAD_SIZES,
        role: Role::Fast,
        method: None,
        enumerates: true,
        family: Family::Davidad,
        build: Build::Asm,
        cpu: cpu_of!(AsmAvx),
    },
    Facts {
        kernel: Kernel::Bitboard64,
        name: "bitboard64",
        description: "seed 000, \"Masquerade ball with eight queens\" (2011): u64 board, square scan",
        sizes: RangeInclusive::new(0, 8),
        role: Role::Reference { seed: 0 },
        method: None,
        enumerates: true,
        family: Family::Reference,
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
        family: Family::Reference,
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
        family: Family::Reference,
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
        family: Family::Reference,
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

    /// The names that stand for another kernel: [`crate::dispatch::resolve_for`] turns
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

    /// Whether the kernel counts a plan's subproblems (`plan`), and so
    /// runs on several threads, in shards and from checkpoints: those with
    /// a [`Kernel::method`], and `auto`, which counts the plan of the
    /// kernel it picks for N.
    pub const fn splits(self) -> bool {
        self.facts().method.is_some() || matches!(self, Kernel::Auto)
    }

    /// Whether the kernel counts a whole board on several threads
    /// (`dispatch::count_on_threads`, with the `std` feature): exactly
    /// those that split, through their plan.
    pub const fn counts_on_threads(self) -> bool {
        self.splits()
    }

    /// Whether the kernel visits solutions (enumeration, `--unique`) as
    /// well as counting them. Those that only count answer the rest with
    /// [`crate::Error::CountOnly`].
    pub const fn enumerates(self) -> bool {
        self.facts().enumerates
    }

    /// The algorithm it encodes.
    pub(crate) const fn family(self) -> Family {
        self.facts().family
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

    /// The CPU features the kernel needs, by their names in
    /// `#[target_feature(enable = ...)]` (`"sse4.1"`, `"avx2"`), in the
    /// order of [`Kernel::unavailable_because`]'s checks; empty for a
    /// kernel that runs on every CPU.
    pub fn cpu_feature_names(self) -> impl Iterator<Item = &'static str> {
        self.cpu_features().iter().map(|feature| feature.name())
    }

    /// Errors unless the kernel accepts size `n`; defined for every `n`.
    /// (The answer converts to [`crate::Error::SizeOutOfRange`] with `?`.)
    ///
    /// # Errors
    ///
    /// [`UnsupportedSize`] if `n` is outside [`Kernel::sizes`].
    pub const fn check_size(self, n: usize) -> Result<(), UnsupportedSize> {
        let sizes = &self.facts().sizes;
        if *sizes.start() <= n && n <= *sizes.end() {
            Ok(())
        } else {
            Err(UnsupportedSize { n, kernel: self })
        }
    }

    /// Whether this CPU and build can run the kernel. Always true for
    /// `Auto`, which falls back to `Portable`; true for `Asm` where either
    /// encoding runs.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Auto => true,
            // Either encoding of the assembly.
            Kernel::Asm => Kernel::AsmAvx.is_available() || Kernel::AsmSse41.is_available(),
            // The kernel's type is built exactly where this holds (its
            // `new()` asks for the row's features; the dispatcher's tests
            // check that every kernel said to run here is built).
            _ => absent_because(self).is_none() && super::cpu::has_all(self.cpu_features()),
        }
    }

    /// Why this CPU or build cannot run the kernel, or `None` if it can.
    /// The build's reason comes first; the CPU's only where it is built.
    pub fn unavailable_because(self) -> Option<&'static str> {
        if self.is_available() {
            return None;
        }
        // `asm` needs at least its SSE4.1 encoding.
        let needs = if self == Kernel::Asm {
            Kernel::AsmSse41
        } else {
            self
        };
        Some(absent_because(needs).unwrap_or(match needs.cpu_features() {
            [Feature::Sse41] => "this CPU lacks SSE4.1",
            [Feature::Avx] => "this CPU or its operating system lacks AVX",
            [Feature::Avx2] => "this CPU or its operating system lacks AVX2",
            [
                Feature::Avx512F,
                Feature::Avx512Vpopcntdq,
            ] => "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ",
            [Feature::Avx512F, Feature::Avx512Bw, ..] => {
                "this CPU or its operating system lacks AVX-512 F or BW, or BMI2"
            }
            [Feature::Avx2, ..] => {
                "this CPU or its operating system lacks AVX2, or one of BMI1, BMI2, LZCNT and POPCNT"
            }
            [Feature::Avx512F, ..] => {
                "this CPU or its operating system lacks AVX-512 F or VPOPCNTDQ, or one of BMI1, \
                 BMI2, LZCNT and POPCNT"
            }
            [] => "it is not built in",
            _ => "this CPU lacks one of BMI1, BMI2, LZCNT and POPCNT",
        }))
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

/// Why this build does not carry `kernel` at all, or `None` if it does.
pub(crate) fn absent_because(kernel: Kernel) -> Option<&'static str> {
    let built = match kernel.build() {
        Build::Everywhere | Build::Alias => true,
        Build::Alloc => cfg!(feature = "alloc"),
        Build::X86 => cfg!(x86_kernels),
        Build::Simd => cfg!(simd_kernels),
        Build::SimdAlloc => cfg!(all(simd_kernels, feature = "alloc")),
        Build::Asm => cfg!(asm_kernels),
    };
    // The first of the aliases' conditions (see `build.rs`) that fails.
    (!built).then_some(
        if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::Alloc) {
            "it needs the crate's alloc feature"
        } else if PORTABLE_FORCED {
            FORCED_BECAUSE
        } else if !cfg!(target_arch = "x86_64") {
            "it needs an x86-64 target"
        } else if !cfg!(simd_kernels) {
            "this target has no vector registers (a soft-float target)"
        } else if !cfg!(feature = "alloc") && matches!(kernel.build(), Build::SimdAlloc) {
            "it needs the crate's alloc feature"
        } else {
            "its assembly is ELF for the System V ABI, built for x86-64 Linux only"
        },
    )
}

/// Whether this build was made with `queens_simd_force_portable`, which
/// leaves `auto` only the plain-Rust kernels: `portable`, `symmetric`,
/// `blocks` and `join`.
const PORTABLE_FORCED: bool = cfg!(queens_simd_force_portable);

/// Why a SIMD or asm kernel is missing from such a build.
const FORCED_BECAUSE: &str = "this build forces the portable kernel (queens_simd_force_portable)";

/// Where this build forces the portable kernels (built with `--cfg
/// queens_simd_force_portable`, or `QUEENS_SIMD_FORCE_PORTABLE=1`), the
/// sentence that says so, which [`Kernel::unavailable_because`] gives for
/// each SIMD or asm kernel; `None` in every other build.
pub fn portable_forced() -> Option<&'static str> {
    PORTABLE_FORCED.then_some(FORCED_BECAUSE)
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
                Kernel::JoinAvx512Bw,
                Kernel::JoinAvx2,
                Kernel::Join
            ]
        );
        for &kernel in Kernel::ALIASES.iter().chain(Kernel::ALL) {
            assert_eq!(kernel.counts_on_threads(), kernel.splits(), "{kernel}");
            assert_eq!(Method::of(kernel), kernel.method(), "{kernel}");
        }
        let join: Vec<Kernel> = Method::Join.kernels().collect();
        assert_eq!(
            join,
            [
                Kernel::JoinAvx512,
                Kernel::JoinAvx512Bw,
                Kernel::JoinAvx2,
                Kernel::Join
            ]
        );
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
            Kernel::JoinAvx512Bw,
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
                | Kernel::JoinAvx512Bw
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
