//! The lane walk: the symmetric kernel's walker (`symmetric/walker.rs`),
//! one per vector lane, each on its own subproblem.
//!
//! A lane's walker keeps the row it is filling in registers: its live
//! squares (those not yet tried), the taken columns and both diagonals,
//! and also the entry at the top of its stack. The stack, in memory, holds
//! the rows above with squares left to try, over two idle entries. Every
//! step, in every lane at once:
//!
//! 1. takes the lowest live square and computes the child row's masks and
//!    live squares (dead ends pruned a row ahead, as in the symmetric
//!    kernel);
//! 2. at the row before last, counts the child's live squares as
//!    solutions (`add_counts`);
//! 3. writes the row's remaining squares to the slot above the stack's top
//!    (kept only if the walker descends and squares remain: a push), and
//!    reads the slot below the top (kept only if the row is spent and there
//!    is no child: a pop, which takes the top entry from registers and
//!    this one as the new top);
//! 4. selects the next row: the child, the same row, or the top entry.
//!
//! Both the push and the pop are unconditional memory accesses whose
//! results are selected per lane, so no branch depends on the board, and
//! the load is one step ahead of its use, off the step's chain of latency.
//! The only branch is taken when an active lane pops its idle entry (its
//! subproblem is done): the loop then hands it the next subproblem.
//!
//! Tie subproblems walk the same way with checked leaves ([`Leaves`],
//! `ties.rs`): each step also forbids the squares of the lane's queen fixed
//! further down and writes its own queen's column to the lane's path, and
//! instead of counting at the row before last it reports the lanes that
//! reached a leaf, which the loop hands, with their paths, to a scalar
//! check (a second branch, taken some 600 times at N = 12).
//!
//! The row of an entry rides in the top bits of its live squares
//! ([`ROW_SHIFT`]): the forbidden columns of the rows below, and whether
//! the child is at the leaves, depend on it.

use core::mem::MaybeUninit;

use super::simd::{ENTRY_BYTES, LaneEntry, Simd};
pub(crate) use super::start::MAX_N;
use super::start::{ROW_SHIFT, SQUARES, Start};
use crate::Count;

/// Entries of a lane's stack: two idle entries (the one at the bottom, and
/// one under it for the read below the top), then at most `N - 3` rows (a
/// walker pushes a row only to descend to a row above the leaves), and the
/// slot above the top that every step writes.
const SLOTS: usize = 32;
const _: () = assert!(SLOTS > 2 + (MAX_N - 3));

/// The most lanes of any [`Simd`] type.
const MAX_LANES: usize = 16;

/// Steps between two moves of the lanes' solution counts (32-bit, at most
/// two more a step) into 64-bit totals.
const FLUSH_STEPS: u32 = 1 << 20;

/// How a walk scores its leaves: counted in the vectors ([`CountedLeaves`]:
/// every live square of the row before last is a solution worth its
/// start's weight) or checked one by one on the scalar side (the tie
/// subproblems, `ties.rs`: each leaf's board is compared with its images).
pub(crate) trait Leaves {
    /// Whether each leaf is checked: the step then adds each lane's fixed
    /// queen to its forbidden squares (see [`Start::of_tie`]), keeps no
    /// count, and reports the lanes that reached a leaf.
    const CHECKED: bool;

    /// What a start is handed in as, beside its name.
    type Item;

    /// The lane's first row.
    fn start(item: &Self::Item) -> Start;

    /// The solutions of `item` found without a walk, if it needs none (its
    /// first row has no live square, or is the row before last).
    fn at_once(&self, n: usize, item: &Self::Item) -> Option<Count>;

    /// Lane `slot` (`group * LANES + lane`) walks `item` from now on.
    fn begin(&mut self, slot: usize, item: Self::Item);

    /// With [`Leaves::CHECKED`]: lane `slot` has just reached a leaf, on
    /// the path `path`: the column of the queen of each row from its
    /// start's to the one before the leaves, row `r`'s in bits `4r` to
    /// `4r + 3`.
    fn score(&mut self, slot: usize, path: u64);

