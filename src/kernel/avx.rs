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
    /// (asked once, see `crate::cpu`; a constant when the build enables
    /// AVX).
    pub fn new() -> Option<Avx> {
        crate::cpu::has_all(Kernel::Avx.cpu_features()).then_some(Avx(()))
    }

    /// This proof as a `'static` solver: what the dispatcher hands out
    /// (the type is zero-sized, so the reference costs nothing).
    pub(crate) fn as_static(self) -> &'static Avx {
        &Avx(())
    }
}

davidad_kernel!(feature = "avx", token = Avx, kernel = Kernel::Avx);
