//! Cross-checks every kernel, reference solver and the fundamental-solution
//! machinery against the portable kernel, on full solution sets.
//!
//! For each N the portable kernel's solutions are the oracle: they must all
//! be solutions, distinct, and as many as its own count. Every other kernel
//! that runs here and accepts N must produce exactly the same set (compared
//! sorted, not only counted) and the same count; a kernel that only counts,
//! the same count. The fundamental solutions
//! are checked against the oracle's canonical forms, deduplicated, and
//! against seed 001's own symmetry deduplication.

use core::ops::ControlFlow;

use crate::reference::threat_masks;
use crate::{Board, Count, Error, Kernel, fundamental, symmetry};

/// Largest N `verify` accepts: the oracle's full solution set (2,279,184
/// boards for N = 15) is held in memory.
pub const MAX_VERIFY_N: usize = 15;

/// What a column of the report checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A kernel's count and full solution set.
    Kernel(Kernel),
    /// [`fundamental::solutions`] through `auto`, against the oracle's
    /// canonical forms.
    Fundamental,
    /// Seed 001's symmetry deduplication
    /// ([`threat_masks::fundamental`]), by class.
    Seed001Dedup,
}

impl Subject {
    /// Column heading.
    pub fn label(self) -> String {
        match self {
            Subject::Kernel(kernel) => kernel.name().to_owned(),
            Subject::Fundamental => "fundamental".to_owned(),
            Subject::Seed001Dedup => "seed001-dedup".to_owned(),
        }
    }
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Same set and same count as the oracle.
    Agree,
    /// Same count as the oracle, from a kernel that only counts.
    SameCount,
    /// A difference, described.
    Disagree(String),
    /// The subject does not accept this N.
    Unsupported,
    /// This CPU or build cannot run the kernel.
    Unavailable,
}

/// The checks for one N.
#[derive(Clone, Debug)]
pub struct Row {
    /// Board size.
    pub n: usize,
    /// The oracle's number of solutions.
    pub solutions: Count,
    /// The oracle's number of classes under the symmetries of the square.
    pub classes: Count,
    /// One cell per subject, in [`subjects`] order.
    pub cells: Vec<Cell>,
}

impl Row {
    /// Whether no cell disagrees.
    pub fn agrees(&self) -> bool {
        !self.cells.iter().any(|c| matches!(c, Cell::Disagree(_)))
    }
}

/// The columns of the report: every concrete kernel, then the fundamental
/// checks.
pub fn subjects() -> Vec<Subject> {
    Kernel::ALL
        .iter()
        .map(|&k| Subject::Kernel(k))
        .chain([Subject::Fundamental, Subject::Seed001Dedup])
        .collect()
}

/// Runs every check for N = 0 to `max_n` (at most [`MAX_VERIFY_N`]),
/// handing each row to `report` as soon as it is done. Returns whether
/// every check agreed.
///
/// # Errors
///
/// [`Error::VerifyTooLarge`] if `max_n` is over [`MAX_VERIFY_N`], before
/// any check runs.
pub fn run(max_n: usize, mut report: impl FnMut(&Row)) -> Result<bool, Error> {
    within_limit(max_n)?;
    let mut all_agree = true;
    for n in 0..=max_n {
        let row = check(n)?;
        all_agree &= row.agrees();
        report(&row);
    }
    Ok(all_agree)
}

/// The checks for one N, from 0 to [`MAX_VERIFY_N`].
///
/// # Errors
///
/// [`Error::VerifyTooLarge`] if `n` is over [`MAX_VERIFY_N`], at once,
/// before the oracle's solution set (held whole in memory) is built.
/// [`Error::OutOfMemory`] where a kernel, or the listing of its
/// solutions, could not allocate: a check that could not run, which is
/// no disagreement.
pub fn check(n: usize) -> Result<Row, Error> {
    within_limit(n)?;
    let mut oracle = crate::dispatch::solutions(Kernel::Portable, n)?;
    oracle.sort_unstable();
    let oracle_count = crate::dispatch::count(Kernel::Portable, n)?;
    let mut classes: Vec<Board> = oracle.iter().map(symmetry::canonical).collect();
    classes.sort_unstable();
    classes.dedup();

    let cells = subjects()
        .into_iter()
        .map(|subject| match subject {
            Subject::Kernel(Kernel::Portable) => Ok(check_oracle(&oracle, oracle_count)),
            Subject::Kernel(kernel) => check_kernel(kernel, n, &oracle),
            Subject::Fundamental => compare_sets(fundamental::solutions(Kernel::Auto, n), &classes),
            Subject::Seed001Dedup => check_seed001_dedup(n, &classes),
        })
        .collect::<Result<_, Error>>()?;
    Ok(Row {
        n,
        solutions: oracle.len() as Count,
        classes: classes.len() as Count,
        cells,
    })
}