    /// The solutions scored by [`Leaves::score`] in lane `slot` since it
    /// began its start, which the caller now takes.
    fn take(&mut self, slot: usize) -> Count;
}

/// Lanes of all groups: the slots of [`Leaves::begin`].
pub(crate) const LANE_SLOTS: usize = GROUPS * MAX_LANES;

/// Leaves counted in the vectors: starts are [`Start`]s.
pub(crate) struct CountedLeaves;

impl Leaves for CountedLeaves {
    const CHECKED: bool = false;
    type Item = Start;

    #[inline(always)]
    fn start(item: &Start) -> Start {
        *item
    }

    #[inline(always)]
    fn at_once(&self, n: usize, item: &Start) -> Option<Count> {
        item.counted_at_once(n)
    }

    #[inline(always)]
    fn begin(&mut self, _slot: usize, _item: Start) {}

    fn score(&mut self, _slot: usize, _path: u64) {
        unreachable!("counted leaves are not scored one by one")
    }

    #[inline(always)]
    fn take(&mut self, _slot: usize) -> Count {
        0
    }
}

/// The entry of an idle lane: square 0 of row 0 with every column taken,
/// so that its step finds no child, no solution, and pops it again.
const IDLE: LaneEntry = LaneEntry([1, u32::MAX, 0, 0]);

/// The per-lane bookkeeping outside the vectors.
struct LaneState {
    /// The caller's name for the walked start, if the lane is busy.
    id: Option<usize>,
    weight: u64,
    /// Solutions moved out of the lane's 32-bit count.
    total: Count,
}

impl LaneState {
    /// A lane with no start.
    #[inline(always)]
    fn idle() -> LaneState {
        LaneState {
            id: None,
            weight: 0,
            total: 0,
        }
    }

    /// Takes the start `id` (each of its solutions counting `weight`).
    #[inline(always)]
    fn begin(&mut self, id: usize, weight: u64) {
        (self.id, self.weight) = (Some(id), weight);
    }
}

/// The vectors of the walk: every lane's row in registers, where its stack
/// is, its count, and its start's forbidden squares.
#[derive(Clone, Copy)]
struct Vectors<V> {
    live: V,
    columns: V,
    left: V,
    right: V,
    /// Byte offset of the lane's stack top from the stack's start.
    top: V,
    /// The entry at the top, kept in registers so that a pop needs no
    /// load: the load in each step reads the entry below it, for the next
    /// pop, off the step's chain of latency.
    under: [V; 4],
    /// Solutions found since the last flush (not yet weighted).
    counts: V,
    forbidden_rows: [V; 2],
    forbidden_columns: [V; 2],
    /// With checked leaves: the row of the lane's queen fixed further down,
    /// and its column (see [`Start::of_tie`]); and its path, the column of
    /// each row's queen in 4 bits (rows 0 to 7 in the first vector).
    fixed_row: V,
    fixed_column: V,
    path: [V; 2],
}

/// The most groups of lanes whose steps alternate: one step's chain of
/// latency (the lowest square, the child's live squares, the masks that
/// choose the next row) is some 25 cycles long, and a second group's step,
/// independent of it, fills the wait where there are starts enough to keep
/// both busy (see the callers).
pub(crate) const GROUPS: usize = 2;

/// What every step of every group uses.
#[derive(Clone, Copy)]
struct Constants<V> {
    zero: V,
    one: V,
    squares: V,
    entry_bytes: V,
    before_leaves: V,
    shift_base: V,
    /// The board's columns.
    board: V,
    /// A path's 4 bits, and the bits of its first vector.
    nibble: V,
    path_bits: V,
}

/// Where a group's lanes keep their stacks: the stacks, and the byte
/// offsets of the lanes' bottoms.
#[derive(Clone, Copy)]
struct Memory<V> {
    stack: *mut LaneEntry,
    bottom: V,
}

