//! The symmetric kernel: one search per class of solutions under the eight
//! symmetries of the square, each class found once as its canonical form
//! (see [`crate::symmetry::canonical`]) with the size of its orbit; dead
//! ends pruned a row ahead, without a branch. Scalar Rust, `u32` masks,
//! every N from 0 to 32.
//!
//! # Which boards the search visits
//!
//! The canonical form of a class is its lexicographically smallest column
//! vector `p` (`p[row] = column`, `m = N - 1`). Two kinds of class:
//!
//! * **A queen in a corner.** At most one corner holds a queen (any two
//!   corners share a row, column or diagonal), so a class has 8 members, two
//!   of them with the queen at (0, 0): a board and its transpose. Their rows
//!   1 hold queens in columns `a = p[1]` and `b = p⁻¹[1]`, and `a != b`
//!   (queens at (1, a) and (a, 1) share an anti-diagonal). The canonical one
//!   has `a < b`: the search places (0, 0) and (1, a) for each `a` from 2 to
//!   `m`, and forbids column 1 in rows 2 to `a`. Every board found is
//!   canonical, with an orbit of 8: no check at the leaves.
//! * **No queen in a corner.** The row-0 queens of the eight images are the
//!   four edge queens read from either end of their edge: `p[0]`, `m -
//!   p[0]`, `p[m]`, `m - p[m]`, `p⁻¹[0]`, `m - p⁻¹[0]`, `p⁻¹[m]` and `m -
//!   p⁻¹[m]`. The canonical form has the smallest, `k = p[0]`, so its other
//!   edge queens lie at least `k` from every corner: the search places (0,
//!   k) for each `k` with `2k < m` (with `2k = m` the bottom queen would
//!   need column `k` too), forbids columns 0 and `m` in rows above `k` and
//!   below `m - k`, and allows row `m` only columns `k..=m-k`. An image
//!   other than the board itself can then start with `k` only if another
//!   edge queen sits exactly `k` from a corner (a *tie*: in row `k` or
//!   `m - k` of an outer column, or in column `m - k` of the bottom row).
//!   Each `k` gives six subproblems: five *tie* subproblems, each with one
//!   such queen pre-placed (and the earlier cases' squares forbidden, so
//!   that no board falls in two), whose leaves are compared with their
//!   images in full; and one *edge* subproblem with all tie squares forbidden,
//!   whose boards are all canonical with orbit 8, unchecked. A tie can
//!   reject the board (an image is smaller) or find it symmetric: the
//!   images equal to it (its stabilizer, only ever rotations) give the
//!   orbit size 8, 4 or 2.
//!
//! From N = 12 up the large subproblems (corners and edges) are split one
//! row further, one part per square of their first free row, so that no
//! part is much longer than the rest.
//!
//! # Dead ends pruned a row ahead
//!
//! For the row being filled the search keeps, besides the masks of taken
//! columns and diagonals, the squares of the *next* row that stay free
//! whatever this row does (`ahead`). A queen in column `c` takes columns
//! `c - 1`, `c` and `c + 1` of the next row, so it leaves the next row empty
//! exactly when `ahead` lies within those three columns. [`alive_columns`]
//! turns `ahead` into the set of such columns with two bit scans and a few
//! shifts, and the search only ever descends into the others (`live`): a
//! square whose next row is empty costs no branch and no iteration. At the
//! row before last, each live square is a whole solution, so the search
//! stops one row early and counts them.
//!
//! # Counting without branches: walkers
//!
//! Counting runs each subproblem as a *walker*: a stack of the rows that
//! still have live squares, where every step places a queen, pops the
//! entry it emptied and pushes the child row, both moves computed from
//! flags rather than branched on. The only branch left in
//! the inner loop is the end of a walk, so the branch predictor has nothing
//! to mispredict at the leaves, where almost all steps are. Three walkers,
//! on three subproblems, take turns step by step (`WALKERS`): each step's
//! chain of latency (load the top entry, compute the child, move the stack
//! pointer) overlaps the other walkers'. Tie subproblems run in a second
//! pass with walkers that record the path and check each leaf; a single
//! pass with both kinds in one loop measured 13% slower.
//!
//! Enumeration (and the fundamental solutions of `--unique`) uses the same
//! subproblems with an ordinary branching search, and expands each
//! canonical form into its orbit: every solution exactly once.
//!
//! # Two builds
//!
//! [`Symmetric`] is compiled for the target's baseline and runs anywhere.
//! [`SymmetricBmi`] is the same code compiled with BMI1, BMI2, LZCNT and
//! POPCNT (`#[target_feature]`, checked at run time), where the bit scans
//! and counts are single instructions: about 20% faster at N = 12 on the
//! reference machine.

