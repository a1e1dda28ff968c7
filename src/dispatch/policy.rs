//! `auto`'s policy: for each task and size, the families of kernels in the
//! order measured fastest (BENCHMARKS.md), written as data: a [`Rule`] per
//! task and size range, each citing the figures that put its families in
//! their order, and a test that fails when an order contradicts a figure
//! it cites. Within a family the kernels follow the kernel table's order,
//! the widest vectors first; a rule may put one kernel ahead of its family
//! where a measurement says so. `auto` takes the first kernel of its list
//! that this build carries, this CPU runs, that accepts N and that does
//! the task; the choice is cached per task and N.

use core::ops::RangeInclusive;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::Error;
use crate::kernel::{Role, Task};
use crate::vocabulary::kernel::Family;
use crate::{Kernel, MAX_N};

use super::figures::{self, Figure};

/// The smallest N for which `auto` counts with the join kernels: the first
/// N where the join beats the searches on one thread (`join/` in
/// BENCHMARKS.md). Below it the searches win, and at odd N the join pays
/// for the quarter-boards of one split per row of the middle queen.
pub(crate) const JOIN_FROM: usize = 14;

/// The smallest N for which `auto` counts with the lane kernels: the first
/// past the blocks kernels' sizes (below it the blocks kernels are faster
/// from N = 5 to 8, and the portable kernel below that).
pub(crate) const LANES_FROM: usize = BLOCKS_UP_TO + 1;

/// The smallest N for which `auto` counts with the blocks kernels: below
/// it the portable kernel is faster (the crossover measured on Zen 3:
/// BENCHMARKS.md, "The blocks kernel").
pub(crate) const BLOCKS_FROM: usize = 5;

/// The largest N of the blocks kernels, from the kernel table.
const BLOCKS_UP_TO: usize = *Kernel::Blocks.sizes().end();

/// The smallest N for which `auto` prefers the symmetric kernels: below it,
/// their fixed cost outweighs the eighth of the search they save (the
/// crossover in BENCHMARKS.md).
pub(crate) const SYMMETRIC_FROM: usize = 10;

/// The smallest N for which `auto` prefers the symmetric kernels to find
/// fundamental solutions: they search one board per class, where the
/// others enumerate half the solutions and check each for canonical form.
pub(crate) const SYMMETRIC_FUNDAMENTAL_FROM: usize = 7;

/// The smallest N that `auto` enumerates with the blocks kernels: at N = 6
/// `sse41` is a little ahead on Zen 4, and further ahead at N = 5
/// (BENCHMARKS.md, "`auto` enumerates N = 7 and 8 with the blocks
/// kernels").
pub(crate) const BLOCKS_ENUMERATION_FROM: usize = 7;

/// The largest N at which the split-512 rules apply: the last that `auto`
/// counts with a lane kernel (the join's [`JOIN_FROM`] is next). At N = 12
/// and 13 `lanes-avx2` counts the symmetric subproblems, ties and all, in
/// lanes, and on Zen 4 beats `lanes-avx512`'s mirror starts (BENCHMARKS.md,
/// "Ties in lanes").
pub(crate) const SPLIT_512_LANES_AVX2_UP_TO: usize = JOIN_FROM - 1;

/// The kernel the split-512 rules move ahead of its family: `lanes-avx2`
/// (see [`SPLIT_512_LANES_AVX2_UP_TO`]).
pub(super) const SPLIT_512_LEADER: Kernel = Kernel::LanesAvx2;

/// One entry of a rule's order.
#[derive(Clone, Copy, Debug)]
enum Pick {
    /// A family's kernels, in the kernel table's order, less any listed
    /// before.
    Family(Family),
    /// One kernel, ahead of the rest of its family.
    Kernel(Kernel),
}

/// Where a list applies, and why it is in its order.
#[derive(Debug)]
struct Rule {
    /// The tasks it serves.
    tasks: &'static [Task],
    /// The sizes it serves.
    sizes: RangeInclusive<usize>,
    /// Whether it serves only a CPU that runs each 512-bit instruction as
    /// two 256-bit halves (`cpu::splits_512_bit_vectors`: AMD Zen 4).
    split_512_only: bool,
    /// Its list, fastest first: every fast kernel once ([`expand`]).
    list: &'static [Kernel],
    /// The measurements that put it in its order.
    #[cfg_attr(not(test), allow(dead_code))]
    because: &'static [Figure],
}

