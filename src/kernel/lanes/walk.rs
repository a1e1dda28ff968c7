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
//! The row of an entry rides in the top bits of its live squares
//! ([`ROW_SHIFT`]): the forbidden columns of the rows below, and whether
//! the child is at the leaves, depend on it.

use core::mem::MaybeUninit;

use super::simd::{ENTRY_BYTES, Entry, Simd};
use crate::Count;
use crate::kernel::symmetric::subproblem::Subproblem;

/// The live squares of an entry or a [`Start`] carry its row from this bit
/// up.
pub(crate) const ROW_SHIFT: i32 = 27;

/// The bits of the live squares below the row.
const SQUARES: u32 = (1 << ROW_SHIFT) - 1;

/// The largest N the walk takes: squares below bit 24
/// ([`Simd::up_to_highest`]) and rows below 32.
pub(crate) const MAX_N: usize = 24;

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

/// A lane's first row: what a walker starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Start {
    /// The row's live squares, and the row from [`ROW_SHIFT`] up.
    live: u32,
    /// Taken columns (off-board columns included) and the diagonals
    /// attacking the row.
    columns: u32,
    left: u32,
    right: u32,
    /// Squares forbidden beyond the attacks: row `r` may not use the
    /// columns of a pair whose rows have bit `r` set.
    forbidden: [(u32, u32); 2],
    /// What each solution found counts for.
    weight: u64,
}

impl Start {
    /// The start of row `row` of an `n`x`n` board (`n` from 4 to
    /// [`MAX_N`]) with these masks, no forbidden squares, each solution
    /// counting `weight`.
    pub(crate) fn new(
        n: usize,
        row: usize,
        columns: u32,
        left: u32,
        right: u32,
        weight: u64,
    ) -> Start {
        debug_assert!((4..=MAX_N).contains(&n) && row < n);
        let full = (1u32 << n) - 1;
        let left = left & full;
        let free = !(columns | left | right) & full;
        let ahead = !(columns | left << 1 | right >> 1) & full;
        let live = free & crate::kernel::symmetric::alive_columns(ahead);
        Start {
            live: live | (row as u32) << ROW_SHIFT,
            columns: columns | !full,
            left,
            right,
            forbidden: [(0, 0); 2],
            weight,
        }
    }

    /// The start of a symmetric subproblem (not a tie) or a plain partial
    /// board, each solution counting its orbit (or 1 with `classes`);
    /// `None` where its forbidden squares take more than two masks.
    pub(crate) fn of_subproblem(sub: &Subproblem, classes: bool) -> Option<Start> {
        debug_assert!(!sub.kind.is_tie());
        let n = sub.n;
        if n > MAX_N {
            return None;
        }
        let mut forbidden = [(0u32, 0u32); 2];
        let mut used = 0;
        // The walk reads the forbidden columns of the rows below `start`.
        for (row, &columns) in sub.forbidden.iter().enumerate().take(n).skip(sub.start + 1) {
            if columns == 0 {
                continue;
            }
            let pair = match forbidden[..used].iter().position(|&(_, c)| c == columns) {
                Some(pair) => pair,
                None if used < forbidden.len() => {
                    used += 1;
                    forbidden[used - 1].1 = columns;
                    used - 1
                }
                None => return None,
            };
            forbidden[pair].0 |= 1 << row;
        }
        let full = u32::MAX >> (32 - n);
        Some(Start {
            live: sub.live() | (sub.start as u32) << ROW_SHIFT,
            columns: sub.columns,
            left: sub.left & full,
            right: sub.right,
            forbidden,
            weight: if classes { 1 } else { sub.kind.orbit() },
        })
    }

    /// The row of this start.
    fn row(&self) -> usize {
        (self.live >> ROW_SHIFT) as usize
    }

    /// The solutions of this start found without a walk: none if its row
    /// has no live square, each live square one if it is the row before
    /// last (`n - 2`); `None` if it needs a walk.
    fn counted_at_once(&self, n: usize) -> Option<Count> {
        let squares = self.live & SQUARES;
        if squares == 0 {
            Some(0)
        } else if self.row() + 2 >= n {
            debug_assert_eq!(self.row() + 2, n);
            Some(Count::from(squares.count_ones()) * Count::from(self.weight))
        } else {
            None
        }
    }

    /// Whether any row has forbidden squares.
    pub(crate) fn has_forbidden(&self) -> bool {
        self.forbidden.iter().any(|&(rows, _)| rows != 0)
    }
}

/// The entry of an idle lane: square 0 of row 0 with every column taken,
/// so that its step finds no child, no solution, and pops it again.
const IDLE: Entry = Entry([1, u32::MAX, 0, 0]);

