//! The `avx` kernel: davidad's state machine ([`super::davidad`]) in VEX
//! three-operand encodings, as the article wrote it (`vpsllw`, `vpsrlw`,
//! `vpsrldq`, `vpandn`; the compiler also gives `pblendw`, `por` and `movq`
//! their VEX forms), compiled with `#[target_feature(enable = "avx")]`.
//!
//! AVX here is AVX1: 128-bit integer operations in VEX form. Nothing needs
//! AVX2, so the kernel detects `avx`, not `avx2`.

use crate::kernel::Kernel;
use crate::kernel::davidad::davidad_kernel;

/// The `avx` kernel. Holding one proves this CPU (and its operating system,
/// which must save the ymm registers) supports AVX.
#[derive(Clone, Copy, Debug)]
pub struct Avx(());

impl Avx {
    /// `Some` if this CPU has AVX and the operating system has enabled it
    /// (`is_x86_feature_detected!` checks both). Cached by the standard
    /// library; folds to a constant when the build enables AVX.
    pub fn new() -> Option<Avx> {
        std::arch::is_x86_feature_detected!("avx").then_some(Avx(()))
    }
}

davidad_kernel!(feature = "avx", token = Avx, kernel = Kernel::Avx);