use core::ops::ControlFlow;

use crate::board::MAX_N;
use crate::kernel::{Kernel, Solver, Visit};
use crate::{Board, Count, Error};

/// Entries of a walker's per-row arrays: a power of two, so that indices
/// masked with `SLOTS - 1` need no bounds check, and at least `MAX_N`: a
/// walk reads rows up to `N - 1` and keeps at most `N - 2` entries, from
/// slot 1.
const SLOTS: usize = 32;
const _: () = assert!(SLOTS.is_power_of_two() && SLOTS >= MAX_N);

/// The symmetric kernel, built for the baseline of the target. Runs on
/// every target.
#[derive(Clone, Copy, Debug, Default)]
pub struct Symmetric(());

impl Symmetric {
    /// Always `Some`: the symmetric kernel needs no CPU feature.
    pub fn new() -> Option<Symmetric> {
        Some(Symmetric(()))
    }
}

/// The symmetric kernel built with BMI1, BMI2, LZCNT and POPCNT (x86-64
/// only): the same code, whose bit scans, lowest-bit isolations, variable
/// shifts and leaf counts become single instructions (`tzcnt`, `lzcnt`,
/// `blsi`, `shlx`, `popcnt`) instead of sequences. Holding one proves the
/// CPU has those features.
#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
#[derive(Clone, Copy, Debug)]
pub struct SymmetricBmi(());

#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
impl SymmetricBmi {
    /// `Some` exactly where the CPU has BMI1, BMI2, LZCNT and POPCNT.
    pub fn new() -> Option<SymmetricBmi> {
        let detected = std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt");
        detected.then_some(SymmetricBmi(()))
    }
}

/// The columns of a row whose queen leaves the next row a free square,
/// given `ahead`, the next row's squares that no queen above attacks. A
/// queen in column `c` takes `c - 1`, `c` and `c + 1` of the next row, so
/// some square of `ahead` stays free exactly when one lies at or below `c -
/// 2` or at or above `c + 2`: when `c >= lo + 2` or `c <= hi - 2` for the
/// lowest and highest bits `lo` and `hi` of `ahead`. `ahead | -ahead` sets
/// every bit from `lo` up; a shift right by the leading zeros, every bit up
/// to `hi`. An empty `ahead` gives no column.
#[inline(always)]
pub fn alive_columns(ahead: u32) -> u32 {
    let from_lo = ahead | ahead.wrapping_neg();
    let up_to_hi = (u64::from(u32::MAX) >> ahead.leading_zeros()) as u32;
    from_lo << 2 | up_to_hi >> 2
}

/// The squares of a row that are free (`!(columns | left | right |
/// forbidden)`) and whose queen leaves the next row a free square.
#[inline(always)]
fn live_squares(columns: u32, left: u32, right: u32, forbidden: u32, forbidden_next: u32) -> u32 {
    let free = !(columns | left | right | forbidden);
    let ahead = !(columns | left << 1 | right >> 1 | forbidden_next);
    free & alive_columns(ahead)
}

/// How a subproblem's boards relate to their class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A queen at (0, 0): every board found is canonical, orbit 8.
    Corner,
    /// Row-0 queen in column `k`, no corner queen, and no other edge queen
    /// exactly `k` from a corner: every board found is canonical, orbit 8.
    Edge { k: usize },
    /// Row-0 queen in column `k`, no corner queen, and one of the other
    /// edge queens pre-placed exactly `k` from a corner: every board found
    /// is checked against its images.
    Tie { k: usize },
}

impl Kind {
    /// Whether boards of this kind need the full check.
    fn is_tie(self) -> bool {
        matches!(self, Kind::Tie { .. })
    }
}

