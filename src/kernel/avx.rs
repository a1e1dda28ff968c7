//! The `avx` kernel: davidad's state machine ([`super::davidad`]) in VEX
//! three-operand encodings, as the article wrote it (`vpsllw`, `vpsrlw`,
//! `vpsrldq`, `vpandn`; the compiler also gives `pblendw`, `por` and `movq`
//! their VEX forms), compiled with `#[target_feature(enable = "avx")]`.
//!
//! AVX here is AVX1: 128-bit integer operations in VEX form. Nothing needs
//! AVX2, so the kernel detects `avx`, not `avx2`.

use crate::Kernel;
use crate::kernel::davidad::davidad_kernel;
use crate::kernel::kernel_type;

kernel_type! {
    /// The `avx` kernel. Holding one proves this CPU (and its operating system,
    /// which must save the ymm registers) supports AVX.
    pub struct Avx = Kernel::Avx;
}

davidad_kernel!(Avx);
