//! The lane kernels ([`crate::kernel::lanes`]): every lane of a vector
//! walking its own start, step by step.

use alloc::vec::Vec;

use super::Columns;
use crate::kernel::lanes::walk::{self, LaneView, Watch};
use crate::vocabulary::kernel::{Family, family_kernel};
use crate::{Count, Error, Kernel};

/// One lane after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// The start the lane walks, named `first * n + second` by the
    /// columns of its queens in rows 0 and 1; `None` while the lane is
    /// idle.
    pub start: Option<usize>,
    /// Whether this step ended the lane's walk: it found its stack empty
    /// (only its idle entry), and takes the next start before its next
    /// step.
    pub done: bool,
    /// The row the lane's walker fills next.
    pub row: usize,
    /// That row's squares not tried yet.
    pub live: Columns,
    /// Rows on the lane's stack with squares left to try.
    pub depth: usize,
    /// Solutions the lane's walk has found so far (each counting twice,
    /// for its mirror image).
    pub solutions: u32,
}

/// The whole-board walk of a lane kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The lanes (8 for `lanes-avx2`, 16 for `lanes-avx512`) after each of
    /// the first steps of their first group.
    pub steps: Vec<Vec<Lane>>,
    /// Steps the first group took in all.
    pub total_steps: usize,
    /// The count of the whole board.
    pub count: Count,
}

struct Recorder {
    keep: usize,
    steps: Vec<Vec<Lane>>,
    total: usize,
}

impl Watch for Recorder {
    const WATCHING: bool = true;

    fn step(&mut self, group: usize, lanes: &[LaneView]) {
        if group != 0 {
            return;
        }
        self.total += 1;
        if self.steps.len() < self.keep {
            self.steps.push(
                lanes
                    .iter()
                    .map(|lane| Lane {
                        start: lane.start,
                        done: lane.done,
                        row: lane.row as usize,
                        live: lane.live,
                        depth: lane.depth as usize,
                        solutions: lane.solutions,
                    })
                    .collect(),
            );
        }
    }
}

/// Counts the `n`x`n` board (`n` from 4 to 11, the sizes both lane kernels
/// count over mirror starts, whose starts are rows 0 and 1 placed) with `kernel`
/// (`lanes-avx2` or `lanes-avx512`), keeping its lanes after each of the
/// first `steps` steps.
///
/// # Errors
///
/// [`Error::KernelUnavailable`] where the CPU lacks the kernel's features
/// or for another kernel; [`Error::SizeOutOfRange`] for `n` outside 4 to
/// 11.
pub fn first_steps(kernel: Kernel, n: usize, steps: usize) -> Result<Walk, Error> {
    let max = crate::kernel::lanes::MIRROR_UP_TO;
    super::check_size(kernel, n, 4, max)?;
    let mut recorder = Recorder {
        keep: steps,
        steps: Vec::new(),
        total: 0,
    };
    if kernel.family() != Family::Lanes {
        return Err(Error::KernelUnavailable {
            kernel,
            because: "only the lane kernels have lanes to trace",
        });
    }
    // Each lane kernel of the table, by its type.
    let count = family_kernel!(Lanes, kernel, |k| k.watch(n, &mut recorder))
        .ok_or_else(|| Error::unavailable(kernel))?;
    debug_assert!(walk::MAX_N >= max);
    Ok(Walk {
        steps: recorder.steps,
        total_steps: recorder.total,
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_walk_their_starts_to_the_board_s_count() {
        // Every lane kernel of the table: one without its arm in
        // `first_steps` fails here where this CPU runs it.
        let lanes = Kernel::ALL
            .iter()
            .filter(|kernel| kernel.family() == crate::vocabulary::kernel::Family::Lanes);
        for &kernel in lanes {
            let Ok(walk) = first_steps(kernel, 8, usize::MAX) else {
                // The kernel's own tests say whether it should run.
                assert!(!kernel.is_available(), "{kernel} has no trace");
                continue;
            };
            assert_eq!(walk.count, 92);
            assert_eq!(walk.steps.len(), walk.total_steps);
            // Solutions found by the lanes, as each walk ends, make the
            // board's count: each found twice, with its mirror image.
            let mut found = 0;
            let mut walks = 0;
            for lanes in &walk.steps {
                for lane in lanes {
                    if lane.done {
                        found += u64::from(lane.solutions);
                        walks += 1;
                    } else if lane.start.is_some() {
                        assert!(lane.row >= 2 && lane.row < 8);
                        assert!(lane.depth <= lane.row - 2);
                    }
                }
            }
            assert_eq!(2 * found, 92, "{kernel:?}");
            // Every start of the board's left half but those with no
            // live square (counted without a walk) is walked once.
            assert!(walks > 8 && walks <= 4 * 8, "{walks}");
        }
    }
}