impl Rule {
    /// Whether it serves `task` at size `n` on a CPU that does
    /// (`splits_512`) or does not split 512-bit instructions.
    fn serves(&self, task: Task, n: usize, splits_512: bool) -> bool {
        self.tasks.contains(&task)
            && self.sizes.contains(&n)
            && (splits_512 || !self.split_512_only)
    }
}

/// How many kernels `auto` may choose from: the fast ones of the table.
const FAST: usize = {
    let mut fast = 0;
    let mut i = 0;
    while i < Kernel::ALL.len() {
        if matches!(Kernel::ALL[i].role(), Role::Fast) {
            fast += 1;
        }
        i += 1;
    }
    fast
};

/// `order` spelled out: each pick's kernels in turn, a family's in the
/// kernel table's order, each kernel once. The build fails unless every
/// fast kernel is listed.
const fn expand(order: &[Pick]) -> [Kernel; FAST] {
    const fn has(list: &[Kernel], len: usize, kernel: Kernel) -> bool {
        let mut i = 0;
        while i < len {
            if list[i] as u8 == kernel as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
    let mut list = [Kernel::Portable; FAST];
    let mut len = 0;
    let mut pick = 0;
    while pick < order.len() {
        let mut row = 0;
        while row < Kernel::ALL.len() {
            let kernel = Kernel::ALL[row];
            let picked = match order[pick] {
                Pick::Family(family) => kernel.family() as u8 == family as u8,
                Pick::Kernel(one) => kernel as u8 == one as u8,
            };
            if picked && !has(&list, len, kernel) {
                assert!(matches!(kernel.role(), Role::Fast), "only fast kernels");
                list[len] = kernel;
                len += 1;
            }
            row += 1;
        }
        pick += 1;
    }
    assert!(len == FAST, "every fast kernel, once");
    list
}

use Family::{Blocks, Davidad, Join, Lanes, Portable, Symmetric};
use Pick::Family as F;

/// Counting from N = [`SYMMETRIC_FROM`], and enumerating from there (from
/// [`SYMMETRIC_FUNDAMENTAL_FROM`] for fundamental solutions): the
/// symmetric search visits about an eighth of the boards, and its walkers
/// in vector lanes count it faster than one at a time, though they only
/// count (`auto` never picks a kernel that cannot do the task). The join
/// kernels, which only count, come last.
const LARGE_N: &[Pick] = &[
    F(Lanes),
    F(Symmetric),
    F(Portable),
    F(Davidad),
    F(Blocks),
    F(Join),
];

/// Counting from N = [`LANES_FROM`] to below [`SYMMETRIC_FROM`]: the lane
/// kernels (mirror starts, no set-up), then the portable kernel, ahead of
/// davidad's machine, whose path from one queen to the next crosses
/// between general and xmm registers twice. On boards this small the
/// symmetric kernels' fixed cost (building their subproblems and walkers)
/// outweighs the search they save.
const SMALL_N: &[Pick] = &[
    F(Lanes),
    F(Blocks),
    F(Portable),
    F(Davidad),
    F(Symmetric),
    F(Join),
];

/// The lists `auto` chooses from, first match: for each task and size,
/// and for one rule the CPU's way with 512-bit instructions, the kernels
/// fastest first on the machines measured. Together they serve every task
/// and every N from 0 to [`MAX_N`] (the last rule serves all that the
/// others leave).
const RULES: &[Rule] = &[
    // Counting from JOIN_FROM: the join kernels do less work than any
    // search of the board (`join/` in BENCHMARKS.md). Their plans are join
    // plans, so shards and checkpoints of `auto` from here are counted by
    // the first join kernel here that runs; a symmetric plan of `auto`'s,
    // by the first symmetric or lane kernel here that runs.
    Rule {
        tasks: &[Task::Count],
        sizes: JOIN_FROM..=MAX_N,
        split_512_only: false,
        list: &expand(&[
            F(Join),
            F(Lanes),
            F(Symmetric),
            F(Portable),
            F(Davidad),
            F(Blocks),
        ]),
        because: figures::JOIN_FIGURES,
    },
    Rule {
        tasks: &[Task::Count],
        sizes: SYMMETRIC_FROM..=SPLIT_512_LANES_AVX2_UP_TO,
        split_512_only: true,
        list: &expand_led(SPLIT_512_LEADER, LARGE_N),
        because: figures::SPLIT_512_LARGE_N_FIGURES,
    },
    Rule {
        tasks: &[Task::Count],
        sizes: LANES_FROM..=SYMMETRIC_FROM - 1,
        split_512_only: true,
        list: &expand_led(SPLIT_512_LEADER, SMALL_N),
        because: figures::SPLIT_512_SMALL_N_FIGURES,
    },
    Rule {
        tasks: &[Task::Count, Task::Enumerate],
        sizes: SYMMETRIC_FROM..=MAX_N,
        split_512_only: false,
        list: &expand(LARGE_N),
        because: figures::LARGE_N_FIGURES,
    },
    Rule {
        tasks: &[Task::Fundamental],
        sizes: SYMMETRIC_FUNDAMENTAL_FROM..=MAX_N,
        split_512_only: false,
        list: &expand(LARGE_N),
        because: figures::FUNDAMENTAL_FIGURES,
    },
    Rule {
        tasks: &[Task::Count],
        sizes: LANES_FROM..=SYMMETRIC_FROM - 1,
        split_512_only: false,
        list: &expand(SMALL_N),
        because: figures::SMALL_N_FIGURES,
    },
    // Counting from BLOCKS_FROM to the blocks kernels' largest N: they
    // search two rows a step and count the last two with one `popcnt`.
    Rule {
        tasks: &[Task::Count],
        sizes: BLOCKS_FROM..=BLOCKS_UP_TO,
        split_512_only: false,
        list: &expand(&[
            F(Blocks),
            F(Lanes),
            F(Portable),
            F(Davidad),
            F(Symmetric),
            F(Join),
        ]),
        because: figures::BLOCKS_FIGURES,
    },
    // Counting below BLOCKS_FROM: the portable kernel, whose search of a
    // board this small costs less than building the blocks kernel's tables
    // or filling the lanes' stacks.
    Rule {
        tasks: &[Task::Count],
        sizes: 0..=BLOCKS_FROM - 1,
        split_512_only: false,
        list: &expand(&[
            F(Portable),
            F(Davidad),
            F(Blocks),
            F(Lanes),
            F(Symmetric),
            F(Join),
        ]),
        because: figures::TINY_N_FIGURES,
    },
    // Enumerating from BLOCKS_ENUMERATION_FROM to 8: the blocks kernels
    // place two rows a step and there list boards faster than davidad's
    // machine.
    Rule {
        tasks: &[Task::Enumerate],
        sizes: BLOCKS_ENUMERATION_FROM..=BLOCKS_UP_TO,
        split_512_only: false,
        list: &expand(&[
            F(Blocks),
            F(Davidad),
            F(Portable),
            F(Symmetric),
            F(Join),
            F(Lanes),
        ]),
        because: figures::BLOCKS_ENUMERATION_FIGURES,
    },
    // Enumerating below SYMMETRIC_FROM (fundamental solutions below
    // SYMMETRIC_FUNDAMENTAL_FROM), and whatever else is left: davidad's
    // machine, where built, ahead of the portable kernel. Its encodings
    // are within noise of each other, and `sse41`, first in the table,
    // needs the least of the CPU.
    Rule {
        tasks: &Task::ALL,
        sizes: 0..=MAX_N,
        split_512_only: false,
        list: &expand(&[
            F(Davidad),
            F(Portable),
            F(Symmetric),
            F(Blocks),
            F(Join),
            F(Lanes),
        ]),
        because: figures::SMALL_N_ENUMERATION_FIGURES,
    },
];

/// [`expand`] with `first` ahead of everything.
const fn expand_led(first: Kernel, order: &[Pick]) -> [Kernel; FAST] {
    let mut led = [Pick::Kernel(first); 8];
    let mut i = 0;
    while i < order.len() {
        led[i + 1] = order[i];
        i += 1;
    }
    let (picks, _) = led.split_at(order.len() + 1);
    expand(picks)
}

/// The kernels `auto` may choose for `task` at size `n`, fastest first on
/// the machines measured; `auto` takes the first that runs here and
/// accepts `n`. The join kernels lead counting on the largest boards, the
/// lane kernels below them (`lanes-avx2` ahead of `lanes-avx512` on a CPU
/// that runs 512-bit instructions as two halves, the one list that depends
/// on more than the CPU's features), the blocks kernels on the boards they
/// hold (to N = 8) and `portable` on the smallest; the symmetric kernels
/// lead the other tasks on the larger boards, and counting where no lane
/// kernel runs; below, `portable` counts fastest and davidad's machine,
/// where built, enumerates fastest, but for the blocks kernels on the
/// largest boards they hold. Where each list starts and why is
/// BENCHMARKS.md's "`auto`'s choices" and the figures it cites. `n` from 0
/// to [`MAX_N`].
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`]: no
/// kernel accepts it, so `auto` has nothing to prefer.
pub fn auto_preference(task: Task, n: usize) -> Result<&'static [Kernel], Error> {
    preference(task, n, crate::vocabulary::cpu::splits_512_bit_vectors())
}

/// [`auto_preference`] on a CPU that does (`splits_512`) or does not run
/// each 512-bit instruction as two halves: the list of the first rule
/// that serves them.
pub(super) fn preference(
    task: Task,
    n: usize,
    splits_512: bool,
) -> Result<&'static [Kernel], Error> {
    Kernel::Auto.check_size(n)?;
    Ok(rule(task, n, splits_512).map_or(&[], |rule| rule.list))
}

/// The first rule that serves `task` at `n` (every one up to [`MAX_N`]
/// has one: a test checks it).
fn rule(task: Task, n: usize, splits_512: bool) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.serves(task, n, splits_512))
}

/// The kernel `auto` stands for when a plan of `method` is
/// counted: the first kernel of that method, in the list for the largest
/// boards, that this CPU runs.
#[cfg(feature = "std")]
pub(super) fn auto_for_plans(method: crate::kernel::Method) -> Option<Kernel> {
    preference(Task::Count, MAX_N, false)
        .unwrap_or(&[])
        .iter()
        .copied()
        .find(|k| k.method() == Some(method) && k.is_available())
}

/// The concrete kernel the name `asm` stands for: the last of the table's
/// encodings that runs here (AVX, else SSE4.1), else `Asm` itself
/// (unavailable).
pub(crate) fn asm_kernel() -> Kernel {
    crate::vocabulary::kernel::asm_encodings()
        .rev()
        .find(|k| k.is_available())
        .unwrap_or(Kernel::Asm)
}

/// `auto`'s choice for each task (in [`Task::ALL`] order) and N: 0 while
/// not yet made, else 1 + the kernel's index in [`Kernel::ALL`].
pub(super) static AUTO_CHOICE: [[AtomicU8; MAX_N + 1]; 3] =
    [const { [const { AtomicU8::new(0) }; MAX_N + 1] }; 3];

/// The kernel `auto` picks for `task` at size `n` (from 0 to [`MAX_N`]):
/// the first kernel of [`auto_preference`] that runs here and accepts `n`.
/// Made once per task and N, then read from a cache.
///
/// # Errors
///
/// [`Error::SizeOutOfRange`] (for `auto`) if `n` is over [`MAX_N`], which
/// no kernel accepts.
pub(crate) fn auto_kernel(task: Task, n: usize) -> Result<Kernel, Error> {
    // Past MAX_N there is no choice, and no slot of the cache.
    Kernel::Auto.check_size(n)?;
    Ok(cached_auto_kernel(task, n))
}

/// [`auto_kernel`] for an `n` already checked against `auto`'s sizes (0 to
/// [`MAX_N`]): the path of every call through `auto` after the first, kept
/// to a load and a compare (BENCHMARKS.md, "Dispatch cost": a call of
/// `queens_simd::count` may cost at most 2% more than a held solver).
#[inline]
pub(super) fn cached_auto_kernel(task: Task, n: usize) -> Kernel {
    // The slots follow `Task::ALL`, the tasks' order of declaration.
    let cached = &AUTO_CHOICE[task as usize][n];
    if let Some(&kernel) =
        Kernel::ALL.get(usize::from(cached.load(Ordering::Relaxed)).wrapping_sub(1))
    {
        return kernel;
    }
    choose_auto_kernel(task, n, cached)
}

/// `auto`'s choice for `task` at `n`, made and stored in `cached`.
#[cold]
fn choose_auto_kernel(task: Task, n: usize, cached: &AtomicU8) -> Kernel {
    let kernel = auto_preference(task, n)
        .unwrap_or(&[])
        .iter()
        .copied()
        .find(|k| {
            k.role() == Role::Fast
                && (task == Task::Count || k.enumerates())
                && k.is_available()
                && k.sizes().contains(&n)
        })
        .unwrap_or(Kernel::Portable);
    if let Some(index) = Kernel::ALL.iter().position(|&k| k == kernel) {
        // Racing threads compute the same choice; either store is right.
        cached.store(index as u8 + 1, Ordering::Relaxed);
    }
    kernel
}

/// The concrete kernel that would do `task` for size `n`: `Auto` resolved
/// for that task, `Asm` to its best encoding, any other kernel itself.
/// Defined for every `n`: for sizes no kernel accepts, `Auto` stays
/// itself (and `Asm` where no encoding runs), and its size check reports
/// them in its own name; [`Kernel::check_size`] and
/// [`super::solver_for`] tell whether the kernel accepts `n`.
pub fn resolve_for(kernel: Kernel, task: Task, n: usize) -> Kernel {
    match kernel {
        Kernel::Auto => auto_kernel(task, n).unwrap_or(Kernel::Auto),
        Kernel::Asm => asm_kernel(),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every task and size up to `MAX_N`, on either kind of CPU, has a
    /// rule, and the first rule that serves it is the one whose list
    /// `auto` walks.
    #[test]
    fn every_task_and_size_has_a_rule() {
        for task in Task::ALL {
            for n in 0..=MAX_N {
                for splits_512 in [false, true] {
                    let rule = rule(task, n, splits_512).expect("a rule");
                    assert_eq!(preference(task, n, splits_512), Ok(rule.list));
                }
            }
        }
    }

    /// Each figure a rule cites says what the rule's order says: the
    /// faster kernel was measured faster, and the rule lists it ahead of
    /// the slower one, at a size and task the rule serves first. A list
    /// reordered against its figures, or a figure moved to a rule that
    /// does not serve it, fails here.
    #[test]
    fn every_list_agrees_with_the_figures_it_cites() {
        let mut cited = 0;
        for (index, rule) in RULES.iter().enumerate() {
            for figure in rule.because {
                let at = |kernel| rule.list.iter().position(|&k| k == kernel);
                let first = super::rule(figure.task, figure.n, rule.split_512_only);
                assert!(
                    first.is_some_and(|first| core::ptr::eq(first, rule)),
                    "rule {index} does not serve {figure:?}"
                );
                assert!(figure.faster_ns < figure.slower_ns, "{figure:?}");
                assert!(
                    at(figure.faster) < at(figure.slower),
                    "rule {index} lists {} after {}, against {figure:?}",
                    figure.faster,
                    figure.slower
                );
                assert!(!figure.cpu.is_empty() && !figure.source.is_empty());
                cited += 1;
            }
        }
        assert!(cited >= 30, "{cited} figures");
    }

    /// The figures' sections are those of BENCHMARKS.md.
    #[test]
    fn every_figure_names_a_section_of_the_benchmarks() {
        let benchmarks = include_str!("../../BENCHMARKS.md");
        for figure in RULES.iter().flat_map(|rule| rule.because) {
            assert!(
                benchmarks
                    .lines()
                    .any(|line| line.starts_with('#') && line.ends_with(figure.source)),
                "{figure:?}"
            );
        }
    }

    /// On a CPU with AVX-512 F and BW but no VPOPCNTDQ (Skylake-SP,
    /// Cascade Lake), the first kernel of the counting lists that it runs
    /// is `join-avx512bw` at every size the join serves: ahead of
    /// `join-avx2`, where `join-avx512`, listed first, does not run.
    #[test]
    fn a_cpu_without_vpopcntdq_counts_the_join_sizes_with_join_avx512bw() {
        use crate::vocabulary::cpu;
        const SKYLAKE_SP: &str = "sse4.1,avx,avx2,avx512f,avx512bw,bmi1,bmi2,lzcnt,popcnt";
        let skylake_sp = cpu::named::<{ cpu::count_named(SKYLAKE_SP) }>(SKYLAKE_SP);
        let runs = |kernel: &&Kernel| kernel.cpu_features().iter().all(|f| skylake_sp.contains(f));
        for n in JOIN_FROM..=MAX_N {
            let list = preference(Task::Count, n, false).unwrap();
            let first = list.iter().filter(runs).find(|k| k.sizes().contains(&n));
            assert_eq!(first, Some(&Kernel::JoinAvx512Bw), "N = {n}");
        }
    }

    /// A kernel ahead of its family moves only itself: the lists with
    /// `lanes-avx2` first are the others with it moved.
    #[test]
    fn a_led_list_is_its_list_with_one_kernel_moved() {
        for (led, plain) in [(LARGE_N, LARGE_N), (SMALL_N, SMALL_N)]
            .map(|(a, b)| (expand_led(SPLIT_512_LEADER, a), expand(b)))
        {
            let rest: Vec<Kernel> = plain
                .into_iter()
                .filter(|&k| k != SPLIT_512_LEADER)
                .collect();
            assert_eq!(led[0], SPLIT_512_LEADER);
            assert_eq!(led[1..], rest[..]);
        }
    }
}
