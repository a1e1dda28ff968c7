//! The kernel table itself ([`kernels!`]): a row per kernel, and the sizes
//! its rows name.

use core::ops::RangeInclusive;

#[cfg(doc)]
use super::{Build, Family, Method, Role, family_kernel};
#[cfg(doc)]
use crate::Kernel;
use crate::MAX_N;

/// The kernel table: every kernel, one row each, in one place. A new
/// kernel is a new row here (and its code under `src/kernel/`); the rest
/// of the crate is written from these rows, so a row is never missing
/// anywhere: [`Kernel`] and its facts (`FACTS`, [`Kernel::ALL`]) and
/// `target_features!` below, the registry that builds each kernel
/// (`dispatch::registry::build`), `auto`'s lists (by `family`) and the
/// tests' lists of kernels ([`family_kernel!`]).
///
/// The columns:
/// * the variant's docs and name, and its `name` on the command line;
/// * `description`, one line for `--kernels`;
/// * `sizes` it accepts, its [`Role`], the plan [`Method`] whose pieces
///   it counts, if any, and whether it `enumerates` solutions or only
///   counts them;
/// * `family`: the algorithm it encodes ([`Family`]); `auto` orders
///   families, and a family's kernels in this table's order, the widest
///   vectors first;
/// * `cpu`: the features it is compiled for and needs, as
///   `#[target_feature(enable = ...)]` takes them ("" for plain Rust);
/// * `build`: which builds carry its code ([`Build`], a cfg of `build.rs`);
/// * `code`: how the registry builds it, as a whole-board `solver`, as
///   `walkers` of symmetric subproblems or as a `joiner` of half-boards
///   (the traits it counts a plan's pieces by), and the constructor of its
///   type (`kernel_type!`), which exists only where this CPU runs `cpu`.
///   `alias` for `auto` and `asm`, which stand for another kernel.
///
/// The constructor is a path from the crate's root, written here as
/// tokens and expanded only where a callback uses it, behind the root that
/// the callback's caller hands in as a token (`crate`, `$crate`): in the
/// registry (`dispatch`), and in the kernels' tests and traces. This layer
/// imports nothing above it, and so never writes a path to a kernel's
/// code: not even `$crate::` in front of a row's path, which would read
/// as one (to the architecture picture's check, and to a reader).
///
/// `kernels!(callback)` hands every row to the macro `callback` (a path);
/// `kernels!(callback, tokens)` hands it `(tokens)` first. (The callbacks
/// in this file take the rows as they are written; so do the registry's
/// and [`family_kernel!`].)
macro_rules! kernels {
    ($($callback:ident)::+ $(, $($args:tt)*)?) => {
        $($callback)::+! {
            ($($($args)*)?)

            /// The fastest available kernel for the size asked.
            Auto {
                name: "auto",
                description: "the fastest kernel available on this CPU",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Alias,
                cpu: "",
                build: Alias,
                code: alias,
            }
            /// The best encoding of the hand-written assembly this CPU runs:
            /// [`Kernel::AsmAvx`], else [`Kernel::AsmSse41`]. Like `Auto`, a name
            /// that [`crate::dispatch::resolve_for`] turns into a concrete kernel.
            Asm {
                name: "asm",
                description: "the best encoding of the global_asm! kernel this CPU runs",
                sizes: DAVIDAD_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Alias,
                cpu: "",
                build: Alias,
                code: alias,
            }
            /// The symmetric kernel's walkers, 16 at once in the lanes of zmm
            /// registers with AVX-512 F and VPOPCNTDQ (`kernel::lanes`, x86-64
            /// only). Counts only.
            LanesAvx512 {
                name: "lanes-avx512",
                description: "the symmetric kernel's walkers, 16 in the lanes of AVX-512 registers; counts only",
                sizes: LANES_SIZES,
                role: Role::Fast,
                method: Some(Method::Symmetric),
                enumerates: false,
                family: Lanes,
                cpu: "avx512f,avx512vpopcntdq,bmi1,bmi2,lzcnt,popcnt",
                build: Simd,
                code: walkers(kernel::lanes::avx512::LanesAvx512::new),
            }
            /// The symmetric kernel's walkers, 8 at once in the lanes of ymm
            /// registers with AVX2 (`kernel::lanes`, x86-64 only). Counts only.
            LanesAvx2 {
                name: "lanes-avx2",
                description: "the symmetric kernel's walkers, 8 in the lanes of AVX2 registers; counts only",
                sizes: LANES_SIZES,
                role: Role::Fast,
                method: Some(Method::Symmetric),
                enumerates: false,
                family: Lanes,
                cpu: "avx2,bmi1,bmi2,lzcnt,popcnt",
                build: Simd,
                code: walkers(kernel::lanes::avx2::LanesAvx2::new),
            }
            /// [`Kernel::Blocks`] compiled with BMI1 and POPCNT (x86-64 only).
            BlocksBmi {
                name: "blocks-bmi",
                description: "the blocks kernel built with BMI1 and POPCNT",
                sizes: BLOCKS_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Blocks,
                cpu: "bmi1,popcnt",
                build: X86,
                code: solver(kernel::blocks::BlocksBmi::new),
            }
            /// Boards up to N = 8 searched two rows at a time, each choice an AND
            /// of 64-bit sets of the next blocks' placements, the last two rows
            /// counted by one `popcnt`; plain Rust, runs everywhere
            /// (`kernel::blocks`).
            Blocks {
                name: "blocks",
                description: "boards to N = 8, two rows at a time as sets of their placements",
                sizes: BLOCKS_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Blocks,
                cpu: "",
                build: Everywhere,
                code: solver(kernel::blocks::Blocks::new),
            }
            /// [`Kernel::Symmetric`] compiled with BMI1, BMI2, LZCNT and POPCNT
            /// (x86-64 only).
            SymmetricBmi {
                name: "symmetric-bmi",
                description: "the symmetric kernel built with BMI1, BMI2, LZCNT and POPCNT",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Symmetric),
                enumerates: true,
                family: Symmetric,
                cpu: "bmi1,bmi2,lzcnt,popcnt",
                build: X86,
                code: walkers(kernel::symmetric::SymmetricBmi::new),
            }
            /// One search per class of solutions under the symmetries of the
            /// square, dead ends pruned a row ahead; plain Rust, runs everywhere
            /// (`kernel::symmetric`).
            Symmetric {
                name: "symmetric",
                description: "one search per symmetry class, dead ends pruned a row ahead, any target",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Symmetric),
                enumerates: true,
                family: Symmetric,
                cpu: "",
                build: Everywhere,
                code: walkers(kernel::symmetric::Symmetric::new),
            }
            /// [`Kernel::Join`] matching 512 half-boards per step with AVX-512 F
            /// and VPOPCNTDQ (`kernel::join::avx512`, x86-64 only). Counts only.
            JoinAvx512 {
                name: "join-avx512",
                description: "joins half-boards, 512 bit-sliced patterns a step in AVX-512; counts only",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Join),
                enumerates: false,
                family: Join,
                cpu: "avx512f,avx512bw,avx512vpopcntdq,bmi2",
                build: SimdAlloc,
                code: joiner(kernel::join::avx512::JoinAvx512::new),
            }
            /// [`Kernel::Join`] matching 512 half-boards per step with AVX-512 F
            /// and BW, its popcount by `vpshufb` for CPUs without VPOPCNTDQ
            /// (`kernel::join::avx512bw`, x86-64 only). Counts only.
            JoinAvx512Bw {
                name: "join-avx512bw",
                description: "joins half-boards, 512 bit-sliced patterns a step in AVX-512 F/BW, popcount by \
                              vpshufb; counts only",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Join),
                enumerates: false,
                family: Join,
                cpu: "avx512f,avx512bw,bmi2",
                build: SimdAlloc,
                code: joiner(kernel::join::avx512bw::JoinAvx512Bw::new),
            }
            /// [`Kernel::Join`] matching 256 half-boards per step with AVX2
            /// (`kernel::join::avx2`, x86-64 only). Counts only.
            JoinAvx2 {
                name: "join-avx2",
                description: "joins half-boards, 256 bit-sliced patterns a step in AVX2; counts only",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Join),
                enumerates: false,
                family: Join,
                cpu: "avx2",
                build: SimdAlloc,
                code: joiner(kernel::join::avx2::JoinAvx2::new),
            }
            /// Joins west and east half-boards by their rows and the diagonals
            /// between them, no search of the whole board; plain Rust, runs
            /// everywhere (`kernel::join`). Counts only.
            Join {
                name: "join",
                description: "joins half-boards by rows and crossing diagonals, any target; counts only",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: Some(Method::Join),
                enumerates: false,
                family: Join,
                cpu: "",
                build: Alloc,
                code: joiner(kernel::join::Join::new),
            }
            /// Bitmask backtracking in plain Rust; runs everywhere; the oracle.
            Portable {
                name: "portable",
                description: "bitmask backtracking, explicit stack, any target",
                sizes: ALL_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Portable,
                cpu: "",
                build: Everywhere,
                code: solver(kernel::portable::Portable::new),
            }
            /// Seed 002, davidad's xmm state machine in SSE4.1 encodings
            /// (`kernel::sse41`, x86-64 only).
            Sse41 {
                name: "sse41",
                description: "seed 002, davidad's xmm state machine, SSE4.1 encoding",
                sizes: DAVIDAD_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Davidad,
                cpu: "sse4.1",
                build: Simd,
                code: solver(kernel::sse41::Sse41::new),
            }
            /// Seed 002, davidad's xmm state machine in AVX (VEX) encodings
            /// (`kernel::avx`, x86-64 only).
            Avx {
                name: "avx",
                description: "seed 002, davidad's xmm state machine, AVX (VEX) encoding",
                sizes: DAVIDAD_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Davidad,
                cpu: "avx",
                build: Simd,
                code: solver(kernel::avx::Avx::new),
            }
            /// Seed 002 by hand in `asm/davidad.s`, SSE4.1 encoding, resumable
            /// explicit stack (`kernel::asm`, x86-64 Linux only).
            AsmSse41 {
                name: "asm-sse41",
                description: "seed 002 by hand in global_asm!, resumable, SSE4.1 encoding",
                sizes: DAVIDAD_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Davidad,
                cpu: "sse4.1",
                build: Asm,
                code: solver(kernel::asm::Asm::sse41),
            }
            /// Seed 002 by hand in `asm/davidad.s`, AVX (VEX) encoding, resumable
            /// explicit stack (`kernel::asm`, x86-64 Linux only).
            AsmAvx {
                name: "asm-avx",
                description: "seed 002 by hand in global_asm!, resumable, AVX (VEX) encoding",
                sizes: DAVIDAD_SIZES,
                role: Role::Fast,
                method: None,
                enumerates: true,
                family: Davidad,
                cpu: "avx",
                build: Asm,
                code: solver(kernel::asm::Asm::avx),
            }
            /// Seed 000: one `u64` board, recursive scan over its squares
            /// ([`crate::reference::bitboard64`]).
            Bitboard64 {
                name: "bitboard64",
                description: "seed 000, \"Masquerade ball with eight queens\" (2011): u64 board, square scan",
                sizes: RangeInclusive::new(0, 8),
                role: Role::Reference { seed: 0 },
                method: None,
                enumerates: true,
                family: Reference,
                cpu: "",
                build: Everywhere,
                code: solver(reference::bitboard64::Bitboard64::new),
            }
            /// Seed 001: per-square threat masks intersected row by row
            /// ([`crate::reference::threat_masks`]).
            ThreatMasks {
                name: "threat-masks",
                description: "seed 001, \"Haskell Solution to the Eight Queens Problem\" (2014): threat masks",
                sizes: RangeInclusive::new(0, 8),
                role: Role::Reference { seed: 1 },
                method: None,
                enumerates: true,
                family: Reference,
                cpu: "",
                build: Everywhere,
                code: solver(reference::threat_masks::ThreatMasks::new),
            }
            /// Seed 003: all N^N one-queen-per-row placements
            /// ([`crate::reference::brute_force`]).
            BruteForce {
                name: "brute-force",
                description: "seed 003, Andrew Que's brute force (2017): all N^N one-queen-per-row placements",
                sizes: RangeInclusive::new(0, 8),
                role: Role::Reference { seed: 3 },
                method: None,
                enumerates: true,
                family: Reference,
                cpu: "",
                build: Everywhere,
                code: solver(reference::brute_force::BruteForce::new),
            }
            /// Seed 004: Heap's algorithm over the N! permutations
            /// ([`crate::reference::heap_permutations`]).
            HeapPermutations {
                name: "heap",
                description: "seed 004, Andrew Que's permutations (2017): Heap's algorithm, diagonals only",
                sizes: RangeInclusive::new(0, 10),
                role: Role::Reference { seed: 4 },
                method: None,
                enumerates: true,
                family: Reference,
                cpu: "",
                build: Everywhere,
                code: solver(reference::heap_permutations::HeapPermutations::new),
            }
        }
    };
}
pub(crate) use kernels;

/// The sizes of davidad's machine: 16-bit words in one xmm register.
pub(super) const DAVIDAD_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 16);
pub(super) const ALL_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, MAX_N);
/// The sizes of the lane kernels: a lane's squares below bit 24 (see
/// `kernel::lanes`).
pub(super) const LANES_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 24);
/// The sizes of the blocks kernels: a block's placements in one `u64`,
/// 8 columns by 8 (`kernel::blocks::MAX_N` reads it from here).
pub(super) const BLOCKS_SIZES: RangeInclusive<usize> = RangeInclusive::new(0, 8);