/// About the most memory [`check`] takes for an `n`x`n` board with
/// `solutions` solutions, an upper bound: the oracle's list (up to twice
/// its length, as a list grows by doubling; three times while it moves),
/// its classes (as long before deduplication), one kernel's listing beside
/// them (reserved exactly), a fifth list's worth for the fundamental
/// listings (an eighth as long, growing by doubling), and the largest
/// tables of any kernel that runs here
/// ([`crate::dispatch::memory_estimate`]).
pub fn memory_needed(n: usize, solutions: Count) -> u64 {
    let boards = u64::try_from(core::mem::size_of::<Board>()).unwrap_or(u64::MAX);
    let lists = boards.saturating_mul(solutions as u64).saturating_mul(5);
    let tables = Kernel::ALL
        .iter()
        .filter(|k| k.is_available() && k.sizes().contains(&n))
        .filter_map(|&k| crate::dispatch::memory_estimate(k, n).ok())
        .max()
        .unwrap_or(0);
    lists.saturating_add(tables)
}

/// Errors unless `max_n` is at most [`MAX_VERIFY_N`].
fn within_limit(max_n: usize) -> Result<(), Error> {
    if max_n > MAX_VERIFY_N {
        return Err(Error::VerifyTooLarge {
            max_n,
            limit: MAX_VERIFY_N,
        });
    }
    Ok(())
}

/// The oracle's self-consistency: valid, distinct, and counted as listed.
fn check_oracle(sorted: &[Board], count: Count) -> Cell {
    if let Some(bad) = sorted.iter().find(|b| !b.is_solution()) {
        return Cell::Disagree(format!("{bad:?} is not a solution"));
    }
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Cell::Disagree("a solution is listed twice".to_owned());
    }
    if count != sorted.len() as Count {
        return Cell::Disagree(format!("counts {count}, lists {}", sorted.len()));
    }
    Cell::Agree
}

/// A kernel's count, and its solution set where it lists them, against
/// the oracle's; `Err` where it ran out of memory.
fn check_kernel(kernel: Kernel, n: usize, oracle: &[Board]) -> Result<Cell, Error> {
    if !kernel.is_available() {
        return Ok(Cell::Unavailable);
    }
    if !kernel.sizes().contains(&n) {
        return Ok(Cell::Unsupported);
    }
    match crate::dispatch::count(kernel, n) {
        Ok(count) if count == oracle.len() as Count => {}
        Ok(count) => {
            return Ok(Cell::Disagree(format!(
                "count {count}, expected {}",
                oracle.len()
            )));
        }
        Err(e) => return disagreement(e),
    }
    if !kernel.enumerates() {
        // It must refuse to list, not list nothing.
        return Ok(
            match crate::dispatch::for_each_solution(kernel, n, &mut |_| ControlFlow::Continue(()))
            {
                Err(Error::CountOnly(k)) if k == kernel => Cell::SameCount,
                other => Cell::Disagree(format!(
                    "a count-only kernel answered a listing with {other:?}"
                )),
            },
        );
    }
    let mut listed = Vec::new();
    // Fallible: a listing that does not fit is a check that cannot run.
    listed
        .try_reserve_exact(oracle.len())
        .map_err(|_| Error::OutOfMemory {
            bytes: core::mem::size_of_val(oracle) as u64,
        })?;
    let enumerated = crate::dispatch::for_each_solution(kernel, n, &mut |board| {
        listed.push(*board);
        ControlFlow::Continue(())
    });
    listed.sort_unstable();
    compare_sets(enumerated.map(|_| listed), oracle)
}

