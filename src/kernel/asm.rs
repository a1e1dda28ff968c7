//! The `asm-sse41` and `asm-avx` kernels (`asm` picks the best this CPU
//! runs): seed 002, davidad's xmm state machine, written by hand in
//! `asm/davidad.s` (every instruction commented there) and pulled in with
//! `global_asm!(include_str!(..))`.
//!
//! The article keeps its backtracking stack on `rsp`. This kernel keeps it
//! in a [`Search`] the caller owns (its `Machine`: one frame per row, plus
//! the current row's free squares, state and depth). That makes the search resumable: a
//! call stops as soon as the caller's buffer of solutions is full, and the
//! next call continues exactly there. Counting and enumerating are the same
//! function, with no callback from assembly into Rust: counting passes no
//! buffer and runs to the end.
//!
//! ```
//! # #[cfg(all(target_arch = "x86_64", target_os = "linux"))] {
//! use queens_simd::kernel::asm::RowMasks;
//!
//! if let Some(asm) = queens_simd::dispatch::best_asm() {
//!     // Every solution of the 8x8 board, at most 7 per call into the kernel.
//!     let mut search = asm.search(8, u32::MAX)?;
//!     let mut buffer = [RowMasks::default(); 7];
//!     let mut found = 0;
//!     while !search.is_finished() {
//!         let written = search.fill(&mut buffer);
//!         for masks in &buffer[..written] {
//!             assert!(masks.to_board(8)?.is_solution());
//!         }
//!         found += written;
//!     }
//!     assert_eq!(found, 92);
//!     assert_eq!(asm.search(8, u32::MAX)?.count_rest(), 92);
//! }
//! # }
//! # Ok::<(), queens_simd::Error>(())
//! ```
//!
//! The assembly exists in two encodings, chosen like the intrinsics
//! kernels' by runtime detection: SSE4.1 (`pblendw` plus SSE2, two-operand
//! forms) and AVX (VEX three-operand forms). It is ELF assembly for the
//! System V ABI, so it is compiled for x86-64 Linux only; on other targets
//! these kernels are absent from the list (see [`crate::dispatch`]).

use core::arch::global_asm;
use core::mem::offset_of;
use core::ops::ControlFlow;

use crate::kernel::Visit;
use crate::{Board, BoardDefect, Count, Error, Kernel, Solver};

global_asm!(include_str!("../../asm/davidad.s"));

/// Largest board: one bit per column in a 16-bit word.
pub const MAX_N: usize = 16;

/// The functions in `asm/davidad.s`; see its header for the contract. The
/// symbols carry the crate's semver-compatible version (`v0_1` for every
/// 0.1.x), so that two incompatible copies of the crate linked into one
/// program define different symbols; a unit test keeps the tag in step with
/// `Cargo.toml`.
type EntryPoint = unsafe extern "sysv64" fn(*mut Machine, *mut RowMasks, usize) -> usize;

unsafe extern "sysv64" {
    /// Runs the machine in SSE4.1 encoding; returns the solutions found.
    ///
    /// # Safety
    ///
    /// The CPU must have SSE4.1. `machine` must point to a `Machine` built
    /// by [`Machine::new`] and since changed only by these functions, used
    /// by no one else during the call. `out` must be null (count to the
    /// end) or valid for writing `capacity >= 1` records.
    fn queens_simd_v0_1_davidad_sse41(
        machine: *mut Machine,
        out: *mut RowMasks,
        capacity: usize,
    ) -> usize;
    /// The same in AVX encoding.
    ///
    /// # Safety
    ///
    /// As for the SSE4.1 function, and the CPU and its operating system
    /// must support AVX.
    fn queens_simd_v0_1_davidad_avx(
        machine: *mut Machine,
        out: *mut RowMasks,
        capacity: usize,
    ) -> usize;
}

/// Which instructions the assembly is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Legacy SSE forms; needs SSE4.1 (`pblendw`).
    Sse41,
    /// VEX three-operand forms; needs AVX (and the OS's support for it).
    Avx,
}

/// The asm kernel in one encoding. Holding one proves this CPU runs it.
///
/// The one kernel type not declared by `kernel_type!`: both encodings
/// are written in `asm/davidad.s` (no `#[target_feature]` function, whose
/// features the table would give), and one type serves both, its encoding
/// a field chosen by the constructor the CPU allows (`sse41()`, `avx()`,
/// each reading its own row of the kernel table), so that the resumable
/// [`Search`] and the tests can hold either.
#[derive(Clone, Copy, Debug)]
pub struct Asm {
    encoding: Encoding,
}

