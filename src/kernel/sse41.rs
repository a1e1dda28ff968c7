//! The `sse41` kernel: davidad's state machine ([`super::davidad`]) in
//! legacy SSE encodings (`psllw`, `psrlw`, `pblendw`, `psrldq`, `por`,
//! `pandn`, `movq`), compiled with `#[target_feature(enable = "sse4.1")]`.
//! `pblendw` is the one SSE4.1 instruction; the rest are SSE2.

use crate::Kernel;
use crate::kernel::davidad::davidad_kernel;
use crate::kernel::kernel_type;

kernel_type! {
    /// The `sse41` kernel. Holding one proves this CPU has SSE4.1.
    pub struct Sse41 = Kernel::Sse41;
}

davidad_kernel!(Sse41);
