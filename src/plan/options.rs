//! How to count a plan: on how many threads, with which kernel.

use std::num::NonZeroUsize;

use crate::Kernel;

/// How to count a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Worker threads, at least 1. Default: every core
    /// ([`std::thread::available_parallelism`]).
    pub threads: usize,
    /// A kernel of the plan's method (a symmetric or lane kernel for a
    /// symmetric plan, a join kernel for a join plan), or `auto` (the
    /// default): the fastest one of the plan's method this CPU runs.
    pub kernel: Kernel,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
            kernel: Kernel::Auto,
        }
    }
}

impl Options {
    /// The default options with `threads` threads.
    pub fn threads(threads: usize) -> Options {
        Options {
            threads,
            ..Options::default()
        }
    }

    /// These options with `kernel`.
    pub fn with_kernel(self, kernel: Kernel) -> Options {
        Options { kernel, ..self }
    }
}
