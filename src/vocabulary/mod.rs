//! The words every layer shares, at the bottom of the crate: the kernels'
//! names and their table ([`kernel`]), the tasks ([`task`]), the error
//! type ([`error`]), the board ([`board`]) and its symmetries
//! ([`symmetry`]), a number of solutions ([`count`]), what this CPU
//! can do (`cpu`), and the names close to a mistyped one (`suggest`).
//!
//! Nothing here imports a module above it: the kernels, the plan, the
//! dispatcher and the command line all speak these words, and none of
//! them is spoken here. Within, imports run one way, down this list:
//! `symmetry` → `board` → `error` → `defect` → `kernel`, `task` → `cpu`;
//! and `error` → `suggest`, which imports nothing.

pub mod board;
pub mod count;
pub(crate) mod cpu;
pub(crate) mod defect;
pub mod error;
pub mod kernel;
#[cfg(feature = "alloc")]
pub mod suggest;
pub mod symmetry;
pub mod task;
