//! Projections of a join count from a random sample of its row sets,
//! joined with the real kernel: how long a count too long to run would
//! take, on this machine, and how far to trust that.

use std::vec::Vec;

use crate::Kernel;
pub use crate::kernel::join::sample::Observation;
pub use crate::kernel::join::stats::JoinStats;

use crate::kernel::join::sample::Drawn;

/// A random sample of a join plan's row sets, each joined and timed on one
/// thread ([`crate::dispatch::Options::sample`]), and what it projects for the whole plan.
///
/// Each row set is drawn with probability proportional to its sampling
/// weight (`sqrt(C(w, j))`, for `j` of the west half's `w` queens north of
/// the line between its quarters), so each draw `i` projects a total of
/// `total weight * x_i / weight_i` for any measure `x` of it: the
/// projection is the mean of those, and its standard error their
/// standard deviation over the square root of the draws. The error says
/// how far another sample of the same size would likely land: a
/// projection is within two standard errors of the truth about 95 times
/// in 100, if the times measured are the times the count would take.
///
/// They are not quite: on a shared machine one core's speed moves by
/// several percent from one minute to the next, more than each sample's
/// own error said (BENCHMARKS.md, "Growth of the join", the yardstick). So the sample
/// also times a fixed piece of work again and again while it runs (the
/// join count of N = 14), and the times' errors ([`Sample::seconds`] and
/// the others) add the spread of those times ([`Sample::machine`]) to the
/// draws' error. A machine that is steadily faster or slower for the
/// whole sample than for the count it projects is beyond any error
/// printed here: repeat the sample at another hour to see it.
#[derive(Clone, Debug)]
pub struct Sample {
    n: usize,
    kernel: Kernel,
    seed: u64,
    total_weight: f64,
    observations: Vec<Observation>,
    /// The times of the fixed piece of work, through the sample.
    machine: Vec<std::time::Duration>,
}

/// A projected total and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// The projected total.
    pub value: f64,
    /// Its standard error (infinite with fewer than two draws).
    pub standard_error: f64,
}

impl Projection {
    /// The standard error as a fraction of the value.
    pub fn relative_error(&self) -> f64 {
        self.standard_error / self.value.abs()
    }
}

impl Sample {
    /// The sample of the row sets `drawn` of the `n`x`n` join plan, with
    /// `seed`, joined by `kernel`.
    pub(super) fn of(kernel: Kernel, n: usize, seed: u64, drawn: Drawn) -> Sample {
        Sample {
            n,
            kernel,
            seed,
            total_weight: drawn.total_weight,
            observations: drawn.observations,
            machine: drawn.machine,
        }
    }

