//! Projections of a join count from a random sample of its row sets,
//! joined with the real kernel: how long a count too long to run would
//! take, on this machine, and how far to trust that.

use core::num::NonZeroUsize;
use std::vec::Vec;

pub use crate::kernel::join::sample::Observation;
use crate::kernel::pieces::PieceCounter;
use crate::{Error, Kernel};

use super::{Method, Plan};

/// A random sample of a join plan's row sets, each joined and timed on one
/// thread ([`Plan::sample`]), and what it projects for the whole plan.
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
#[derive(Clone, Debug)]
pub struct Sample {
    n: usize,
    kernel: Kernel,
    seed: u64,
    total_weight: f64,
    observations: Vec<Observation>,
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
        self.project(|o| o.join.as_secs_f64() / o.weight)
    }

    /// The projected time of building the tables, in seconds on one
    /// thread: one build per group of row sets that share their first
    /// choices (a count on threads, or in shards, builds some twice).
    pub fn table_seconds(&self) -> Projection {
        self.project(|o| o.tables.as_secs_f64() / o.group_weight)
    }

    /// The projected time of the whole count, tables and joins, in
    /// seconds on one thread.
    pub fn seconds(&self) -> Projection {
        self.project(|o| o.join.as_secs_f64() / o.weight + o.tables.as_secs_f64() / o.group_weight)
    }

    /// The mean of `total weight * per_weight(draw)` and its standard error.
    fn project(&self, per_weight: impl Fn(&Observation) -> f64) -> Projection {
        let draws = self.observations.len() as f64;
        let values: Vec<f64> = self
            .observations
            .iter()
            .map(|o| self.total_weight * per_weight(o))
            .collect();
        let mean = values.iter().sum::<f64>() / draws;
        let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (draws - 1.0);
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

impl Plan {
    /// [`Plan::sample`] with the counter the dispatcher built.
    pub(crate) fn run_sample(
        &self,
        counter: PieceCounter,
        draws: NonZeroUsize,
        seed: u64,
        threads: usize,
    ) -> Result<Sample, Error> {
        if self.method != Method::Join || counter.method() != Method::Join {
            return Err(Error::WrongMethod {
                kernel: counter.kernel(),
                method: self.method.name(),
            });
        }
        let pieces: Vec<_> = self.subproblems.iter().map(|sub| sub.piece()).collect();
        let drawn = counter.sample(self.n, &pieces, draws.get(), seed, threads)?;
        Ok(Sample {
            n: self.n,
            kernel: counter.kernel(),
            seed,
            total_weight: drawn.total_weight,
            observations: drawn.observations,
        })
    }
}