impl Asm {
    /// The SSE4.1 encoding, if this CPU has SSE4.1.
    pub fn sse41() -> Option<Asm> {
        crate::vocabulary::cpu::has_all(Kernel::AsmSse41.cpu_features()).then_some(Asm {
            encoding: Encoding::Sse41,
        })
    }

    /// The AVX encoding, if this CPU and its operating system support AVX.
    pub fn avx() -> Option<Asm> {
        crate::vocabulary::cpu::has_all(Kernel::AsmAvx.cpu_features()).then_some(Asm {
            encoding: Encoding::Avx,
        })
    }

    /// The encoding `kernel` names, if it is one of the asm kernels and
    /// this CPU runs it.
    pub(crate) fn of(kernel: Kernel) -> Option<Asm> {
        match kernel {
            Kernel::AsmSse41 => Asm::sse41(),
            Kernel::AsmAvx => Asm::avx(),
            _ => None,
        }
    }

    /// This proof as a `'static` solver: what the dispatcher hands out.
    pub(crate) fn as_static(self) -> &'static Asm {
        match self.encoding {
            Encoding::Sse41 => &Asm {
                encoding: Encoding::Sse41,
            },
            Encoding::Avx => &Asm {
                encoding: Encoding::Avx,
            },
        }
    }

    /// The encoding this value runs.
    pub fn encoding(self) -> Encoding {
        self.encoding
    }

    /// A new search of the `n`x`n` board (`n` from 1 to 16) for the
    /// solutions whose row-0 queen stands in a column of `first_row` (bit
    /// `c` for column `c`; `u32::MAX` for all; any `first_row`, its bits
    /// from `n` up ignored).
    ///
    /// # Errors
    ///
    /// [`Error::SizeOutOfRange`] unless `n` is from 1 to 16: the machine
    /// has no row 0 for N = 0 (the kernel's [`Solver`] methods answer the
    /// empty board themselves) and 16 columns.
    pub fn search(self, n: usize, first_row: u32) -> Result<Search, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::SizeOutOfRange {
                n,
                kernel: Solver::kernel(&self),
                min: 1,
                max: MAX_N,
            });
        }
        Ok(Search {
            entry: match self.encoding {
                Encoding::Sse41 => queens_simd_v0_1_davidad_sse41,
                Encoding::Avx => queens_simd_v0_1_davidad_avx,
            },
            machine: Machine::new(n, first_row),
        })
    }
}

/// One frame of the explicit stack: a row above the current one.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct AsmFrame {
    /// That row's squares not yet tried.
    free: u64,
    /// That row's state before its queen: words 0-2 of the xmm register.
    state: u64,
}

/// The machine's whole state between two calls: the explicit stack (one
/// frame per row above the current one) and the registers that carry the
/// search on. Its layout is the one `asm/davidad.s` documents; its fields
/// are private, so it only ever holds what [`Machine::new`] and the
/// assembly put there.
#[repr(C)]
#[derive(Clone, Debug)]
struct Machine {
    frames: [AsmFrame; MAX_N],
    /// The current row's squares not yet tried.
    free: u64,
    /// The current row's state.
    state: u64,
    /// The current row: 0 to `last`.
    depth: u64,
    /// N - 1: the row whose queen completes a solution.
    last: u64,
    /// `(1 << N) - 1`: the board's columns.
    columns: u64,
}

// The offsets `asm/davidad.s` uses.
const _: () = {
    assert!(size_of::<AsmFrame>() == 16 && offset_of!(AsmFrame, state) == 8);
    assert!(offset_of!(Machine, free) == 256);
    assert!(offset_of!(Machine, state) == 264);
    assert!(offset_of!(Machine, depth) == 272);
    assert!(offset_of!(Machine, last) == 280);
    assert!(offset_of!(Machine, columns) == 288);
    assert!(size_of::<RowMasks>() == 32);
};

impl Machine {
    /// Row 0 of an empty `n`x`n` board (`n` from 1 to 16), its free squares
    /// limited to `first_row`.
    fn new(n: usize, first_row: u32) -> Machine {
        debug_assert!((1..=MAX_N).contains(&n));
        let columns = (1u64 << n) - 1;
        Machine {
            frames: [AsmFrame::default(); MAX_N],
            free: columns & u64::from(first_row),
            state: 0,
            depth: 0,
            last: n as u64 - 1,
            columns,
        }
    }

