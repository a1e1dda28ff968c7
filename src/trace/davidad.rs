//! davidad's machine ([`crate::kernel::sse41`]) on its way to a solution:
//! the xmm register at each stage of each row's step.

use alloc::vec::Vec;
use core::arch::x86_64::{__m128i, _mm_cvtsi128_si64};
use core::ops::ControlFlow;

use crate::Error;
use crate::kernel::davidad::{Leaf, MAX_N, Stages};
use crate::kernel::sse41::Sse41;

/// The three 16-bit words of the machine's register that hold its state
/// (bit `c` of each is column `c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// Word 0: the columns taken.
    pub columns: u16,
    /// Word 1: the diagonals running down-right (shifted by `psrlw 1` a
    /// row).
    pub down_right: u16,
    /// Word 2: the diagonals running down-left (shifted by `psllw 1` a
    /// row).
    pub down_left: u16,
}

impl Words {
    fn of(register: __m128i) -> Words {
        // SAFETY: `movq` is SSE2, which every x86-64 CPU has.
        let low = unsafe { _mm_cvtsi128_si64(register) } as u64;
        Words {
            columns: low as u16,
            down_right: (low >> 16) as u16,
            down_left: (low >> 32) as u16,
        }
    }
}

/// One row of the path to the solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathRow {
    /// The row's free squares, as the step above found them (row 0: the
    /// whole row).
    pub free: u16,
    /// The column of the row's queen on the path.
    pub column: usize,
    /// The register as the machine entered the row.
    pub entering: Words,
    /// The step from this row to the next, absent on the last row (whose
    /// queen completes the board).
    pub step: Option<Step>,
}

/// The register at each stage of one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// After `por` with the queen's bit in all three words.
    pub placed: Words,
    /// After `psllw`/`psrlw` and the two `pblendw`: the next row's state.
    pub moved: Words,
    /// After `psrldq 2`, `psrldq 4` and two `por`: every square of the
    /// next row that a queen above attacks (word 0 of the register).
    pub attacked: u16,
    /// After `pandn` with the board's columns: the next row's free
    /// squares (`free` of the next [`PathRow`]).
    pub free: u16,
}

/// The machine's path to its first solution of an `n`x`n` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// The board's size.
    pub n: usize,
    /// Rows 0 to `n - 1`, each with its queen.
    pub rows: Vec<PathRow>,
    /// Queens the machine placed before it placed the last row's: every
    /// step of the search so far, the dead ends included.
    pub steps_before: u64,
}

/// Records each row's latest step, and stops at the first solution.
struct Watcher {
    rows: [Option<(usize, Words, Step)>; MAX_N],
    steps: u64,
    solution: Option<Vec<u8>>,
}

impl Leaf for Watcher {
    const NEEDS_QUEENS: bool = true;

    fn solution(&mut self, queens: &[u8]) -> ControlFlow<()> {
        self.solution = Some(queens.to_vec());
        ControlFlow::Break(())
    }

    fn step(&mut self, row: usize, stages: &Stages) {
        self.steps += 1;
        let step = Step {
            placed: Words::of(stages.placed),
            moved: Words::of(stages.moved),
            attacked: Words::of(stages.attacked).columns,
            free: Words::of(stages.free).columns,
        };
        self.rows[row] = Some((stages.column as usize, Words::of(stages.entering), step));
    }
}

/// The first solution the `sse41` kernel finds on an `n`x`n` board (`n`
/// from 4 to 16), with the register at every stage of every row.
///
/// # Errors
///
/// [`Error::KernelUnavailable`] without SSE4.1; [`Error::SizeOutOfRange`]
/// for `n` outside 4 to 16 (boards with no solution, or too wide).
pub fn first_solution(n: usize) -> Result<Path, Error> {
    let kernel = crate::Kernel::Sse41;
    super::check_size(kernel, n, 4, MAX_N)?;
    let machine = Sse41::new().ok_or_else(|| crate::Error::unavailable(kernel))?;
    let mut watcher = Watcher {
        rows: [None; MAX_N],
        steps: 0,
        solution: None,
    };
    let _ = machine.watch(n, &mut watcher);
    let queens = watcher
        .solution
        .expect("every board from 4 up has a solution");
    let board = ((1u32 << n) - 1) as u16;
    let mut free = board;
    let rows = (0..n)
        .map(|row| {
            let column = usize::from(queens[row]);
            let (entering, step) = match watcher.rows[row] {
                Some((placed, entering, step)) if row + 1 < n => {
                    debug_assert_eq!(placed, column);
                    (entering, Some(step))
                }
                _ => (
                    watcher.rows[row - 1].map(|(_, _, s)| s.moved).unwrap(),
                    None,
                ),
            };
            let this = PathRow {
                free,
                column,
                entering,
                step,
            };
            if let Some(step) = step {
                free = step.free;
            }
            this
        })
        .collect();
    Ok(Path {
        n,
        rows,
        // The last row's queen is found without a step.
        steps_before: watcher.steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_a_solution_and_each_step_follows_from_the_last() {
        let Ok(path) = first_solution(8) else {
            return; // no SSE4.1: the kernel's own tests say so
        };
        let columns: Vec<u8> = path.rows.iter().map(|r| r.column as u8).collect();
        assert!(crate::Board::from_columns(&columns).unwrap().is_solution());
        for pair in path.rows.windows(2) {
            let step = pair[0].step.unwrap();
            assert_eq!(pair[1].entering, step.moved);
            assert_eq!(pair[1].free, step.free);
            assert_ne!(step.free & (1 << pair[1].column), 0);
            let attacked = step.moved.columns | step.moved.down_right | step.moved.down_left;
            assert_eq!(step.attacked, attacked);
            assert_eq!(step.free, !attacked & 0xff);
        }
        assert_eq!(
            path.rows[0].entering,
            Words {
                columns: 0,
                down_right: 0,
                down_left: 0
            }
        );
    }
}
