//! The `sse41` kernel: davidad's state machine ([`super::davidad`]) in
//! legacy SSE encodings (`psllw`, `psrlw`, `pblendw`, `psrldq`, `por`,
//! `pandn`, `movq`), compiled with `#[target_feature(enable = "sse4.1")]`.
//! `pblendw` is the one SSE4.1 instruction; the rest are SSE2.

use crate::kernel::Kernel;
use crate::kernel::davidad::davidad_kernel;

/// The `sse41` kernel. Holding one proves this CPU has SSE4.1.
#[derive(Clone, Copy, Debug)]
pub struct Sse41(());

impl Sse41 {
    /// `Some` if this CPU has SSE4.1. The check is cached by the standard
    /// library, and folds to a constant when the build enables SSE4.1
    /// (`-C target-feature=+sse4.1` or a `-C target-cpu` that has it).
    pub fn new() -> Option<Sse41> {
        std::arch::is_x86_feature_detected!("sse4.1").then_some(Sse41(()))
    }
}

davidad_kernel!(feature = "sse4.1", token = Sse41, kernel = Kernel::Sse41);
