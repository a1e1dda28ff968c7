//! Seed 002, davidad's register-only state machine ("Overkilling the
//! 8-queens problem", 2014), written once and instantiated per instruction
//! set by the crate-private `davidad_kernel!` macro: [`super::sse41`]
//! (legacy SSE encodings) and [`super::avx`] (VEX three-operand encodings).
//!
//! `docs/davidad.md` in the repository draws the register below row by row,
//! from this code's own state (the `trace` feature).
//!
//! # The machine
//!
//! The attacks on the row being filled live in one xmm register, `state`,
//! as three 16-bit words (bit `c` of a word is column `c`):
//!
//! | word | holds | moves one row down by |
//! |---|---|---|
//! | 0 | occupied columns | staying put |
//! | 1 | diagonals running down-right | `psrlw 1` |
//! | 2 | diagonals running down-left | `psllw 1` |
//!
//! Placing a queen in column `c` ORs `0x0001_0001_0001 << c` into the
//! register (one `movq` from a general register, one `por`): the queen
//! takes its column and starts both diagonals. Moving to the next row
//! shifts every word both ways (`psllw`, `psrlw`) and keeps only the right
//! word of each copy (two `pblendw`). The squares attacked in the new row
//! are the OR of the three words, gathered into word 0 by byte shifts
//! (`psrldq 2`, `psrldq 4`, two `por`); `pandn` against the board's columns
//! (word 0 only) turns that into the free squares, and `movq` takes them
//! to a general register, where a bit scan (`bsf`/`tzcnt`) picks the next
//! queen. Backtracking pops (free squares, state) pairs from a stack.
//!
//! # Faithful, and where it is generalised
//!
//! The instruction sequence is the article's, one intrinsic per
//! instruction. The article fixes N = 8; here the board's column mask is
//! `(1 << N) - 1` and a solution is found at depth N, for every N from 1 to
//! 16 (16-bit words; a diagonal bit shifted past column 15 or below column 0
//! leaves its word, exactly as off-board attacks should). The article keeps
//! its stack on `rsp` and finds depth by comparing `rsp`; here the stack is
//! two arrays indexed by the depth. Like the article, the machine pushes a
//! frame for every queen it places, even when the row below turns out to
//! have no free square (the portable kernel skips those frames). The
//! enumerating instance also records each row's queen, which the article's
//! counting version did not need.
//!
//! The bit scan is `u64::trailing_zeros` on a value known to be non-zero;
//! LLVM encodes it as `tzcnt` (`rep bsf`), which CPUs without BMI1 execute
//! as the article's `bsf`, with the same result. The article's `btc` becomes
//! `free &= free - 1`, which clears the same (lowest) bit.
//!
//! The compiler chooses registers and may schedule the instructions
//! differently; `cli/tests/program/disassembly.rs` checks that the built kernels still
//! contain the article's instructions in the encoding each kernel claims.

use core::arch::x86_64::__m128i;
use core::ops::ControlFlow;

use crate::Board;
use crate::kernel::Visit;

/// Largest board the machine handles: one bit per column in a 16-bit word.
pub const MAX_N: usize = 16;

/// What the machine does at a solution. The two instances are monomorphised
/// into each kernel, so counting carries no board and no call.
pub(crate) trait Leaf {
    /// Whether the machine must record each row's queen for
    /// [`Leaf::solution`].
    const NEEDS_QUEENS: bool;

    /// Called once per solution with its queen columns, row by row (empty
    /// unless [`Leaf::NEEDS_QUEENS`]).
    fn solution(&mut self, queens: &[u8]) -> ControlFlow<()>;

    /// Called after each queen placed in `row` (above the last row) with
    /// the register at each stage of the step. Only the trace (feature
    /// `trace`, which draws the docs' pictures) looks; the counting and
    /// enumerating leaves keep this empty default, which compiles away.
    #[inline(always)]
    fn step(&mut self, _row: usize, _stages: &Stages) {}
}

/// The machine's register at each stage of one step, as a [`Leaf`] sees
/// it: words 0 to 2 of each `__m128i` are the columns and the two diagonal
/// words (see the module's documentation).
#[cfg_attr(not(feature = "trace"), allow(dead_code))] // read by the trace
pub(crate) struct Stages {
    /// The row's state as the machine entered it.
    pub(crate) entering: __m128i,
    /// The queen's column.
    pub(crate) column: u32,
    /// After `por` with the queen's bit in all three words.
    pub(crate) placed: __m128i,
    /// After the shifts and the two `pblendw`: the next row's state.
    pub(crate) moved: __m128i,
    /// After `psrldq` and `por`: word 0 holds every attacked square of the
    /// next row.
    pub(crate) attacked: __m128i,
    /// After `pandn` with the board: the next row's free squares.
    pub(crate) free: __m128i,
}

/// Counts solutions. `u64` is ample: N = 16 has 14,772,512.
#[derive(Default)]
pub(super) struct SolutionCounter(pub u64);