/// One subproblem of the search: the first rows placed, the masks they
/// leave for the next row, and the columns each later row may not use.
#[derive(Clone, Debug)]
struct Subproblem {
    n: usize,
    kind: Kind,
    /// Rows placed: `queens[..start]`.
    start: usize,
    /// One bit per placed row: the queen's column.
    queens: [u32; MAX_N],
    /// Taken columns (off-board columns included, so `!columns` is on the
    /// board), and the diagonals attacking row `start`.
    columns: u32,
    left: u32,
    right: u32,
    /// Columns each row may not use, beyond the attacks; one spare entry
    /// past the last row.
    forbidden: [u32; MAX_N + 1],
}

impl Subproblem {
    /// An `n`x`n` board (`n` from 4 to 32) of the given kind with
    /// `first_queens` placed in rows 0, 1, ..., the queens of `fixed` (row,
    /// column) pre-placed further down (their rows may use only their
    /// column; every other row loses their column and diagonals), and the
    /// columns of `excluded` (row, columns) forbidden. `None` if these
    /// queens attack each other.
    fn new(
        n: usize,
        kind: Kind,
        first_queens: &[usize],
        fixed: &[(usize, usize)],
        excluded: &[(usize, u32)],
    ) -> Option<Subproblem> {
        debug_assert!((4..=MAX_N).contains(&n));
        let full = u32::MAX >> (MAX_N - n);
        let m = n - 1;
        let mut forbidden = [0u32; MAX_N + 1];
        match kind {
            Kind::Corner => {
                // Column 1 stays empty down to row a = first_queens[1].
                for row in forbidden.iter_mut().take(first_queens[1] + 1).skip(2) {
                    *row |= 1 << 1;
                }
            }
            Kind::Edge { k } | Kind::Tie { k } => {
                let edges = 1 | 1 << m;
                for (row, forbidden) in forbidden.iter_mut().enumerate().take(n) {
                    if row < k || row > m - k {
                        *forbidden |= edges;
                    }
                }
                // The bottom queen within columns k..=m-k.
                let middle = (full >> k << k) & (full >> k);
                forbidden[m] |= full & !middle;
            }
        }
        for &(row, columns) in excluded {
            forbidden[row] |= columns;
        }
        for &(fixed_row, col) in fixed {
            for (row, forbidden) in forbidden.iter_mut().enumerate().take(n) {
                let distance = row.abs_diff(fixed_row);
                *forbidden |= if distance == 0 {
                    full & !(1 << col)
                } else {
                    // Its column and both diagonals; bits off the board fall
                    // off the u64 or land on taken off-board columns.
                    let bit = 1u64 << col;
                    (bit | bit << distance | bit >> distance) as u32
                };
            }
        }
        let mut sub = Subproblem {
            n,
            kind,
            start: 0,
            queens: [0; MAX_N],
            columns: !full,
            left: 0,
            right: 0,
            forbidden,
        };
        for &col in first_queens {
            let bit = 1u32 << col;
            if (sub.columns | sub.left | sub.right | sub.forbidden[sub.start]) & bit != 0 {
                return None;
            }
            sub.place(bit);
        }
        // A fixed queen attacked by another forbids nothing but finds its
        // own square forbidden.
        if fixed
            .iter()
            .any(|&(row, col)| sub.forbidden[row] & 1 << col != 0)
        {
            return None;
        }
        Some(sub)
    }

    /// The live squares of row `start`: the queens that may come next.
    fn live(&self) -> u32 {
        live_squares(
            self.columns,
            self.left,
            self.right,
            self.forbidden[self.start],
            self.forbidden[self.start + 1],
        )
    }

    /// Places the queen `bit` in row `start`, the next row.
    fn place(&mut self, bit: u32) {
        self.queens[self.start] = bit;
        self.start += 1;
        self.columns |= bit;
        self.left = (self.left | bit) << 1;
        self.right = (self.right | bit) >> 1;
    }

    /// This subproblem with the queen `bit` (a live square) placed in row
    /// `start`.
    fn with_queen(&self, bit: u32) -> Subproblem {
        let mut part = self.clone();
        part.place(bit);
        part
    }