    /// Whether the search is over: back at row 0 with nothing left to try.
    fn is_finished(&self) -> bool {
        self.depth == 0 && self.free == 0
    }
}

/// One solution as the assembly writes it: row `r`'s queen as the bit of
/// its column in `masks()[r]`, for the rows of the board; zero beyond
/// (the assembly writes only the board's rows, and [`Search::fill`] clears
/// the others, which a buffer used for a larger board may still hold).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowMasks([u16; MAX_N]);

impl RowMasks {
    /// The masks, row 0 first.
    pub fn masks(&self) -> &[u16; MAX_N] {
        &self.0
    }

    /// The queens' columns of the first `n` rows.
    fn columns(&self, n: usize) -> [u8; MAX_N] {
        let mut columns = [0; MAX_N];
        for (column, mask) in columns.iter_mut().zip(&self.0[..n]) {
            *column = mask.trailing_zeros() as u8;
        }
        columns
    }

    /// The board of a record the assembly wrote for `n` (one queen per row
    /// and column, so not checked again).
    fn written_board(&self, n: usize) -> Board {
        Board::from_permutation(&self.columns(n)[..n])
    }

    /// The `n`x`n` board these masks describe: any `n`, but only masks that
    /// place exactly one queen in each of the first `n` rows and columns,
    /// and none below, are a board (every record the kernel writes for
    /// `n` is).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidBoard`] if the masks are not such a board, which
    /// they never are for `n` over 16.
    pub fn to_board(&self, n: usize) -> Result<Board, Error> {
        // The first row of the board without exactly one queen (past the
        // 16 rows held, a row has none), else the first with a queen below.
        let one_queen = |row: usize| self.0.get(row).is_some_and(|m| m.is_power_of_two());
        if let Some(row) = (0..n).find(|&row| !one_queen(row)) {
            return Err(Error::InvalidBoard(BoardDefect::QueensInRow {
                row,
                queens: self.0.get(row).map_or(0, |m| m.count_ones() as usize),
            }));
        }
        if let Some(row) = (n..self.0.len()).find(|&row| self.0[row] != 0) {
            return Err(Error::InvalidBoard(BoardDefect::RowOffBoard { row, n }));
        }
        Board::from_columns(&self.columns(n)[..n])
    }
}

/// A resumable search: the machine's state between calls (its explicit
/// stack and registers) and the assembly that runs it.
/// Made by [`Asm::search`].
#[derive(Clone, Debug)]
pub struct Search {
    entry: EntryPoint,
    machine: Machine,
}

impl Search {
    /// Board side N.
    pub fn n(&self) -> usize {
        self.machine.last as usize + 1
    }

    /// Whether every solution has been found.
    pub fn is_finished(&self) -> bool {
        self.machine.is_finished()
    }

    /// Runs the search until `out` is full or the search is finished, and
    /// returns how many solutions it wrote to the front of `out`, each a
    /// whole record (rows from N on zero). The next call continues where
    /// this one stopped. Returns 0 only when the search is finished (or
    /// `out` is empty). Any `out`, of any length and contents.
    pub fn fill(&mut self, out: &mut [RowMasks]) -> usize {
        if out.is_empty() {
            return 0;
        }
        // SAFETY: `entry` came from an `Asm`, whose constructor found the
        // CPU features of its encoding. The machine was built by
        // `Machine::new` with N in 1..=16 and has since been changed only
        // by the assembly, so its depth and last row stay below 16 and
        // every frame it touches is inside `frames`. `out` is valid for
        // `out.len() >= 1` records, the most the assembly writes.
        let written = unsafe { (self.entry)(&mut self.machine, out.as_mut_ptr(), out.len()) };
        // The assembly writes rows 0..N only.
        let n = self.n();
        for record in out.iter_mut().take(written) {
            record.0[n..].fill(0);
        }
        written
    }

    /// Runs the search to the end, counting the solutions not yet found.
    pub fn count_rest(&mut self) -> u64 {
        // SAFETY: as in `fill`; a null `out` makes the assembly count
        // without writing anything.
        let found = unsafe { (self.entry)(&mut self.machine, core::ptr::null_mut(), 0) };
        found as u64
    }
}