impl Leaf for SolutionCounter {
    const NEEDS_QUEENS: bool = false;

    #[inline(always)]
    fn solution(&mut self, _queens: &[u8]) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
}

/// Hands each solution to a visitor as a [`Board`].
pub(super) struct BoardVisitor<'a, 'v>(pub &'a mut Visit<'v>);

impl Leaf for BoardVisitor<'_, '_> {
    const NEEDS_QUEENS: bool = true;

    #[inline(always)]
    fn solution(&mut self, queens: &[u8]) -> ControlFlow<()> {
        (self.0)(&Board::from_permutation(queens))
    }
}

/// Returns `x` unchanged, but only after it has been in an xmm register.
///
/// LLVM would fold the article's `pandn xmm, board` + `movq r64, xmm` into
/// `movq` + `not` + `and` in general registers: the same bits in one more
/// instruction. Routing the `pandn` result through an empty `asm!` that
/// takes an xmm register keeps the vector instruction the article used,
/// at no cost (the `asm!` emits nothing).
#[inline(always)]
pub(super) fn in_xmm(mut x: __m128i) -> __m128i {
    // SAFETY: the template is empty (a comment): it reads and writes
    // nothing but the register it is given, which it leaves unchanged.
    // xmm registers exist on every x86-64 CPU (SSE2 is baseline).
    unsafe {
        core::arch::asm!("/* {0} */", inout(xmm_reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// Defines, in the module that invokes it, the machine as a safe
/// `#[target_feature]` function compiled with the kernel's features, and
/// the [`Solver`](crate::Solver) impl of that module's kernel type, whose
/// existence proves the features:
///
/// ```text
/// davidad_kernel!(ItsType);
/// ```
///
/// at the top of its file (`sse41.rs`, `avx.rs`), where `ItsType` is both the kernel's type ([`crate::kernel::kernel_type!`])
/// and its variant of [`crate::Kernel`], whose row of the kernel table
/// gives the features (`target_features!`).
///
/// The intrinsics are safe to call inside the `#[target_feature]` function
/// (Rust 1.87 and later); the only `unsafe` is the call into that function
/// from the `Solver` impl, justified by the token.
macro_rules! davidad_kernel {
    ($Token:ident) => {
        $crate::vocabulary::kernel::target_features!($Token => {
            /// The state machine: every solution of the `n`x`n` board (`n` from
            /// 1 to 16) whose row-0 queen stands in a column of `first_row`,
            /// handed to `leaf`. Stops early if `leaf` breaks.
            fn search<L: $crate::kernel::davidad::Leaf>(
                n: usize,
                first_row: u32,
                leaf: &mut L,
            ) -> ::core::ops::ControlFlow<()> {
                use ::core::arch::x86_64::{_mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_setzero_si128};
                use $crate::kernel::davidad::MAX_N;

                assert!((1..=MAX_N).contains(&n), "the machine holds N from 1 to 16");
                let last = n - 1;
                let columns = (1u64 << n) - 1;
                // xmm7 in the article: the board's columns in word 0, zeros
                // above, so that `pandn` keeps only word 0.
                let board = _mm_cvtsi64_si128(columns as i64);
                // The stack: the free squares left to try in each row above, and
                // that row's state (the low 64 bits of the register, words 0-2).
                // `depth < last < 16` at every push, so the indexing never fails.
                let mut stack_free = [0u64; MAX_N];
                let mut stack_state = [0u64; MAX_N];
                let mut queens = [0u8; MAX_N];
                let mut depth = 0;
                let mut state = _mm_setzero_si128(); // xmm1
                let mut free = columns & u64::from(first_row); // rdx
                loop {
                    // next_state: bsf rcx, rdx / jz backtrack
                    if free == 0 {
                        // backtrack: the whole tree is done when the stack is
                        // empty; otherwise pop the row above and try its next
                        // square.
                        if depth == 0 {
                            return ::core::ops::ControlFlow::Continue(());
                        }
                        depth -= 1;
                        free = stack_free[depth];
                        state = _mm_cvtsi64_si128(stack_state[depth] as i64);
                        continue;
                    }
                    let column = free.trailing_zeros();
                    free &= free - 1; // btc rdx, rcx: mark the square tried
                    if L::NEEDS_QUEENS {
                        queens[depth] = column as u8;
                    }
                    // cmp rsp, r14 / je win
                    if depth == last {
                        leaf.solution(&queens[..if L::NEEDS_QUEENS { n } else { 0 }])?;
                        continue;
                    }
                    // movq r10, xmm1 / push rdx / push r10
                    stack_free[depth] = free;
                    stack_state[depth] = _mm_cvtsi128_si64(state) as u64;
                    depth += 1;
                    let stages = place_and_move(state, column, board);
                    state = stages.moved;
                    // movq rdx, xmm4: the free squares to a general register.
                    free = _mm_cvtsi128_si64(stages.free) as u64;
                    leaf.step(depth - 1, &stages);
                }
            }
        });

        $crate::vocabulary::kernel::target_features!($Token => {
            /// One step of the machine: a queen placed in `column` of the row
            /// whose state is `state`, the state moved to the next row, and
            /// that row's free squares on the board `board` (its columns in
            /// word 0), every stage kept for `Leaf::step`. A leaf that does
            /// not look (counting, enumerating) reads only `moved` and `free`,
            /// and the other stages compile away.
            ///
            /// `#[inline]`, not `#[inline(always)]`, which Rust does not allow
            /// on a `#[target_feature]` function: the compiler inlines it into
            /// `search` (same features, one call), as `cli/tests/program/disassembly.rs`
            /// checks, since `search` must hold the machine's instructions.
            #[inline]
            fn place_and_move(
                state: ::core::arch::x86_64::__m128i,
                column: u32,
                board: ::core::arch::x86_64::__m128i,
            ) -> $crate::kernel::davidad::Stages {
                use ::core::arch::x86_64::{
                    _mm_andnot_si128, _mm_blend_epi16, _mm_cvtsi64_si128, _mm_or_si128, _mm_slli_epi16,
                    _mm_srli_epi16, _mm_srli_si128,
                };
                // r15 in the article: a queen in column 0 attacks column 0 in
                // all three words.
                const QUEEN: u64 = 0x0001_0001_0001;
                // mov rax, r15 / shl rax, cl / movq xmm2, rax / por xmm1, xmm2
                let placed = _mm_or_si128(state, _mm_cvtsi64_si128((QUEEN << column) as i64));
                // psllw, psrlw, pblendw 0b100, pblendw 0b010: word 2 moves
                // left, word 1 right, word 0 stays.
                let left = _mm_slli_epi16::<1>(placed);
                let right = _mm_srli_epi16::<1>(placed);
                let moved = _mm_blend_epi16::<0b010>(_mm_blend_epi16::<0b100>(placed, left), right);
                // psrldq 4, psrldq 2, por, por: words 2 and 1 onto word 0.
                let attacked = _mm_or_si128(
                    _mm_or_si128(_mm_srli_si128::<4>(moved), _mm_srli_si128::<2>(moved)),
                    moved,
                );
                // pandn with xmm7: the free squares.
                let free = $crate::kernel::davidad::in_xmm(_mm_andnot_si128(attacked, board));
                $crate::kernel::davidad::Stages {
                    entering: state,
                    column,
                    placed,
                    moved,
                    attacked,
                    free,
                }
            }
        });

        impl $Token {
            /// Runs the machine on the `n`x`n` board (`n` from 1 to 16)
            /// with `leaf` watching every step: the trace's way in.
            #[cfg(feature = "trace")]
            #[allow(dead_code)] // the trace watches the `sse41` instance
            pub(crate) fn watch<L: $crate::kernel::davidad::Leaf>(
                self,
                n: usize,
                leaf: &mut L,
            ) -> ::core::ops::ControlFlow<()> {
                // SAFETY: `self` exists only where its `new` found the CPU
                // feature `search` is compiled for; `search` checks `n`.
                unsafe { search(n, u32::MAX, leaf) }
            }
        }

        impl $crate::Solver for $Token {
            fn kernel(&self) -> $crate::Kernel {
                $crate::Kernel::$Token
            }

            fn count(&self, n: usize) -> Result<$crate::Count, $crate::Error> {
                $crate::Kernel::$Token.check_size(n)?;
                if n == 0 {
                    // The empty board, as for every kernel.
                    return Ok(1);
                }
                let mut counter = $crate::kernel::davidad::SolutionCounter::default();
                // SAFETY: a value of this type exists only where its `new`
                // found the CPU feature this `search` is compiled for (or
                // the build enables it), and `check_size` kept `n` in 1..=16.
                let _ = unsafe { search(n, u32::MAX, &mut counter) };
                Ok($crate::Count::from(counter.0))
            }

            fn for_each_solution(
                &self,
                n: usize,
                visit: $crate::kernel::Visit<'_>,
            ) -> Result<::core::ops::ControlFlow<()>, $crate::Error> {
                self.for_each_solution_in_first_row(n, u32::MAX, visit)
            }

            fn for_each_solution_in_first_row(
                &self,
                n: usize,
                first_row: u32,
                mut visit: $crate::kernel::Visit<'_>,
            ) -> Result<::core::ops::ControlFlow<()>, $crate::Error> {
                $crate::Kernel::$Token.check_size(n)?;
                if n == 0 {
                    return Ok(visit(&$crate::Board::EMPTY));
                }
                let mut visitor = $crate::kernel::davidad::BoardVisitor(&mut visit);
                // SAFETY: as in `count`: the type proves the CPU feature, and
                // `check_size` kept `n` in 1..=16.
                Ok(unsafe { search(n, first_row, &mut visitor) })
            }
        }
    };
}

pub(super) use davidad_kernel;