    /// Runs the search; calls `leaves` at every board with rows up to
    /// `N - 2` to fill (`queens[..N - 2]` placed), with the masks of row
    /// `N - 2` and its live squares, each of which completes one solution.
    #[inline(always)]
    fn search<F>(&self, mut leaves: F) -> ControlFlow<()>
    where
        F: FnMut(&[u32; MAX_N], u32, u32, u32, u32) -> ControlFlow<()>,
    {
        let n = self.n;
        let leaf_row = n - 2;
        let forbidden = &self.forbidden;
        let mut queens = self.queens;
        let start = self.start;
        debug_assert!(start <= leaf_row);
        let live = live_squares(
            self.columns,
            self.left,
            self.right,
            forbidden[start],
            forbidden[start + 1],
        );
        if start == leaf_row {
            return leaves(&queens, self.columns, self.left, self.right, live);
        }
        // The stack, one array per field, indexed by row.
        let mut stack_live = [0u32; MAX_N];
        let mut stack_columns = [0u32; MAX_N];
        let mut stack_left = [0u32; MAX_N];
        let mut stack_right = [0u32; MAX_N];
        let mut row = start;
        stack_live[row] = live;
        stack_columns[row] = self.columns;
        stack_left[row] = self.left;
        stack_right[row] = self.right;
        loop {
            let live = stack_live[row];
            if live == 0 {
                if row == start {
                    return ControlFlow::Continue(());
                }
                row -= 1;
                continue;
            }
            let bit = live & live.wrapping_neg();
            stack_live[row] = live ^ bit;
            queens[row] = bit;
            let columns = stack_columns[row] | bit;
            let left = (stack_left[row] | bit) << 1;
            let right = (stack_right[row] | bit) >> 1;
            let next = row + 1;
            let live = live_squares(columns, left, right, forbidden[next], forbidden[next + 1]);
            if next == leaf_row {
                leaves(&queens, columns, left, right, live)?;
                continue;
            }
            row = next;
            stack_live[row] = live;
            stack_columns[row] = columns;
            stack_left[row] = left;
            stack_right[row] = right;
        }
    }

    /// Calls `visit` with every canonical form in this subproblem and its
    /// orbit size.
    fn for_each_class(
        &self,
        visit: &mut dyn FnMut(&Board, u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let n = self.n;
        self.search(|queens, columns, left, right, live| {
            self.for_each_leaf(queens, columns, left, right, live, |rows| {
                let orbit = if self.kind.is_tie() {
                    orbit_if_canonical(n, rows)
                } else {
                    8
                };
                if orbit == 0 {
                    return ControlFlow::Continue(());
                }
                visit(&board_of(&rows[..n]), orbit)
            })
        })
    }

    /// Completes each live square of row `N - 2` into its solution (one bit
    /// per row) and calls `visit` with it.
    #[inline(always)]
    fn for_each_leaf(
        &self,
        queens: &[u32; MAX_N],
        columns: u32,
        left: u32,
        right: u32,
        mut live: u32,
        mut visit: impl FnMut(&[u32; MAX_N]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let m = self.n - 1;
        let mut rows = *queens;
        while live != 0 {
            let bit = live & live.wrapping_neg();
            live ^= bit;
            rows[m - 1] = bit;
            rows[m] = !(columns | bit | (left | bit) << 1 | (right | bit) >> 1 | self.forbidden[m]);
            debug_assert_eq!(rows[m].count_ones(), 1);
            visit(&rows)?;
        }
        ControlFlow::Continue(())
    }
}

/// One entry of a [`Walker`]'s stack: a row with squares left to try and
/// the masks they were found with, 16 bytes stored and loaded together.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Entry {
    live: u32,
    columns: u32,
    left: u32,
    right: u32,
}

/// The counting search of one subproblem, reshaped so that every step
/// places a queen and none merely backtracks, and driven one step at a time
/// so that several walkers can take turns (see [`count_all`]). `TIES`: the
/// subproblems are of [`Kind::Tie`], whose leaves are checked one by one.
///
/// The stack holds only rows with squares left to try. A step takes the
/// lowest live square of the top entry, drops the entry if that was its
/// last, and pushes the child row unless it is at the leaves (whose live
/// squares it then counts) or has none. Both moves of the stack pointer are
/// arithmetic on flags, not branches: without ties, no branch depends on
/// the board. What limits a walker is then the chain from one step's stack
/// pointer to the next one's, through a load and the child's masks; a
/// second walker's steps fill that wait.
struct Walker<const TIES: bool> {
    sub: Subproblem,
    /// The row before last, whose live squares are leaves.
    leaf_row: usize,
    /// Index of the top entry; 0 when the walk is over (slot 0 is unused).
    top: usize,
    rows: [u32; SLOTS],
    entries: [Entry; SLOTS],
    /// The subproblem's forbidden columns, in an array whose indices,
    /// masked, need no bounds check.
    forbidden: [u32; SLOTS],
    /// With `TIES`, the queen of each row on the current path, one bit.
    queens: [u32; SLOTS],
    /// Each leaf counts `orbit`: 8 for solutions, 1 for classes.
    orbit: u64,
    /// Leaves found without ties, each worth `orbit`.
    leaves: u64,
    /// Solutions or classes of the checked leaves.
    total: u64,
}

impl<const TIES: bool> Walker<TIES> {
    fn idle(classes: bool) -> Self {
        Walker {
            sub: Subproblem {
                n: 4,
                kind: Kind::Corner,
                start: 0,
                queens: [0; MAX_N],
                columns: 0,
                left: 0,
                right: 0,
                forbidden: [0; MAX_N + 1],
            },
            leaf_row: 0,
            top: 0,
            forbidden: [0; SLOTS],
            rows: [0; SLOTS],
            entries: [Entry::default(); SLOTS],
            queens: [0; SLOTS],
            orbit: if classes { 1 } else { 8 },
            leaves: 0,
            total: 0,
        }
    }