/// The squares that a lane's fixed queen (its column `column`, one bit)
/// forbids in a row `from_fixed` rows below its own (negative: above):
/// every column but its own in its own row; elsewhere its column and both
/// diagonals (below it, the same squares its placed queen attacks). A lane
/// without one has `column` 0, and its row out of reach.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn fixed_queen<V: Simd>(from_fixed: V, column: V, c: &Constants<V>) -> V {
    // SAFETY: the caller's CPU. A shift by 32 or more gives 0.
    unsafe {
        let distance = from_fixed.abs();
        let attacked = column
            .or(column.shl_by(distance))
            .or(column.shr_by(distance));
        V::select(from_fixed.equal(c.zero), column.and_not(c.board), attacked)
    }
}

/// The squares forbidden beyond the attacks, in each lane's child row (the
/// row after `row`) and in the row after it: its masks' (`FORBIDDEN`) and,
/// with checked leaves, its fixed queen's.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn forbidden_squares<V: Simd, const FORBIDDEN: bool, L: Leaves>(
    v: &Vectors<V>,
    row: V,
    c: &Constants<V>,
) -> (V, V) {
    let (mut child, mut ahead) = (c.zero, c.zero);
    // SAFETY: the caller's CPU.
    unsafe {
        if FORBIDDEN {
            // Bit `row + 2` of each pair's rows to bit 31, bit `row + 1`
            // to bit 30.
            let shift = c.shift_base.sub(row);
            for (rows, columns) in v.forbidden_rows.iter().zip(&v.forbidden_columns) {
                let rows = rows.shl_by(shift);
                child = child.or(rows.shl::<1>().spread_top_bit().and(*columns));
                ahead = ahead.or(rows.spread_top_bit().and(*columns));
            }
        }
        if L::CHECKED {
            let from_fixed = row.add(c.one).sub(v.fixed_row);
            child = child.or(fixed_queen(from_fixed, v.fixed_column, c));
            ahead = ahead.or(fixed_queen(from_fixed.add(c.one), v.fixed_column, c));
        }
    }
    (child, ahead)
}

/// Writes the column of `bit`, each lane's queen in row `row`, to the
/// lanes' paths.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn record_queen<V: Simd>(v: &mut Vectors<V>, row: V, bit: V, c: &Constants<V>) {
    // SAFETY: the caller's CPU. Rows 8 and up shift the first vector's 4
    // bits out, rows below 8 the second's (a shift of 32 or more gives 0).
    unsafe {
        let first = row.shl::<2>();
        let column = bit.highest_bit();
        for (path, shift) in v.path.iter_mut().zip([first, first.sub(c.path_bits)]) {
            let cleared = c.nibble.shl_by(shift).and_not(*path);
            *path = cleared.or(column.shl_by(shift));
        }
    }
}