/// A kernel's error as a cell: a disagreement, except running out of
/// memory, which says nothing about the kernel and is passed on.
fn disagreement(e: Error) -> Result<Cell, Error> {
    match e {
        Error::OutOfMemory { .. } => Err(e),
        e => Ok(Cell::Disagree(e.to_string())),
    }
}

fn check_seed001_dedup(n: usize, classes: &[Board]) -> Result<Cell, Error> {
    if !Kernel::ThreatMasks.sizes().contains(&n) {
        return Ok(Cell::Unsupported);
    }
    // Seed 001 keeps its own representative of each class (the smallest
    // mask); map each to our canonical form before comparing classes.
    let mapped = threat_masks::fundamental(n).map(|reps| {
        let mut canon: Vec<Board> = reps.iter().map(symmetry::canonical).collect();
        canon.sort_unstable();
        canon
    });
    compare_sets(mapped, classes)
}

/// Compares a sorted result with the sorted expected set; `Err` where
/// the result ran out of memory.
fn compare_sets(got: Result<Vec<Board>, Error>, expected: &[Board]) -> Result<Cell, Error> {
    let got = match got {
        Ok(got) => got,
        Err(e) => return disagreement(e),
    };
    if got == expected {
        return Ok(Cell::Agree);
    }
    let missing = expected
        .iter()
        .filter(|b| got.binary_search(b).is_err())
        .count();
    let extra = got
        .iter()
        .filter(|b| expected.binary_search(b).is_err())
        .count();
    Ok(Cell::Disagree(format!(
        "{} listed, expected {}: {missing} missing, {extra} extra",
        got.len(),
        expected.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solutions(n: usize) -> Vec<Board> {
        let mut all = crate::dispatch::solutions(Kernel::Portable, n).unwrap();
        all.sort_unstable();
        all
    }

    #[test]
    fn a_missing_an_extra_or_a_repeated_solution_is_a_disagreement() {
        let expected = solutions(6);
        let mut missing = expected.clone();
        missing.pop();
        let mut repeated = expected.clone();
        repeated.push(expected[0]);
        repeated.sort_unstable();
        let mut swapped = expected.clone();
        swapped[0] = Board::from_columns(&[0, 1, 2, 3, 4, 5]).unwrap();
        swapped.sort_unstable();

        assert_eq!(
            compare_sets(Ok(expected.clone()), &expected),
            Ok(Cell::Agree)
        );
        for wrong in [missing, repeated, swapped] {
            assert!(matches!(
                compare_sets(Ok(wrong), &expected),
                Ok(Cell::Disagree(_))
            ));
        }
        let failed = compare_sets(Err(Error::UnknownKernel("x".into())), &expected);
        assert!(matches!(failed, Ok(Cell::Disagree(_))));
    }

    /// Status 3 means two kernels disagree: a kernel that could not
    /// allocate checked nothing, and its error is passed on, not shown as
    /// a disagreement.
    #[test]
    fn running_out_of_memory_is_no_disagreement() {
        let expected = solutions(6);
        let failed = compare_sets(Err(Error::OutOfMemory { bytes: 4 << 20 }), &expected);
        assert_eq!(failed, Err(Error::OutOfMemory { bytes: 4 << 20 }));
    }

    #[test]
    fn the_oracle_is_checked_too() {
        let good = solutions(5);
        assert_eq!(check_oracle(&good, 10), Cell::Agree);
        assert!(matches!(check_oracle(&good, 11), Cell::Disagree(_)));
        let mut repeated = good.clone();
        repeated.insert(0, good[0]);
        assert!(matches!(check_oracle(&repeated, 11), Cell::Disagree(_)));
        let not_a_solution = vec![Board::from_columns(&[0, 1, 2, 3, 4]).unwrap()];
        assert!(matches!(
            check_oracle(&not_a_solution, 1),
            Cell::Disagree(_)
        ));
    }

    #[test]
    fn a_row_with_one_disagreement_does_not_agree() {
        let row = Row {
            n: 4,
            solutions: 2,
            classes: 1,
            cells: vec![Cell::Agree, Cell::Unsupported, Cell::Disagree("x".into())],
        };
        assert!(!row.agrees());
    }
}
