//! The subproblems of the symmetric search: which boards each one covers,
//! how they are built and split, and the branching search over them
//! (enumeration, fundamental solutions).

use core::ops::ControlFlow;

use super::live_squares;
use crate::{Board, MAX_N};

/// How a subproblem's boards relate to their class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RootKind {
    /// A queen at (0, 0): every board found is canonical, orbit 8.
    Corner,
    /// Row-0 queen in column `k`, no corner queen, and no other edge queen
    /// exactly `k` from a corner: every board found is canonical, orbit 8.
    Edge { k: usize },
    /// Row-0 queen in column `k`, no corner queen, and one of the other
    /// edge queens pre-placed exactly `k` from a corner: every board found
    /// is checked against its images.
    Tie { k: usize },
    /// Not part of the symmetric search: a partial board given by a user,
    /// every completion of which counts once.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
    Plain,
}

impl RootKind {
    /// Whether boards of this kind need the full check.
    pub(crate) fn is_tie(self) -> bool {
        matches!(self, RootKind::Tie { .. })
    }

    /// What an unchecked board of this kind counts for: its orbit, 8, in
    /// the symmetric search; 1 on a plain partial board. (Tie boards are
    /// checked one by one and do not use it.)
    pub(crate) fn orbit(self) -> u64 {
        match self {
            RootKind::Corner | RootKind::Edge { .. } | RootKind::Tie { .. } => 8,
            RootKind::Plain => 1,
        }
    }
}

/// One subproblem of the search: the first rows placed, the masks they
/// leave for the next row, and the columns each later row may not use.
#[derive(Clone, Debug)]
pub(crate) struct SearchRoot {
    pub(crate) n: usize,
    pub(crate) kind: RootKind,
    /// Rows placed: `queens[..start]`.
    pub(crate) start: usize,
    /// One bit per row whose queen was pre-placed below `start`: the only
    /// column `forbidden` leaves that row.
    pub(crate) fixed_rows: u32,
    /// One bit per placed row: the queen's column.
    pub(crate) queens: [u32; MAX_N],
    /// Taken columns (off-board columns included, so `!columns` is on the
    /// board), and the diagonals attacking row `start`.
    pub(crate) columns: u32,
    pub(crate) left: u32,
    pub(crate) right: u32,
    /// Columns each row may not use, beyond the attacks; one spare entry
    /// past the last row.
    pub(crate) forbidden: [u32; MAX_N + 1],
}