/// One step of every lane of `v` (see the module's documentation), on the
/// stacks of `at`; returns the lanes that popped their idle entry and, with
/// checked leaves, those that reached a leaf (whose solutions it does not
/// count).
///
/// # Safety
///
/// The CPU runs `V`'s instructions; `v`'s stack offsets are those of its
/// lanes' slots in `at.stack`, from 1 to `SLOTS - 2`.
#[inline(always)]
unsafe fn step<V: Simd, const FORBIDDEN: bool, L: Leaves>(
    v: &mut Vectors<V>,
    at: &Memory<V>,
    c: &Constants<V>,
) -> (u32, u32) {
    let (stack, bottom) = (at.stack, at.bottom);
    // SAFETY: the caller's CPU and offsets: a step moves a lane's top by
    // one slot at most, never below its bottom, and above it only to push
    // a row above the leaves (at most `N - 3` of them).
    unsafe {
        // 3. (issued first: it depends on the top alone) The entry below
        // the top, which a pop brings into `under`.
        let below = V::load_entries_below(stack, v.top);
        // 1. The lowest live square, and the child's masks.
        let bit = v.live.and(c.zero.sub(v.live));
        let rest = v.live.xor(bit);
        let row = rest.shr::<ROW_SHIFT>();
        let columns = v.columns.or(bit);
        let left = v.left.or(bit).shl::<1>();
        let right = v.right.or(bit).shr::<1>();
        let (forbidden, forbidden_ahead) = forbidden_squares::<V, FORBIDDEN, L>(v, row, c);
        let taken = columns.or(left).or(right).or(forbidden);
        let blocked_ahead = columns
            .or(left.shl::<1>())
            .or(right.shr::<1>())
            .or(forbidden_ahead);
        if L::CHECKED {
            record_queen(v, row, bit, c);
        }
        // The squares of the row after the child's that stay free, and the
        // child's squares that leave one of them free
        // (`symmetric::alive_columns`).
        let ahead = blocked_ahead.and_not(c.squares);
        let from_lowest = ahead.or(c.zero.sub(ahead));
        let alive = from_lowest.shl::<2>().or(ahead.up_to_highest().shr::<2>());
        let child = taken.and_not(alive);
        // 2. Solutions at the row before last.
        let at_leaves = row.equal(c.before_leaves);
        let leaves = if L::CHECKED {
            V::bits(V::except(at_leaves, child.none_of(c.squares)))
        } else {
            v.counts = v.counts.add_counts(at_leaves, child);
            0
        };
        // 3. Push the rest of this row if the walker descends and it has
        // squares left; pop if neither.
        let dead = V::either(at_leaves, child.none_of(c.squares));
        let spent = rest.none_of(c.squares);
        let push = V::neither(dead, spent);
        let pop = V::both(dead, spent);
        let pushed = [rest, v.columns, v.left, v.right];
        V::store_entries_above(stack, v.top, pushed);
        // 4. The next row of each lane, and the entry under it.
        let at_bottom = v.top.equal(bottom);
        let child_live = child.or(row.add(c.one).shl::<ROW_SHIFT>());
        v.live = V::select(dead, V::select(spent, v.under[0], rest), child_live);
        v.columns = V::select(dead, V::select(spent, v.under[1], v.columns), columns);
        v.left = V::select(dead, V::select(spent, v.under[2], v.left), left);
        v.right = V::select(dead, V::select(spent, v.under[3], v.right), right);
        for ((under, below), pushed) in v.under.iter_mut().zip(below).zip(pushed) {
            *under = V::select(push, pushed, V::select(pop, below, *under));
        }
        v.top = v
            .top
            .add_in(push, c.entry_bytes)
            .sub_in(V::except(pop, at_bottom), c.entry_bytes);
        (V::bits(V::both(pop, at_bottom)), leaves)
    }
}

/// One lane as a [`Watch`] sees it after a step.
#[cfg(feature = "trace")]
#[derive(Clone, Copy, Default)]
pub(crate) struct LaneView {
    /// The caller's name for the start the lane walks, or `None` if it
    /// has none.
    pub(crate) start: Option<usize>,
    /// Whether the lane's walk ended with this step (it popped its idle
    /// entry): `solutions` is then its last count.
    pub(crate) done: bool,
    /// The row the lane fills next, and its live squares.
    pub(crate) row: u32,
    pub(crate) live: u32,
    /// Rows on the lane's stack, above its two idle entries (the top one
    /// is kept in registers), not counting the row it fills.
    pub(crate) depth: u32,
    /// Solutions the lane's walk has found so far, unweighted.
    pub(crate) solutions: u32,
}

/// What is told of each step of a walk: nothing, for a count (`()`, which
/// compiles away), or every lane, for the trace.
pub(crate) trait Watch {
    /// Whether [`Watch::step`] is called at all.
    const WATCHING: bool;

    /// After a step of group `group`, its lanes.
    #[cfg(feature = "trace")]
    fn step(&mut self, group: usize, lanes: &[LaneView]);
}

impl Watch for () {
    const WATCHING: bool = false;

