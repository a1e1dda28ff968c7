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
    /// `Some` if this CPU has SSE4.1 (asked once, see `crate::cpu`; a
    /// constant when the build enables SSE4.1).
    pub fn new() -> Option<Sse41> {
        crate::cpu::has_all(Kernel::Sse41.cpu_features()).then_some(Sse41(()))
    }

    /// This proof as a `'static` solver: what the dispatcher hands out
    /// (the type is zero-sized, so the reference costs nothing).
    pub(crate) fn as_static(self) -> &'static Sse41 {
        &Sse41(())
    }
}

davidad_kernel!(feature = "sse4.1", token = Sse41, kernel = Kernel::Sse41);