/// Solutions per call into the assembly when iterating.
const BATCH: usize = 64;

#[cfg(feature = "alloc")]
impl IntoIterator for Search {
    type Item = Board;
    type IntoIter = AsmSolutions;

    fn into_iter(self) -> AsmSolutions {
        AsmSolutions {
            search: self,
            batch: alloc::vec![RowMasks::default(); BATCH].into_boxed_slice(),
            filled: 0,
            next: 0,
        }
    }
}

/// Every solution of a [`Search`], fetched from the assembly 64 at a time.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct AsmSolutions {
    search: Search,
    /// On the heap, sized exactly, so that memory checkers (valgrind's
    /// memcheck, in CI) would see the assembly write past it.
    batch: alloc::boxed::Box<[RowMasks]>,
    filled: usize,
    next: usize,
}

#[cfg(feature = "alloc")]
impl Iterator for AsmSolutions {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        if self.next == self.filled {
            self.filled = self.search.fill(&mut self.batch);
            self.next = 0;
        }
        let masks = self.batch[..self.filled].get(self.next)?;
        self.next += 1;
        let n = self.search.n();
        Some(masks.written_board(n))
    }
}

impl Solver for Asm {
    fn kernel(&self) -> Kernel {
        match self.encoding {
            Encoding::Sse41 => Kernel::AsmSse41,
            Encoding::Avx => Kernel::AsmAvx,
        }
    }

    fn count(&self, n: usize) -> Result<Count, Error> {
        self.kernel().check_size(n)?;
        if n == 0 {
            // The empty board, as for every kernel.
            return Ok(1);
        }
        Ok(Count::from(self.search(n, u32::MAX)?.count_rest()))
    }

    fn for_each_solution(&self, n: usize, visit: Visit<'_>) -> Result<ControlFlow<()>, Error> {
        self.for_each_solution_in_first_row(n, u32::MAX, visit)
    }

    fn for_each_solution_in_first_row(
        &self,
        n: usize,
        first_row: u32,
        visit: Visit<'_>,
    ) -> Result<ControlFlow<()>, Error> {
        self.kernel().check_size(n)?;
        if n == 0 {
            return Ok(visit(&Board::EMPTY));
        }
        // A batch on the stack, so that visiting needs no allocator.
        let mut search = self.search(n, first_row)?;
        let mut batch = [RowMasks::default(); BATCH];
        loop {
            let written = search.fill(&mut batch);
            if written == 0 {
                return Ok(ControlFlow::Continue(()));
            }
            for masks in &batch[..written] {
                if visit(&masks.written_board(n)).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag `asm/davidad.s` and the declarations above use.
    const SYMBOL_VERSION: &str = "v0_1";

    #[test]
    fn symbols_carry_the_crate_version() {
        let major = env!("CARGO_PKG_VERSION_MAJOR");
        let expected = if major == "0" {
            format!("v0_{}", env!("CARGO_PKG_VERSION_MINOR"))
        } else {
            format!("v{major}")
        };
        assert_eq!(SYMBOL_VERSION, expected, "rename the asm symbols");
        let assembly = include_str!("../../asm/davidad.s");
        let rust = include_str!("asm.rs");
        for encoding in ["sse41", "avx"] {
            let symbol = format!("queens_simd_{SYMBOL_VERSION}_davidad_{encoding}");
            // Defined by the assembly under that name, and declared so here.
            assert!(assembly.contains(&format!("davidad {symbol},")), "{symbol}");
            assert!(rust.contains(&format!("fn {symbol}(")), "{symbol}");
        }
    }

    #[test]
    fn masks_that_are_not_a_permutation_are_not_a_board() {
        let mut masks = RowMasks::default();
        assert!(masks.to_board(4).is_err());
        masks.0[..4].copy_from_slice(&[1 << 1, 1 << 3, 1 << 0, 1 << 2]);
        assert_eq!(masks.to_board(4).unwrap().columns(), &[1, 3, 0, 2]);
        masks.0[3] = 1 << 1;
        assert!(masks.to_board(4).is_err());
        masks.0[3] = 0b101;
        assert!(masks.to_board(4).is_err());
        assert!(masks.to_board(17).is_err());
        // A queen below the board's rows.
        masks.0[3] = 1 << 2;
        masks.0[4] = 1;
        assert!(masks.to_board(4).is_err());
        assert!(masks.to_board(usize::MAX).is_err());
    }
}