    #[cfg(feature = "trace")]
    fn step(&mut self, _group: usize, _lanes: &[LaneView]) {}
}

/// The lanes of `v` as a [`Watch`] sees them; `active`: those walking a
/// start, `finished`: those whose walk ended with this step; `lanes`: their
/// bookkeeping.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[cfg(feature = "trace")]
unsafe fn views<V: Simd>(
    v: &Vectors<V>,
    bottom: V,
    active: u32,
    finished: u32,
    lanes: &[LaneState],
) -> [LaneView; MAX_LANES] {
    let [mut live, mut top, mut bottoms, mut counts] = [[0u32; MAX_LANES]; 4];
    // SAFETY: the caller's CPU; every array holds `MAX_LANES` lanes.
    unsafe {
        v.live.store(&mut live);
        v.top.store(&mut top);
        bottom.store(&mut bottoms);
        v.counts.store(&mut counts);
    }
    core::array::from_fn(|l| {
        let busy = l < lanes.len() && active >> l & 1 != 0;
        LaneView {
            start: if busy { lanes[l].id } else { None },
            done: busy && finished >> l & 1 != 0,
            row: live[l] >> ROW_SHIFT,
            live: live[l] & SQUARES,
            depth: (top[l] - bottoms[l]) / ENTRY_BYTES,
            solutions: counts[l],
        }
    })
}

/// Counts the solutions of every start of `starts` (`(id, item)` pairs
/// of an `n`x`n` board, `n` from 4 to [`MAX_N`], each item a start as
/// `leaves` takes it), one walker per lane of `G` vectors of `V` (1 or
/// [`GROUPS`]), and calls `done(id, solutions)` as each one finishes, in no
/// particular order. `FORBIDDEN`: whether any start has forbidden squares
/// in its two masks (without, the walk skips them); `leaves`: how leaves
/// count ([`CountedLeaves`], or checked one by one).
///
/// Its helpers are `#[inline(always)]`: the walk is compiled inside the
/// kernel's `#[target_feature]` function, and a helper that was not inlined
/// there would lose its features.
///
/// # Safety
///
/// The CPU runs `V`'s instructions, and `n` is at most [`MAX_N`] (the
/// lanes' stacks hold that many rows; checked only in debug builds).
#[inline(always)]
pub(crate) unsafe fn count<V: Simd, const FORBIDDEN: bool, const G: usize, W: Watch, L: Leaves>(
    n: usize,
    starts: &mut dyn Iterator<Item = (usize, L::Item)>,
    leaves: &mut L,
    done: &mut dyn FnMut(usize, Count),
    watch: &mut W,
) {
    let lanes = V::LANES;
    let mut stack = [MaybeUninit::<LaneEntry>::uninit(); GROUPS * MAX_LANES * SLOTS];
    set_idle_entries(&mut stack, G * lanes);
    let stack_base = stack.as_mut_ptr().cast::<LaneEntry>();
    let mut lane: [LaneState; GROUPS * MAX_LANES] = core::array::from_fn(|_| LaneState::idle());
    // SAFETY: the CPU runs `V`'s instructions (this function's contract),
    // all that `Constants::new` and `group_memory` ask.
    let (c, memory) = unsafe { (Constants::new(n), group_memory::<V, G>(stack_base)) };
    // SAFETY: as above: `V::splat` asks only that `V`'s instructions run.
    let idle = unsafe { [0, 1, 2, 3].map(|word| V::splat(IDLE.0[word])) };
    let mut groups = idle_groups(&memory, c.zero, idle);
    let all = (1u32 << lanes) - 1;
    // The lanes walking a start, those just finished, whether starts remain.
    let (mut active, mut finished, mut more) = ([0u32; G], [0u32; G], true);
    loop {
        for (g, v) in groups.iter_mut().enumerate() {
            // Lanes whose walk is over report their count.
            if finished[g] & active[g] != 0 {
                let over = finished[g] & active[g];
                // SAFETY: `V`'s instructions run (the contract); `over` is
                // within `active[g]`, whose bits are lanes of `V`.
                unsafe { report_finished(v, g, over, &mut lane, leaves, done) };
                active[g] &= !finished[g];
            }
            finished[g] = 0;
            // Idle lanes take the next starts.
            while more && active[g] != all {
                let Some((id, item)) = starts.next() else {
                    more = false;
                    break;
                };
                if let Some(total) = leaves.at_once(n, &item) {
                    done(id, total);
                    continue;
                }
                let start = L::start(&item);
                debug_assert!(FORBIDDEN || !start.has_forbidden());
                let l = (!active[g]).trailing_zeros() as usize;
                // SAFETY: `V`'s instructions run (the contract); `l` is a
                // lane of `V`: the lowest clear bit of `active[g] != all`.
                unsafe { v.place::<FORBIDDEN>(l, &start) };
                if L::CHECKED {
                    let (row, column) = start.fixed;
                    // SAFETY: as for `place`: `V`'s instructions run, and `l`
                    // is one of its lanes.
                    unsafe {
                        v.fixed_row = v.fixed_row.with_lane(l, row);
                        v.fixed_column = v.fixed_column.with_lane(l, column);
                    }
                }
                lane[g * lanes + l].begin(id, start.weight);
                leaves.begin(g * lanes + l, item);
                active[g] |= 1 << l;
            }
        }
        if active.iter().all(|&a| a == 0) {
            break;
        }
        let states = (&mut groups, &active, &mut finished);
        let (lanes_seen, seen) = ((&lane, &mut *watch), (&memory, &c));
        // SAFETY: the caller's CPU; the tops stay in the lanes' stacks (`step`).
        let steps = unsafe {
            step_until_a_walk_ends::<V, FORBIDDEN, G, W, L>(states, seen, leaves, lanes_seen)
        };
        if steps == 0 {
            // SAFETY: the caller's CPU.
            unsafe { flush_counts(&mut groups, &mut lane, c.zero) };
        }
    }
}