    /// The walk's solutions or classes so far, reset to zero.
    fn take_total(&mut self) -> u64 {
        let total = self.orbit * self.leaves + self.total;
        (self.leaves, self.total) = (0, 0);
        total
    }

    /// Whether the walk has steps left.
    #[inline(always)]
    fn running(&self) -> bool {
        self.top != 0
    }

    /// Starts walking `sub` (the previous walk must be over).
    fn start(&mut self, sub: &Subproblem) {
        debug_assert_eq!(sub.kind.is_tie(), TIES);
        self.forbidden[..MAX_N].copy_from_slice(&sub.forbidden[..MAX_N]);
        self.leaf_row = sub.n - 2;
        if TIES {
            // Only the checks at the leaves read the placed queens and the
            // subproblem itself.
            self.queens[..MAX_N].copy_from_slice(&sub.queens);
            self.sub.clone_from(sub);
        }
        let start = sub.start;
        let live = live_squares(
            sub.columns,
            sub.left,
            sub.right,
            sub.forbidden[start],
            sub.forbidden[start + 1],
        );
        let (columns, left, right) = (sub.columns, sub.left, sub.right);
        if start == self.leaf_row {
            self.score(columns, left, right, live);
            self.top = 0;
        } else {
            self.top = usize::from(live != 0);
            self.rows[1] = start as u32;
            self.entries[1] = Entry {
                live,
                columns,
                left,
                right,
            };
        }
    }

    /// Adds `leaves`, live squares of row `N - 2` (whose masks are given),
    /// to the total.
    #[inline(always)]
    fn score(&mut self, columns: u32, left: u32, right: u32, leaves: u32) {
        if !TIES {
            self.leaves += u64::from(leaves.count_ones());
        } else if leaves != 0 {
            self.total += self.score_ties(columns, left, right, leaves);
        }
    }

    /// One step of the walk (which must be running).
    #[inline(always)]
    fn step(&mut self) {
        let top = self.top & (SLOTS - 1);
        let row = self.rows[top] as usize;
        let entry = self.entries[top];
        let bit = entry.live & entry.live.wrapping_neg();
        let rest = entry.live ^ bit;
        self.entries[top].live = rest;
        if TIES {
            self.queens[row & (SLOTS - 1)] = bit;
        }
        let columns = entry.columns | bit;
        let left = (entry.left | bit) << 1;
        let right = (entry.right | bit) >> 1;
        let next = row + 1;
        let forbidden = &self.forbidden;
        let child = live_squares(
            columns,
            left,
            right,
            forbidden[next & (SLOTS - 1)],
            forbidden[(next + 1) & (SLOTS - 1)],
        );
        let at_leaf = next == self.leaf_row;
        // Drop the entry once its last square is taken; write the child
        // where it goes, but count it in only if it is alive and not at
        // the leaves.
        let top = top - usize::from(rest == 0);
        let slot = (top + 1) & (SLOTS - 1);
        self.rows[slot] = next as u32;
        self.entries[slot] = Entry {
            live: child,
            columns,
            left,
            right,
        };
        self.top = top + usize::from(!at_leaf & (child != 0));
        self.score(
            columns,
            left,
            right,
            child & u32::from(at_leaf).wrapping_neg(),
        );
    }

