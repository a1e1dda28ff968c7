//! The library's build decides which kernels it has (its build.rs: the
//! x86-64 kernels, the SIMD ones, the asm one, none where the portable
//! kernel is forced) and hands the list over; the program's tests of the
//! kernels' instructions (cli/tests/program/disassembly.rs, cli/tests/program/cpu_models.rs) are
//! compiled under the same cfgs.

fn main() {
    for cfg in ["x86_kernels", "simd_kernels", "asm_kernels"] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    println!("cargo::rerun-if-env-changed=DEP_QUEENS_SIMD_KERNELS");
    let kernels = std::env::var("DEP_QUEENS_SIMD_KERNELS").unwrap_or_default();
    for cfg in kernels.split(',').filter(|cfg| !cfg.is_empty()) {
        println!("cargo::rustc-cfg={cfg}");
    }
}