/// Reports the lanes of `over`, in group `g` (its vectors `v`), whose walk
/// is over: each lane's count from the vectors, weighted, and what
/// `leaves` scored for it.
///
/// # Safety
///
/// The CPU runs `V`'s instructions; `over` holds lanes of `V`.
#[inline(always)]
unsafe fn report_finished<V: Simd, L: Leaves>(
    v: &mut Vectors<V>,
    g: usize,
    mut over: u32,
    lane: &mut [LaneState; GROUPS * MAX_LANES],
    leaves: &mut L,
    done: &mut dyn FnMut(usize, Count),
) {
    let mut counts = [0u32; MAX_LANES];
    // SAFETY: the caller's CPU; `counts` holds `MAX_LANES` lanes.
    unsafe { v.counts.store(&mut counts) };
    while over != 0 {
        let l = over.trailing_zeros() as usize;
        over &= over - 1;
        let slot = g * V::LANES + l;
        let lane = &mut lane[slot];
        let id = lane.id.take().expect("an active lane has a start");
        let counted = Count::from(counts[l]) * Count::from(lane.weight);
        done(id, lane.total + counted + leaves.take(slot));
        lane.total = 0;
        // SAFETY: the caller's CPU and lane.
        v.counts = unsafe { v.counts.with_lane(l, 0) };
    }
}

/// Scores the leaves that the lanes of `reached` in group `g` (its vectors
/// `v`) have just reached, from their paths.
///
/// # Safety
///
/// The CPU runs `V`'s instructions; `reached` holds lanes of `V`.
#[inline(always)]
unsafe fn score_leaves<V: Simd, L: Leaves>(v: &Vectors<V>, g: usize, reached: u32, leaves: &mut L) {
    let mut paths = [[0u32; MAX_LANES]; 2];
    // SAFETY: the caller's CPU; every array holds `MAX_LANES` lanes.
    unsafe {
        v.path[0].store(&mut paths[0]);
        v.path[1].store(&mut paths[1]);
    }
    score_lanes(g * V::LANES, reached, &paths, leaves);
}