/// The per-lane bookkeeping outside the vectors.
struct Lane {
    /// The caller's name for the walked start, if the lane is busy.
    id: Option<usize>,
    weight: u64,
    /// Solutions moved out of the lane's 32-bit count.
    total: Count,
}

impl Lane {
    /// A lane with no start.
    #[inline(always)]
    fn idle() -> Lane {
        Lane {
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
}

/// One step of every lane of `v` (see the module's documentation), on the
/// stack at `stack`; returns the lanes that popped their idle entry.
///
/// # Safety
///
/// The CPU runs `V`'s instructions; `v`'s stack offsets are those of its
/// lanes' slots in `stack`, from 1 to `SLOTS - 2`.
#[inline(always)]
unsafe fn step<V: Simd, const FORBIDDEN: bool>(
    v: &mut Vectors<V>,
    bottom: V,
    c: &Constants<V>,
    stack: *mut Entry,
) -> u32 {
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
        let mut taken = columns.or(left).or(right);
        let mut blocked_ahead = columns.or(left.shl::<1>()).or(right.shr::<1>());
        if FORBIDDEN {
            // Bit `row + 2` of each pair's rows to bit 31, bit `row + 1`
            // to bit 30.
            let shift = c.shift_base.sub(row);
            for (rows, columns) in v.forbidden_rows.iter().zip(&v.forbidden_columns) {
                let rows = rows.shl_by(shift);
                taken = taken.or(rows.shl::<1>().spread_top_bit().and(*columns));
                blocked_ahead = blocked_ahead.or(rows.spread_top_bit().and(*columns));
            }
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
        v.counts = v.counts.add_counts(at_leaves, child);
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
        V::bits(V::both(pop, at_bottom))
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
    lanes: &[Lane],
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

/// Counts the solutions of every start of `starts` (`(id, start)` pairs
/// of an `n`x`n` board, `n` from 4 to [`MAX_N`]), one walker per lane of
/// `G` vectors of `V` (1 or [`GROUPS`]), and calls `done(id, solutions)` as each one
/// finishes, in no particular order. `FORBIDDEN`: whether any start has
/// forbidden squares (without, the walk skips them).
///
/// Its helpers are `#[inline(always)]`: the walk is compiled inside the
/// kernel's `#[target_feature]` function, and a helper that was not inlined
/// there would lose its features.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn count<V: Simd, const FORBIDDEN: bool, const G: usize, W: Watch>(
    n: usize,
    starts: &mut dyn Iterator<Item = (usize, Start)>,
    done: &mut dyn FnMut(usize, Count),
    watch: &mut W,
) {
    let lanes = V::LANES;
    let mut stack = [MaybeUninit::<Entry>::uninit(); GROUPS * MAX_LANES * SLOTS];
    set_idle_entries(&mut stack, G * lanes);
    let stack_base = stack.as_mut_ptr().cast::<Entry>();
    let mut lane: [Lane; GROUPS * MAX_LANES] = core::array::from_fn(|_| Lane::idle());
    // SAFETY (both): the caller's CPU.
    let (c, bottoms) = unsafe { (Constants::new(n), stack_bottoms::<V, G>()) };
    let idle = unsafe { [0, 1, 2, 3].map(|word| V::splat(IDLE.0[word])) };
    let mut groups = idle_groups(&bottoms, c.zero, idle);
    let all = (1u32 << lanes) - 1;
    // The lanes walking a start, those just finished, whether starts remain.
    let (mut active, mut finished, mut more) = ([0u32; G], [0u32; G], true);
    // SAFETY (every vector operation in the loop): the caller's CPU; each `l` is a lane of `V`.
    loop {
        for (g, v) in groups.iter_mut().enumerate() {
            // Lanes whose walk is over report their count.
            if finished[g] & active[g] != 0 {
                let mut counts = [0u32; MAX_LANES];
                unsafe { v.counts.store(&mut counts) };
                let mut over = finished[g] & active[g];
                while over != 0 {
                    let l = over.trailing_zeros() as usize;
                    over &= over - 1;
                    let lane = &mut lane[g * lanes + l];
                    let id = lane.id.take().expect("an active lane has a start");
                    done(
                        id,
                        lane.total + Count::from(counts[l]) * Count::from(lane.weight),
                    );
                    lane.total = 0;
                    v.counts = unsafe { v.counts.with_lane(l, 0) };
                }
                active[g] &= !finished[g];
            }
            finished[g] = 0;
            // Idle lanes take the next starts.
            while more && active[g] != all {
                let Some((id, start)) = starts.next() else {
                    more = false;
                    break;
                };
                debug_assert!(FORBIDDEN || !start.has_forbidden());
                if let Some(total) = start.counted_at_once(n) {
                    done(id, total);
                    continue;
                }
                let l = (!active[g]).trailing_zeros() as usize;
                unsafe { v.place::<FORBIDDEN>(l, &start) };
                lane[g * lanes + l].begin(id, start.weight);
                active[g] |= 1 << l;
            }
        }
        if active.iter().all(|&a| a == 0) {
            break;
        }
        // SAFETY: the caller's CPU; the tops stay in the lanes' stacks (`step`).
        let steps = unsafe {
            let watching = (&lane, &mut *watch);
            step_until_a_walk_ends::<V, FORBIDDEN, G, W>(
                &mut groups,
                &bottoms,
                &c,
                stack_base,
                &active,
                &mut finished,
                watching,
            )
        };
        if steps == 0 {
            // SAFETY: the caller's CPU.
            unsafe { flush_counts(&mut groups, &mut lane, c.zero) };
        }
    }
}

/// Writes the two idle entries at the bottom of each of the first `lanes`
/// lanes' stacks. Only those are written before the walk: every other slot
/// is written by a push before the top moves to it, and only the top and
/// the slot below it are read.
#[inline(always)]
fn set_idle_entries(stack: &mut [MaybeUninit<Entry>; GROUPS * MAX_LANES * SLOTS], lanes: usize) {
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
            }
        }
    }
}

