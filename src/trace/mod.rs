//! The kernels' intermediate states, as plain data: what the pictures in
//! `docs/` are drawn from (`cargo run --example pictures --features
//! trace`), and a way to watch a kernel work.
//!
//! Each function here runs the real kernel, the same compiled code that
//! counts, with a watcher in place of its counter: the kernels call a hook
//! at each step that is empty, and compiled away, everywhere but here.
//! Only the feature `trace` (off by default) builds this module.

pub mod band_rule;
pub mod davidad;
pub mod join;
pub mod lanes;
pub mod symmetric;

/// `Ok` for `n` from `min` to `max`, else the error that says so for
/// `kernel`: each trace takes the sizes its kernel and its pictures make
/// sense for.
fn check_size(kernel: crate::Kernel, n: usize, min: usize, max: usize) -> Result<(), crate::Error> {
    if (min..=max).contains(&n) {
        Ok(())
    } else {
        Err(crate::Error::SizeOutOfRange {
            n,
            kernel,
            min,
            max,
        })
    }
}

/// One square's bit per column, column 0 in bit 0, as every kernel keeps
/// its rows.
pub type Columns = u32;