/// [`score_leaves`] past the vectors: scalar, and rare (a leaf of a tie
/// subproblem), so kept out of the walk's loop. Lane `l` is slot
/// `first_slot + l`.
#[cold]
#[inline(never)]
fn score_lanes<L: Leaves>(
    first_slot: usize,
    mut reached: u32,
    paths: &[[u32; MAX_LANES]; 2],
    leaves: &mut L,
) {
    while reached != 0 {
        let l = reached.trailing_zeros() as usize;
        reached &= reached - 1;
        let path = u64::from(paths[0][l]) | u64::from(paths[1][l]) << 32;
        leaves.score(first_slot + l, path);
    }
}

/// Writes the two idle entries at the bottom of each of the first `lanes`
/// lanes' stacks. Only those are written before the walk: every other slot
/// is written by a push before the top moves to it, and only the top and
/// the slot below it are read.
#[inline(always)]
fn set_idle_entries(
    stack: &mut [MaybeUninit<LaneEntry>; GROUPS * MAX_LANES * SLOTS],
    lanes: usize,
) {
    for lane in 0..lanes {
        stack[lane * SLOTS] = MaybeUninit::new(IDLE);
        stack[lane * SLOTS + 1] = MaybeUninit::new(IDLE);
    }
}

impl<V: Simd> Vectors<V> {
    /// Puts `start` in lane `l`: its row, masks and forbidden squares.
    ///
    /// # Safety
    ///
    /// The CPU runs `V`'s instructions; `l` is one of `V`'s lanes.
    #[inline(always)]
    unsafe fn place<const FORBIDDEN: bool>(&mut self, l: usize, start: &Start) {
        // SAFETY: the caller's.
        unsafe {
            self.live = self.live.with_lane(l, start.live);
            self.columns = self.columns.with_lane(l, start.columns);
            self.left = self.left.with_lane(l, start.left);
            self.right = self.right.with_lane(l, start.right);
            if FORBIDDEN {
                for (pair, &(rows, columns)) in start.forbidden.iter().enumerate() {
                    self.forbidden_rows[pair] = self.forbidden_rows[pair].with_lane(l, rows);
                    self.forbidden_columns[pair] =
                        self.forbidden_columns[pair].with_lane(l, columns);
                }
            }
        }
    }
}

impl<V: Simd> Constants<V> {
    /// The constants of an `n`x`n` board.
    ///
    /// # Safety
    ///
    /// The CPU runs `V`'s instructions.
    #[inline(always)]
    unsafe fn new(n: usize) -> Constants<V> {
        debug_assert!((4..=MAX_N).contains(&n));
        // SAFETY: the caller's CPU.
        unsafe {
            Constants {
                zero: V::splat(0),
                one: V::splat(1),
                squares: V::splat(SQUARES),
                entry_bytes: V::splat(ENTRY_BYTES),
                before_leaves: V::splat(n as u32 - 3),
                shift_base: V::splat(29),
                board: V::splat(u32::MAX >> (32 - n)),
                nibble: V::splat(0xF),
                path_bits: V::splat(32),
            }
        }
    }
}

/// Each group's memory: `stack`, and its lanes' stack bottoms, the byte
/// offsets of their upper idle entries (lane `l` of group `g` on stack
/// `g * V::LANES + l`).
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn group_memory<V: Simd, const G: usize>(stack: *mut LaneEntry) -> [Memory<V>; G] {
    const { assert!(G >= 1 && G <= GROUPS) };
    let lanes = V::LANES;
    debug_assert!(lanes <= MAX_LANES);
    // SAFETY: the caller's CPU; `offsets` holds `MAX_LANES` lanes.
    core::array::from_fn(|group| unsafe {
        let mut offsets = [0u32; MAX_LANES];
        for (lane, offset) in offsets.iter_mut().enumerate().take(lanes) {
            *offset = ((group * lanes + lane) * SLOTS + 1) as u32 * ENTRY_BYTES;
        }
        Memory {
            stack,
            bottom: V::load(&offsets),
        }
    })
}