    /// The leaves of a tie subproblem, each checked in full.
    #[cold]
    #[inline(never)]
    fn score_ties(&self, columns: u32, left: u32, right: u32, leaves: u32) -> u64 {
        let mut total = 0;
        let mut queens = [0u32; MAX_N];
        queens.copy_from_slice(&self.queens[..MAX_N]);
        let _ = self
            .sub
            .for_each_leaf(&queens, columns, left, right, leaves, |rows| {
                let orbit = orbit_if_canonical(self.sub.n, rows);
                total += if self.orbit == 1 {
                    u64::from(orbit != 0)
                } else {
                    u64::from(orbit)
                };
                ControlFlow::Continue(())
            });
        total
    }
}

/// Walkers that take turns, step for step: independent searches whose
/// chains of latency overlap.
const WALKERS: usize = 3;

/// The solutions (or with `classes`, the classes) of all `subproblems`
/// (all of kind [`Kind::Tie`] exactly when `TIES`), counted by [`WALKERS`]
/// walkers in turn.
#[inline(always)]
fn count_with<const TIES: bool>(
    mut subproblems: impl Iterator<Item = Subproblem>,
    classes: bool,
) -> Count {
    let mut walkers: [Walker<TIES>; WALKERS] = core::array::from_fn(|_| Walker::idle(classes));
    let mut total: Count = 0;
    let mut more = true;
    loop {
        // Give every idle walker a subproblem that has steps.
        for walker in &mut walkers {
            while more && !walker.running() {
                total += Count::from(walker.take_total());
                match subproblems.next() {
                    Some(sub) => walker.start(&sub),
                    None => more = false,
                }
            }
        }
        if !more {
            break;
        }
        while walkers.iter().all(Walker::running) {
            for walker in &mut walkers {
                walker.step();
            }
        }
    }
    for walker in &mut walkers {
        while walker.running() {
            walker.step();
        }
        total += Count::from(walker.take_total());
    }
    total
}

/// The solutions (or with `classes`, the classes) of an `n`x`n` board, `n`
/// from 4 to 32. Inlined into each of its callers, which compile it for
/// their own target features.
#[inline(always)]
fn count_all(n: usize, classes: bool) -> Count {
    count_with::<false>(subproblems(n, Some(false)), classes)
        + count_with::<true>(subproblems(n, Some(true)), classes)
}

/// The board whose row `r` holds the queen of bit `rows[r]`.
fn board_of(rows: &[u32]) -> Board {
    let mut columns = [0u8; MAX_N];
    for (col, bit) in columns.iter_mut().zip(rows) {
        *col = bit.trailing_zeros() as u8;
    }
    Board::from_permutation(&columns[..rows.len()])
}

/// For a solution of a tie subproblem (one bit per row), its orbit size if
/// it is its class's canonical form, else 0.
fn orbit_if_canonical(n: usize, rows: &[u32; MAX_N]) -> u32 {
    crate::symmetry::canonical_orbit_size(&board_of(&rows[..n])).map_or(0, |size| size as u32)
}

/// Subproblem number `index` of an `n`x`n` board (`n` from 4 to 32):
/// `None` past the last one, `Some(None)` for one whose queens attack each
/// other or whose kind `ties` leaves out (`Some(true)`: ties only,
/// `Some(false)`: all but ties; known before the subproblem is built).
/// Together their canonical forms are all classes, each exactly once.
fn subproblem(n: usize, index: usize, ties: Option<bool>) -> Option<Option<Subproblem>> {
    let m = n - 1;
    let wanted = |is_tie: bool| ties.is_none_or(|ties| ties == is_tie);
    // (0, 0) and (1, a) for a from 2 to m.
    let corners = m - 1;
    if index < corners {
        if !wanted(false) {
            return Some(None);
        }
        return Some(Subproblem::new(n, Kind::Corner, &[0, index + 2], &[], &[]));
    }
    // Six per k with 2k < m: (0, k) and the other edge queens at least k
    // from the corners.
    let (k, case) = ((index - corners) / 6 + 1, (index - corners) % 6);
    if 2 * k >= m {
        return None;
    }
    if !wanted(case < 5) {
        return Some(None);
    }
    let edges = 1 | 1 << m;
    let tie = Kind::Tie { k };
    let sides = [(k, edges), (m - k, edges)];
    Some(match case {
        // The ties, each case once: a side queen in row k; else one in row
        // m - k; else the bottom queen in column m - k (column k is row
        // 0's).
        0 => Subproblem::new(n, tie, &[k], &[(k, 0)], &[]),
        1 => Subproblem::new(n, tie, &[k], &[(k, m)], &[]),
        2 => Subproblem::new(n, tie, &[k], &[(m - k, 0)], &sides[..1]),
        3 => Subproblem::new(n, tie, &[k], &[(m - k, m)], &sides[..1]),
        4 => Subproblem::new(n, tie, &[k], &[(m, m - k)], &sides),
        // No tie: no edge queen exactly k from a corner but row 0's.
        _ => Subproblem::new(
            n,
            Kind::Edge { k },
            &[k],
            &[],
            &[sides[0], sides[1], (m, 1 << (m - k))],
        ),
    })
}

/// The subproblems of an `n`x`n` board, `n` from 4 to 32, all or (with
/// `ties`) only those of kind [`Kind::Tie`] or only the others; from N = 12
/// up, the large ones (all but the ties) split one row further, so that the
/// walkers that take turns run out of work at about the same time.
fn subproblems(n: usize, ties: Option<bool>) -> Subproblems {
    Subproblems {
        n,
        ties,
        index: 0,
        split: None,
    }
}

/// The iterator of [`subproblems`], written out so that each subproblem
/// (some 300 bytes) is built in place and moved once, not once per
/// iterator adapter.
struct Subproblems {
    n: usize,
    ties: Option<bool>,
    /// The next index for [`subproblem`].
    index: usize,
    /// A subproblem being split, and its row's squares not yet handed out.
    split: Option<(Subproblem, u32)>,
}

impl Iterator for Subproblems {
    type Item = Subproblem;