    /// About how many bytes a sample of `draws` row sets of a join plan of
    /// `pieces` subproblems takes on `threads` threads beyond the count's
    /// memory ([`super::Plan::memory_estimate`], [`MemoryNeeds::count`]), at most,
    /// known before the plan is built: the draws and their observations,
    /// 160 bytes a draw, each list taken whole before the first join; the
    /// sort of a [`Sample::quantiles`] of the sample; on each thread, the
    /// tables of the fixed piece of work it times ([`Sample::machine`]);
    /// and a few lists of the plan's pieces (56 bytes a piece). It bounds
    /// [`crate::dispatch::Options::check`] of as many draws too (a [`Checked`] is 64
    /// bytes). Saturating: draws past the address space estimate
    /// `u64::MAX`. [`super::Plan::sample_memory_estimate`] is this for a plan
    /// built.
    ///
    /// [`MemoryNeeds::count`]: super::MemoryNeeds::count
    /// [`Checked`]: super::Checked
    ///
    /// ```
    /// use queens_simd::plan::Sample;
    ///
    /// let million = Sample::memory_estimate(1000, 1 << 20, 2);
    /// let thousand = Sample::memory_estimate(1000, 1000, 2);
    /// assert_eq!(million - thousand, 160 * ((1 << 20) - 1000));
    /// assert_eq!(Sample::memory_estimate(1000, usize::MAX, 2), u64::MAX);
    /// ```
    pub fn memory_estimate(pieces: usize, draws: usize, threads: usize) -> u64 {
        use crate::kernel::join::sample::{BYTES_PER_DRAW, BYTES_PER_PIECE, bytes_per_thread};
        // The lists of the reference's times and the channel they come
        // through: about 24 times and one more per thread, and a block of
        // the channel's.
        const SMALL: u64 = 64 << 10;
        // A sample's draw, or a check's, the larger.
        let per_draw = BYTES_PER_DRAW.max(size_of::<super::Checked>());
        (draws as u64)
            .saturating_mul(per_draw as u64)
            .saturating_add((threads.max(1) as u64).saturating_mul(bytes_per_thread()))
            .saturating_add((pieces as u64).saturating_mul(BYTES_PER_PIECE as u64))
            .saturating_add(SMALL)
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The kernel that joined the row sets.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The seed the row sets were drawn with: the same seed draws the same.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The drawn row sets, joined, in the order drawn.
    pub fn observations(&self) -> &[Observation] {
        &self.observations
    }

    /// The projected number of solutions: a check of the sample, where the
    /// count is known.
    pub fn count(&self) -> Projection {
        self.project(|o| o.count as f64 / o.weight)
    }

    /// The projected time of the joins, in seconds on one thread.
    pub fn join_seconds(&self) -> Projection {
        self.with_machine(self.project(|o| o.join.as_secs_f64() / o.weight))
    }

    /// How much this machine's speed moved while the sample ran: the
    /// standard deviation of the times of the fixed piece of work it timed
    /// again and again, as a fraction of their mean (0 with fewer than
    /// two).
    pub fn machine(&self) -> f64 {
        let times: Vec<f64> = self.machine.iter().map(|t| t.as_secs_f64()).collect();
        if times.len() < 2 {
            return 0.0;
        }
        let count = times.len() as f64;
        let mean = times.iter().sum::<f64>() / count;
        let variance = times.iter().map(|t| (t - mean) * (t - mean)).sum::<f64>() / (count - 1.0);
        variance.sqrt() / mean
    }

    /// How many times the sample timed the fixed piece of work.
    pub fn machine_times(&self) -> usize {
        self.machine.len()
    }

    /// The mean time of the fixed piece of work the sample timed again and
    /// again (the join count of N = 14, on one thread), in seconds: this
    /// machine's speed while the sample ran, to compare samples run at
    /// other times or on other machines by.
    pub fn reference_seconds(&self) -> f64 {
        let times = self.machine.iter().map(|t| t.as_secs_f64());
        times.clone().sum::<f64>() / times.len().max(1) as f64
    }

    /// `time` with [`Sample::machine`]'s share of it added to its error
    /// (in quadrature: the two are independent).
    fn with_machine(&self, time: Projection) -> Projection {
        let machine = self.machine() * time.value;
        Projection {
            standard_error: time.standard_error.hypot(machine),
            ..time
        }
    }

    /// The draws' error of the whole count's time alone, without the
    /// machine's: what the error of [`Sample::seconds`] would be on a
    /// machine whose speed never moves.
    pub fn draws_error(&self) -> Projection {
        self.project(|o| o.join.as_secs_f64() / o.weight + o.tables.as_secs_f64() / o.group_weight)
    }

    /// The projected time of building the tables, in seconds on one
    /// thread: one build per group of row sets that share their first
    /// choices (a count on threads, or in shards, builds some twice).
    pub fn table_seconds(&self) -> Projection {
        self.with_machine(self.project(|o| o.tables.as_secs_f64() / o.group_weight))
    }

    /// The projected time of the whole count, tables and joins, in
    /// seconds on one thread.
    pub fn seconds(&self) -> Projection {
        self.with_machine(self.draws_error())
    }

    /// The projected total over the count of one measure of the joins'
    /// [`JoinStats`] (its half-boards, the pairs scanned or found, ...):
    /// `sample.stats(|s| s.scanned).value / sample.stats(|s| s.found).value`
    /// is the pairs the matcher scans per pair it finds.
    pub fn stats(&self, measure: impl Fn(&JoinStats) -> u64) -> Projection {
        self.project(|o| measure(&o.stats) as f64 / o.weight)
    }

    /// Quantiles of one measure of the joins' [`JoinStats`] over the
    /// count's row sets (each draw weighed by how many it stands for: the
    /// inverse of its sampling weight), at each of `fractions` (0 to 1):
    /// the spread of the half-boards' lists, not only their mean.
    ///
    /// It sorts the draws' places, a `usize` each
    /// ([`super::Plan::sample_memory_estimate`] counts them); where that list is
    /// refused it walks the draws once per value instead, slower, with
    /// the same answer.
    pub fn quantiles(&self, measure: impl Fn(&JoinStats) -> u64, fractions: &[f64]) -> Vec<u64> {
        let value = |at: usize| measure(&self.observations[at].stats);
        let weight = |at: usize| 1.0 / self.observations[at].weight;
        let mut order = Vec::new();
        if order.try_reserve_exact(self.observations.len()).is_err() {
            return self.quantiles_in_place(&measure, fractions);
        }
        order.extend(0..self.observations.len());
        // By value, then as drawn: a stable sort's order, without its
        // buffer.
        order.sort_unstable_by_key(|&at| (value(at), at));
        let total: f64 = order.iter().map(|&at| weight(at)).sum();
        fractions
            .iter()
            .map(|&fraction| {
                let mut below = 0.0;
                for &at in &order {
                    below += weight(at);
                    if below >= fraction * total {
                        return value(at);
                    }
                }
                order.last().map_or(0, |&at| value(at))
            })
            .collect()
    }

    /// [`Sample::quantiles`] with nothing allocated per draw: the draws
    /// visited in the same order (by value, then as drawn), one pass over
    /// them for each value.
    fn quantiles_in_place(
        &self,
        measure: &impl Fn(&JoinStats) -> u64,
        fractions: &[f64],
    ) -> Vec<u64> {
        let values = || self.observations.iter().map(|o| measure(&o.stats));
        // Calls `visit(value, weight)` for each draw in that order, until
        // it returns false.
        let walk = |visit: &mut dyn FnMut(u64, f64) -> bool| {
            let mut next = values().min();
            while let Some(value) = next {
                for o in &self.observations {
                    if measure(&o.stats) == value && !visit(value, 1.0 / o.weight) {
                        return;
                    }
                }
                next = values().filter(|&v| v > value).min();
            }
        };
        let mut total = 0.0;
        walk(&mut |_, weight| {
            total += weight;
            true
        });
        fractions
            .iter()
            .map(|&fraction| {
                let (mut below, mut found) = (0.0, None);
                walk(&mut |value, weight| {
                    below += weight;
                    if below >= fraction * total {
                        found = Some(value);
                    }
                    found.is_none()
                });
                found.unwrap_or_else(|| values().max().unwrap_or(0))
            })
            .collect()
    }

    /// The mean of `total weight * per_weight(draw)` and its standard error,
    /// each draw's value computed again for the second pass rather than
    /// held.
    fn project(&self, per_weight: impl Fn(&Observation) -> f64) -> Projection {
        let draws = self.observations.len() as f64;
        let values = || {
            self.observations
                .iter()
                .map(|o| self.total_weight * per_weight(o))
        };
        let mean = values().sum::<f64>() / draws;
        let variance = values().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (draws - 1.0);
        Projection {
            value: mean,
            standard_error: if draws >= 2.0 {
                (variance / draws).sqrt()
            } else {
                f64::INFINITY
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Method;
    use crate::kernel::pieces::PieceCounter;
    use crate::plan::Plan;
    use core::num::NonZeroUsize;

    /// The quantiles found without a list of the draws (where it is
    /// refused) are those found with one, at every fraction.
    #[test]
    fn quantiles_in_place_are_the_quantiles() {
        let plan = Plan::with_method(Method::Join, 12).unwrap();
        let join = crate::kernel::join::Join::new().unwrap().as_static();
        let counter = PieceCounter::Joiner(join);
        let fractions = [0.0, 0.1, 0.5, 0.9, 0.999, 1.0, 2.0];
        for (draws, seed) in [(1, 1), (2, 2), (500, 3), (3000, 4)] {
            let draws = NonZeroUsize::new(draws).unwrap();
            let sample = plan.run_sample(counter, draws, seed, 1).unwrap();
            let measures: [fn(&JoinStats) -> u64; 4] =
                [|s| s.west, |s| s.east, |s| s.found, |s| s.row_sets];
            for measure in measures {
                assert_eq!(
                    sample.quantiles(measure, &fractions),
                    sample.quantiles_in_place(&measure, &fractions),
                    "{draws} draws"
                );
            }
        }
    }
}