/// Each group's lanes' stack bottoms: the byte offsets of their upper idle
/// entries, lane `l` of group `g` on stack `g * V::LANES + l`.
///
/// # Safety
///
/// The CPU runs `V`'s instructions.
#[inline(always)]
unsafe fn stack_bottoms<V: Simd, const G: usize>() -> [V; G] {
    const { assert!(G >= 1 && G <= GROUPS) };
    let lanes = V::LANES;
    debug_assert!(lanes <= MAX_LANES);
    // SAFETY: the caller's CPU; `offsets` holds `MAX_LANES` lanes.
    unsafe {
        let mut bottoms = [V::splat(0); G];
        for (group, bottom) in bottoms.iter_mut().enumerate() {
            let mut offsets = [0u32; MAX_LANES];
            for (lane, offset) in offsets.iter_mut().enumerate().take(lanes) {
                *offset = ((group * lanes + lane) * SLOTS + 1) as u32 * ENTRY_BYTES;
            }
            *bottom = V::load(&offsets);
        }
        bottoms
    }
}

/// Every group with every lane idle: on the idle entry (`idle`, its words
/// in every lane), its top at its bottom (`bottoms`), and no count or
/// forbidden square (`zero`).
#[inline(always)]
fn idle_groups<V: Simd, const G: usize>(
    bottoms: &[V; G],
    zero: V,
    idle: [V; 4],
) -> [Vectors<V>; G] {
    core::array::from_fn(|group| Vectors {
        live: idle[0],
        columns: idle[1],
        left: idle[2],
        right: idle[3],
        top: bottoms[group],
        under: idle,
        counts: zero,
        forbidden_rows: [zero; 2],
        forbidden_columns: [zero; 2],
    })
}

/// Steps every group (its vectors and stack bottoms in `groups` and
/// `bottoms`, on the stacks at `stack`) until an `active` lane's walk ends
/// or [`FLUSH_STEPS`] steps are done; sets `finished` to each group's lanes
/// that popped their idle entry in its last step, and returns the steps
/// left before a flush is due (0: due). `watching`: the lanes' bookkeeping
/// and the watcher, which the trace shows each step.
///
/// # Safety
///
/// As for [`step`], for every group.
#[inline(always)]
unsafe fn step_until_a_walk_ends<V: Simd, const FORBIDDEN: bool, const G: usize, W: Watch>(
    groups: &mut [Vectors<V>; G],
    bottoms: &[V; G],
    c: &Constants<V>,
    stack: *mut Entry,
    active: &[u32; G],
    finished: &mut [u32; G],
    (lane, watch): (&[Lane; GROUPS * MAX_LANES], &mut W),
) -> u32 {
    #[cfg(not(feature = "trace"))]
    let _ = (W::WATCHING, lane, watch);
    let mut steps = FLUSH_STEPS;
    loop {
        steps -= 1;
        let mut over = 0;
        for (g, v) in groups.iter_mut().enumerate() {
            // SAFETY: the caller's.
            finished[g] = unsafe { step::<V, FORBIDDEN>(v, bottoms[g], c, stack) };
            over |= finished[g] & active[g];
            #[cfg(feature = "trace")]
            if W::WATCHING {
                let group = &lane[g * V::LANES..][..V::LANES];
                // SAFETY: the caller's CPU.
                let views = unsafe { views(v, bottoms[g], active[g], finished[g], group) };
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
    lane: &mut [Lane; GROUPS * MAX_LANES],
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