    fn next(&mut self) -> Option<Subproblem> {
        loop {
            if let Some((parent, live)) = &mut self.split {
                if *live != 0 {
                    let bit = *live & live.wrapping_neg();
                    *live ^= bit;
                    return Some(parent.with_queen(bit));
                }
                self.split = None;
            }
            let sub = subproblem(self.n, self.index, self.ties)?;
            self.index += 1;
            let Some(sub) = sub else {
                continue;
            };
            let n = self.n;
            if n >= 12 && !sub.kind.is_tie() && sub.start + 1 < n - 2 {
                let live = sub.live();
                self.split = Some((sub, live));
                continue;
            }
            return Some(sub);
        }
    }
}

/// Boards too small for the subproblems (`n < 4`): their classes, straight
/// from the portable kernel and the symmetry group.
fn for_each_small_class(
    n: usize,
    visit: &mut dyn FnMut(&Board, u32) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let solutions =
        crate::kernel::portable::Solutions::new(n).expect("n < 4 fits the portable kernel");
    for board in solutions {
        if let Some(size) = crate::symmetry::canonical_orbit_size(&board) {
            visit(&board, size as u32)?;
        }
    }
    ControlFlow::Continue(())
}

/// Calls `visit` with the canonical form of every class of solutions on an
/// `n`x`n` board and the size of its orbit, until it returns `Break`.
pub fn for_each_class(
    n: usize,
    visit: &mut dyn FnMut(&Board, u32) -> ControlFlow<()>,
) -> Result<ControlFlow<()>, Error> {
    Kernel::Symmetric.check_size(n)?;
    if n < 4 {
        return Ok(for_each_small_class(n, visit));
    }
    for sub in subproblems(n, None) {
        if sub.for_each_class(visit).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// The count of solutions, or with `classes` of classes, on an `n`x`n`
/// board by `kernel`, whose counting engine for `n` from 4 up is `engine`.
fn count(
    kernel: Kernel,
    n: usize,
    classes: bool,
    engine: impl FnOnce(usize, bool) -> Count,
) -> Result<Count, Error> {
    kernel.check_size(n)?;
    if n >= 4 {
        return Ok(engine(n, classes));
    }
    let mut total: Count = 0;
    let _ = for_each_small_class(n, &mut |_, orbit| {
        total += if classes { 1 } else { Count::from(orbit) };
        ControlFlow::Continue(())
    });
    Ok(total)
}

/// [`count_all`] compiled for the target's baseline.
fn count_baseline(n: usize, classes: bool) -> Count {
    count_all(n, classes)
}

/// [`count_all`] compiled with BMI1, BMI2, LZCNT and POPCNT.
#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
fn count_bmi(n: usize, classes: bool) -> Count {
    count_all(n, classes)
}

/// Enumeration is the same for both builds: each class's canonical form
/// from the (branching) search, expanded into its orbit.
macro_rules! symmetric_solver {
    ($kernel_type:ty, $kernel:expr, $engine:expr) => {
        impl Solver for $kernel_type {
            fn kernel(&self) -> Kernel {
                $kernel
            }

            fn count(&self, n: usize) -> Result<Count, Error> {
                count($kernel, n, false, $engine)
            }

            fn for_each_solution(
                &self,
                n: usize,
                visit: Visit<'_>,
            ) -> Result<ControlFlow<()>, Error> {
                $kernel.check_size(n)?;
                for_each_class(n, &mut |board, _| {
                    crate::symmetry::orbit(board).try_for_each(|image| visit(&image))
                })
            }

            fn for_each_fundamental(
                &self,
                n: usize,
                visit: Visit<'_>,
            ) -> Result<ControlFlow<()>, Error> {
                $kernel.check_size(n)?;
                for_each_class(n, &mut |board, _| visit(board))
            }

            fn count_fundamental(&self, n: usize) -> Result<Count, Error> {
                count($kernel, n, true, $engine)
            }
        }
    };
}

symmetric_solver!(Symmetric, Kernel::Symmetric, count_baseline);

#[cfg(all(target_arch = "x86_64", not(queens_simd_force_portable)))]
symmetric_solver!(SymmetricBmi, Kernel::SymmetricBmi, |n, classes| {
    // SAFETY: a `SymmetricBmi` exists only where `SymmetricBmi::new` found
    // BMI1, BMI2, LZCNT and POPCNT on this CPU, the features `count_bmi` is
    // compiled with. It takes no pointers.
    unsafe { count_bmi(n, classes) }
});

#[cfg(test)]
mod tests {
    use super::*;

    /// `alive_columns` against its definition, for every `ahead` of 10
    /// bits and some wider ones.
    #[test]
    fn alive_columns_are_those_that_leave_the_next_row_a_square() {
        let wide = [u32::MAX, 1 << 31, 3 << 30, 0x8000_0001, 0x0F0F_0000];
        for ahead in (0u32..1024).chain(wide) {
            let expected = (0..32).fold(0u32, |alive, c| {
                let taken = (0b111u64 << c >> 1) as u32;
                if ahead & !taken != 0 {
                    alive | 1 << c
                } else {
                    alive
                }
            });
            assert_eq!(alive_columns(ahead), expected, "ahead = {ahead:#b}");
        }
    }

    #[test]
    fn every_class_is_found_once_as_its_canonical_form() {
        for n in 0..=10 {
            let mut found = Vec::new();
            let _ = for_each_class(n, &mut |board, orbit| {
                assert_eq!(crate::symmetry::canonical(board), *board, "N = {n}");
                assert_eq!(crate::symmetry::orbit_size(board) as u32, orbit, "N = {n}");
                found.push(*board);
                ControlFlow::Continue(())
            });
            let mut expected = crate::fundamental::solutions(Kernel::Portable, n).unwrap();
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "N = {n}");
        }
    }
}