/// Every group with every lane idle: on the idle entry (`idle`, its words
/// in every lane), its top at its bottom (in `memory`), and no count or
/// forbidden square (`zero`).
#[inline(always)]
fn idle_groups<V: Simd, const G: usize>(
    memory: &[Memory<V>; G],
    zero: V,
    idle: [V; 4],
) -> [Vectors<V>; G] {
    core::array::from_fn(|group| Vectors {
        live: idle[0],
        columns: idle[1],
        left: idle[2],
        right: idle[3],
        top: memory[group].bottom,
        under: idle,
        counts: zero,
        forbidden_rows: [zero; 2],
        forbidden_columns: [zero; 2],
        fixed_row: zero,
        fixed_column: zero,
        path: [zero; 2],
    })
}

/// Steps every group (`groups`: their vectors, the lanes walking a start,
/// and those whose walk ended; `memory`: their stacks) until an
/// active lane's walk ends or [`FLUSH_STEPS`] steps are done; sets each
/// group's ended lanes to those that popped their idle entry in its last
/// step, has `leaves` score every leaf reached (with checked leaves), and
/// returns the steps left before a flush is due (0: due). `watching`: the
/// lanes' bookkeeping and the watcher, which the trace shows each step.
///
/// # Safety
///
/// As for [`step`], for every group.
#[inline(always)]
unsafe fn step_until_a_walk_ends<
    V: Simd,
    const FORBIDDEN: bool,
    const G: usize,
    W: Watch,
    L: Leaves,
>(
    (groups, active, finished): (&mut [Vectors<V>; G], &[u32; G], &mut [u32; G]),
    (memory, c): (&[Memory<V>; G], &Constants<V>),
    leaves: &mut L,
    (lane, watch): (&[LaneState; GROUPS * MAX_LANES], &mut W),
) -> u32 {
    #[cfg(not(feature = "trace"))]
    let _ = (W::WATCHING, lane, watch);
    let mut steps = FLUSH_STEPS;
    loop {
        steps -= 1;
        let mut over = 0;
        for (g, v) in groups.iter_mut().enumerate() {
            // SAFETY: the caller's.
            let (ended, reached) = unsafe { step::<V, FORBIDDEN, L>(v, &memory[g], c) };
            finished[g] = ended;
            over |= ended & active[g];
            if L::CHECKED && reached & active[g] != 0 {
                // SAFETY: the caller's CPU; the lanes are `V`'s.
                unsafe { score_leaves(v, g, reached & active[g], leaves) };
            }
            #[cfg(feature = "trace")]
            if W::WATCHING {
                let group = &lane[g * V::LANES..][..V::LANES];
                // SAFETY: the caller's CPU.
                let views = unsafe { views(v, memory[g].bottom, active[g], ended, group) };
                watch.step(g, &views[..V::LANES]);
            }
        }
        if steps == 0 || over != 0 {
            return steps;
        }
    }
}

/// Moves every lane's count into its total in `lane`, weighted, before the
/// 32-bit counts can overflow.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn flush_counts<V: Simd, const G: usize>(
    groups: &mut [Vectors<V>; G],
    lane: &mut [LaneState; GROUPS * MAX_LANES],
    zero: V,
) {
    let lanes = V::LANES;
    for (g, v) in groups.iter_mut().enumerate() {
        let mut counts = [0u32; MAX_LANES];
        // SAFETY: the caller's CPU; `counts` holds `MAX_LANES` lanes.
        unsafe { v.counts.store(&mut counts) };
        for (lane, &count) in lane[g * lanes..].iter_mut().zip(&counts).take(lanes) {
            lane.total += Count::from(count) * Count::from(lane.weight);
        }
        v.counts = zero;
    }
}