impl SearchRoot {
    /// An `n`x`n` board (`n` from 4 to 32) of the given kind with
    /// `first_queens` placed in rows 0, 1, ..., the queens of `fixed` (row,
    /// column) pre-placed further down (their rows may use only their
    /// column; every other row loses their column and diagonals), and the
    /// columns of `excluded` (row, columns) forbidden. `None` if these
    /// queens attack each other.
    pub(crate) fn new(
        n: usize,
        kind: RootKind,
        first_queens: &[usize],
        fixed: &[(usize, usize)],
        excluded: &[(usize, u32)],
    ) -> Option<SearchRoot> {
        debug_assert!((4..=MAX_N).contains(&n));
        let full = u32::MAX >> (MAX_N - n);
        let m = n - 1;
        let mut forbidden = [0u32; MAX_N + 1];
        match kind {
            RootKind::Corner => {
                // Column 1 stays empty down to row a = first_queens[1].
                for row in forbidden.iter_mut().take(first_queens[1] + 1).skip(2) {
                    *row |= 1 << 1;
                }
            }
            RootKind::Plain => {}
            RootKind::Edge { k } | RootKind::Tie { k } => {
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
                let distance = row.abs_diff(fixed_row) as u32;
                *forbidden |= fixed_queen_squares(distance, 1 << col, full);
            }
        }
        let mut sub = SearchRoot {
            n,
            kind,
            start: 0,
            fixed_rows: 0,
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
        for &(row, _) in fixed {
            sub.fixed_rows |= 1 << row;
        }
        sub.fixed_rows &= !((1u64 << sub.start) - 1) as u32;
        Some(sub)
    }

    /// The live squares of row `start`: the queens that may come next.
    pub(crate) fn live(&self) -> u32 {
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
        self.fixed_rows &= !(1 << self.start);
        self.start += 1;
        self.columns |= bit;
        self.left = (self.left | bit) << 1;
        self.right = (self.right | bit) >> 1;
    }

    /// This subproblem with the queen `bit` (a live square) placed in row
    /// `start`.
    pub(crate) fn with_queen(&self, bit: u32) -> SearchRoot {
        let mut part = self.clone();
        part.place(bit);
        part
    }

    /// This subproblem split one row further, one part per live square of
    /// its first free row, in order; itself alone where that row is the
    /// last before the leaves' (`start + 1 >= N - 2`).
    pub(crate) fn split_one_row(self) -> Parts {
        let split = self.start + 1 < self.n - 2;
        Parts {
            live: if split { self.live() } else { 0 },
            split,
            parent: Some(self),
        }
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
    pub(crate) fn for_each_class(
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
    pub(super) fn for_each_leaf(
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

impl SearchRoot {
    /// The solutions (or with `classes`, the classes) that the live squares
    /// `leaves` of row `N - 2` complete, each board checked against its
    /// images: how a tie subproblem scores its leaves, on the scalar
    /// walkers and in lanes alike. `queens` holds the path's queens of rows
    /// up to `N - 3`, `columns`, `left` and `right` the masks of row `N - 2`.
    pub(crate) fn checked_leaves(
        &self,
        queens: &[u32; MAX_N],
        (columns, left, right): (u32, u32, u32),
        leaves: u32,
        classes: bool,
    ) -> u64 {
        let mut total = 0;
        let _ = self.for_each_leaf(queens, columns, left, right, leaves, |rows| {
            let orbit = orbit_if_canonical(self.n, rows);
            total += if classes {
                u64::from(orbit != 0)
            } else {
                u64::from(orbit)
            };
            ControlFlow::Continue(())
        });
        total
    }
}

/// The squares that a queen pre-placed in column `column` (one bit) forbids
/// in a row `distance` rows from its own (below 32), on a board of columns
/// `full`: every other column in its own row; elsewhere its column and
/// both diagonals (bits off the board fall off the u64 or land on taken
/// off-board columns).
pub(crate) fn fixed_queen_squares(distance: u32, column: u32, full: u32) -> u32 {
    if distance == 0 {
        full & !column
    } else {
        let bit = u64::from(column);
        (bit | bit << distance | bit >> distance) as u32
    }
}

/// The board whose row `r` holds the queen of bit `rows[r]`.
pub(super) fn board_of(rows: &[u32]) -> Board {
    let mut columns = [0u8; MAX_N];
    for (col, bit) in columns.iter_mut().zip(rows) {
        *col = bit.trailing_zeros() as u8;
    }
    Board::from_permutation(&columns[..rows.len()])
}

/// For a solution of a tie subproblem (one bit per row), its orbit size if
/// it is its class's canonical form, else 0.
pub(super) fn orbit_if_canonical(n: usize, rows: &[u32; MAX_N]) -> u32 {
    crate::symmetry::canonical_orbit_size(&board_of(&rows[..n])).map_or(0, |size| size as u32)
}

/// SearchRoot number `index` of an `n`x`n` board (`n` from 4 to 32):
/// `None` past the last one, `Some(None)` for one whose queens attack each
/// other or whose kind `ties` leaves out (`Some(true)`: ties only,
/// `Some(false)`: all but ties; known before the subproblem is built).
/// Together their canonical forms are all classes, each exactly once.
fn subproblem(n: usize, index: usize, ties: Option<bool>) -> Option<Option<SearchRoot>> {
    let m = n - 1;
    let wanted = |is_tie: bool| ties.is_none_or(|ties| ties == is_tie);
    // (0, 0) and (1, a) for a from 2 to m.
    let corners = m - 1;
    if index < corners {
        if !wanted(false) {
            return Some(None);
        }
        return Some(SearchRoot::new(
            n,
            RootKind::Corner,
            &[0, index + 2],
            &[],
            &[],
        ));
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
    let tie = RootKind::Tie { k };
    let sides = [(k, edges), (m - k, edges)];
    Some(match case {
        // The ties, each case once: a side queen in row k; else one in row
        // m - k; else the bottom queen in column m - k (column k is row
        // 0's).
        0 => SearchRoot::new(n, tie, &[k], &[(k, 0)], &[]),
        1 => SearchRoot::new(n, tie, &[k], &[(k, m)], &[]),
        2 => SearchRoot::new(n, tie, &[k], &[(m - k, 0)], &sides[..1]),
        3 => SearchRoot::new(n, tie, &[k], &[(m - k, m)], &sides[..1]),
        4 => SearchRoot::new(n, tie, &[k], &[(m, m - k)], &sides),
        // No tie: no edge queen exactly k from a corner but row 0's.
        _ => SearchRoot::new(
            n,
            RootKind::Edge { k },
            &[k],
            &[],
            &[sides[0], sides[1], (m, 1 << (m - k))],
        ),
    })
}

/// The subproblems of an `n`x`n` board, `n` from 4 to 32, all or (with
/// `ties`) only those of kind [`RootKind::Tie`] or only the others; from N = 12
/// up, the large ones (all but the ties) split one row further, so that the
/// walkers that take turns run out of work at about the same time.
pub(crate) fn subproblems(n: usize, ties: Option<bool>) -> SearchRoots {
    SearchRoots {
        n,
        ties,
        index: 0,
        split: None,
    }
}

/// The iterator of [`subproblems`], written out so that each subproblem
/// (some 300 bytes) is built in place and moved once, not once per
/// iterator adapter.
pub(crate) struct SearchRoots {
    n: usize,
    ties: Option<bool>,
    /// The next index for [`subproblem`].
    index: usize,
    /// The parts of a subproblem being split.
    split: Option<Parts>,
}

/// The parts of a subproblem split one row further
/// ([`SearchRoot::split_one_row`]), each built as it is handed out.
pub(crate) struct Parts {
    /// The subproblem split (until handed out whole, if not split).
    parent: Option<SearchRoot>,
    /// Its first free row's squares not yet handed out.
    live: u32,
    /// Whether it is split at all.
    split: bool,
}

impl Iterator for Parts {
    type Item = SearchRoot;

    fn next(&mut self) -> Option<SearchRoot> {
        if !self.split {
            return self.parent.take();
        }
        let bit = self.live & self.live.wrapping_neg();
        self.live ^= bit;
        let parent = self.parent.as_ref()?;
        (bit != 0).then(|| parent.with_queen(bit))
    }
}

impl Iterator for SearchRoots {
    type Item = SearchRoot;

    fn next(&mut self) -> Option<SearchRoot> {
        loop {
            if let Some(part) = self.split.as_mut().and_then(Iterator::next) {
                return Some(part);
            }
            self.split = None;
            let sub = subproblem(self.n, self.index, self.ties)?;
            self.index += 1;
            let Some(sub) = sub else {
                continue;
            };
            let n = self.n;
            if n >= 12 && !sub.kind.is_tie() && sub.start + 1 < n - 2 {
                self.split = Some(sub.split_one_row());
                continue;
            }
            return Some(sub);
        }
    }
}

/// Every subproblem of an `n`x`n` board (`n` from 4 to 32), none split:
/// the corners, then for each `k` its five ties and its edge. Together
/// their canonical forms are all classes, each exactly once.
#[cfg_attr(not(feature = "std"), allow(dead_code))] // for the plan (`std`)
pub(crate) fn unsplit_subproblems(n: usize) -> impl Iterator<Item = SearchRoot> {
    (0..)
        .map(move |index| subproblem(n, index, None))
        .take_while(Option::is_some)
        .flatten()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest N whose subproblems the tests below search. Miri
    /// (`.ci/miri`) runs this code some thousand times slower than a native
    /// build, so under it the same assertions search boards up to N = 8
    /// instead of N = 11. (Building the subproblems, without searching
    /// them, is cheap: `split_from_12_on` builds them up to N = 14 also
    /// under Miri.)
    const SEARCHED_UP_TO: usize = if cfg!(miri) { 8 } else { 11 };

    /// Everything that defines a subproblem, to compare two.
    #[allow(clippy::type_complexity)]
    fn fields(sub: &SearchRoot) -> (usize, RootKind, usize, u32, &[u32], u32, u32, u32, &[u32]) {
        (
            sub.n,
            sub.kind,
            sub.start,
            sub.fixed_rows,
            &sub.queens[..],
            sub.columns,
            sub.left,
            sub.right,
            &sub.forbidden[..],
        )
    }

    /// The canonical forms a subproblem's search finds, with their orbits.
    fn classes(sub: &SearchRoot) -> Vec<(Board, u32)> {
        let mut found = Vec::new();
        let flow = sub.for_each_class(&mut |board, orbit| {
            found.push((*board, orbit));
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        found
    }

    /// `subproblems` lists the unsplit subproblems, ties or the others as
    /// asked, and from N = 12 up the large ones split one row further: one
    /// part per live square of their first free row, in order.
    #[test]
    fn split_from_12_on() {
        for n in 4..=14 {
            let mut expected = Vec::new();
            for sub in unsplit_subproblems(n) {
                if n >= 12 && !sub.kind.is_tie() && sub.start + 1 < n - 2 {
                    let mut live = sub.live();
                    assert_ne!(live, 0, "N = {n}: {sub:?}");
                    while live != 0 {
                        let bit = live & live.wrapping_neg();
                        live ^= bit;
                        expected.push(sub.with_queen(bit));
                    }
                } else {
                    expected.push(sub);
                }
            }
            let all: Vec<SearchRoot> = subproblems(n, None).collect();
            let all_fields: Vec<_> = all.iter().map(fields).collect();
            let expected_fields: Vec<_> = expected.iter().map(fields).collect();
            assert_eq!(all_fields, expected_fields, "N = {n}");
            for ties in [true, false] {
                let listed: Vec<SearchRoot> = subproblems(n, Some(ties)).collect();
                let kept = all.iter().filter(|s| s.kind.is_tie() == ties).map(fields);
                assert!(listed.iter().map(fields).eq(kept), "N = {n}, ties: {ties}");
            }
        }
    }

    /// Every board a subproblem finds is a canonical solution with its
    /// orbit, holds the subproblem's placed and pre-placed queens, and is
    /// of the subproblem's kind; a tie's orbit is computed, the others' is
    /// 8. The subproblems' boards together are all classes, each once.
    #[test]
    fn subproblems_find_their_own_boards_and_together_every_class_once() {
        for n in 4..=SEARCHED_UP_TO {
            let m = n - 1;
            let mut found = Vec::new();
            for sub in unsplit_subproblems(n) {
                for (board, orbit) in classes(&sub) {
                    let cols = board.columns();
                    assert!(board.is_solution(), "N = {n}: {board:?}");
                    assert_eq!(crate::symmetry::canonical(&board), board, "N = {n}");
                    assert_eq!(crate::symmetry::orbit_size(&board) as u32, orbit);
                    for (row, &queen) in sub.queens[..sub.start].iter().enumerate() {
                        assert_eq!(1 << cols[row], queen, "N = {n}: {board:?} in {sub:?}");
                    }
                    for (row, &col) in cols.iter().enumerate() {
                        let queen = 1 << col;
                        if sub.fixed_rows & 1 << row != 0 {
                            let only = !sub.forbidden[row] & (u32::MAX >> (MAX_N - n));
                            assert_eq!(queen, only, "N = {n}: {board:?} in {sub:?}");
                        }
                        assert_eq!(sub.forbidden[row] & queen, 0, "N = {n}: {board:?}");
                    }
                    match sub.kind {
                        RootKind::Corner => assert_eq!(cols[0], 0),
                        RootKind::Edge { k } | RootKind::Tie { k } => {
                            assert_eq!(usize::from(cols[0]), k);
                            assert!(2 * k < m);
                        }
                        RootKind::Plain => unreachable!("the search has no plain subproblems"),
                    }
                    if !sub.kind.is_tie() {
                        assert_eq!(orbit, 8, "N = {n}: {board:?}");
                    }
                    found.push(board);
                }
            }
            found.sort_unstable();
            let expected = crate::kernel::portable::oracle_fundamental(n);
            assert_eq!(found, expected, "N = {n}");
        }
    }

    /// `split_one_row` makes the parts that `subproblems` makes of the
    /// large subproblems from N = 12 up, and leaves whole one whose next
    /// row is the last before the leaves'.
    #[test]
    fn split_one_row_splits_as_subproblems_does() {
        for n in 12..=if cfg!(miri) { 12 } else { 14 } {
            let unsplit = unsplit_subproblems(n).filter(|s| !s.kind.is_tie());
            let split: Vec<SearchRoot> = unsplit.flat_map(SearchRoot::split_one_row).collect();
            let listed: Vec<SearchRoot> = subproblems(n, Some(false)).collect();
            // Compared as fields, not as their Debug text: Miri formats
            // slowly, and N = 12 has thousands of parts.
            let split_fields: Vec<_> = split.iter().map(fields).collect();
            let listed_fields: Vec<_> = listed.iter().map(fields).collect();
            assert_eq!(split_fields, listed_fields, "N = {n}");
        }
        let last = unsplit_subproblems(5)
            .find(|s| s.start + 1 >= 5 - 2)
            .expect("one");
        let parts: Vec<SearchRoot> = last.clone().split_one_row().collect();
        assert_eq!(parts.len(), 1);
        assert_eq!(
            format!("{:?}", fields(&parts[0])),
            format!("{:?}", fields(&last))
        );
    }

    /// A subproblem split on its first free row (`with_queen` on each live
    /// square, as `subproblems` does from N = 12 up) finds the same boards
    /// in its parts, in the same order.
    #[test]
    fn parts_find_what_their_subproblem_finds() {
        for n in 5..=SEARCHED_UP_TO {
            for sub in unsplit_subproblems(n).filter(|s| s.start < n - 2) {
                let mut parts = Vec::new();
                let mut live = sub.live();
                while live != 0 {
                    let bit = live & live.wrapping_neg();
                    live ^= bit;
                    let part = sub.with_queen(bit);
                    assert_eq!(part.start, sub.start + 1);
                    assert_eq!(part.queens[sub.start], bit);
                    parts.extend(classes(&part));
                }
                assert_eq!(parts, classes(&sub), "N = {n}: {sub:?}");
            }
        }
    }

    /// A subproblem whose queens attack each other is `None`; so is one
    /// whose pre-placed queen stands on a forbidden square.
    #[test]
    fn attacking_queens_make_no_subproblem() {
        assert!(SearchRoot::new(8, RootKind::Plain, &[0, 1], &[], &[]).is_none());
        assert!(SearchRoot::new(8, RootKind::Plain, &[0], &[(1, 1)], &[]).is_none());
        assert!(SearchRoot::new(8, RootKind::Plain, &[3], &[(5, 3)], &[]).is_none());
        assert!(SearchRoot::new(8, RootKind::Plain, &[0], &[(4, 2)], &[(4, 1 << 2)]).is_none());
        let sub = SearchRoot::new(8, RootKind::Plain, &[0], &[(7, 5)], &[]).unwrap();
        assert_eq!((sub.start, sub.fixed_rows), (1, 1 << 7));
        assert_eq!(sub.forbidden[7], 0xFF & !(1 << 5));
    }
}
