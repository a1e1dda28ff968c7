//! Build script: declares the crate's custom cfgs, derives short aliases for
//! the conditions the source tests again and again, and tracks the inputs
//! that are not Rust source files.
//!
//! * `queens_simd_force_portable`: compile only the portable and symmetric
//!   kernels into the dispatcher, whatever the target. Set it with
//!   `RUSTFLAGS="--cfg queens_simd_force_portable"` or, more conveniently,
//!   with the environment variable `QUEENS_SIMD_FORCE_PORTABLE=1`, which this
//!   script turns into the cfg.
//! * Aliases, each one place that says which kernels a build has:
//!   - `x86_kernels`: x86-64 and not forced portable: `symmetric-bmi` and
//!     the CPUID feature checks.
//!   - `simd_kernels`: `x86_kernels` on a target whose baseline has SSE2
//!     (not the soft-float `x86_64-unknown-none`, where vector registers
//!     are off limits): davidad's machine in intrinsics (`sse41`, `avx`).
//!   - `asm_kernels`: `simd_kernels` on Linux: the `global_asm!` kernel,
//!     whose assembly is ELF for the System V ABI.
//! * `asm/`: the hand-written assembly is pulled in with `include_str!`,
//!   which Cargo does track, but a rerun on any change there keeps the cfgs
//!   above in step too.

use std::env;

fn main() {
    for cfg in [
        "queens_simd_force_portable",
        "x86_kernels",
        "simd_kernels",
        "asm_kernels",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    println!("cargo::rerun-if-changed=asm");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=QUEENS_SIMD_FORCE_PORTABLE");

    let set = |name: &str| env::var(name).is_ok_and(|v| !v.is_empty() && v != "0");
    // The cfg may come from RUSTFLAGS (Cargo passes it on as
    // CARGO_CFG_QUEENS_SIMD_FORCE_PORTABLE) or from the variable.
    let from_variable = set("QUEENS_SIMD_FORCE_PORTABLE");
    if from_variable {
        println!("cargo::rustc-cfg=queens_simd_force_portable");
    }
    let forced = from_variable || env::var_os("CARGO_CFG_QUEENS_SIMD_FORCE_PORTABLE").is_some();

    let target = |key: &str| env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    let x86 = target("ARCH") == "x86_64" && !forced;
    let simd = x86 && target("FEATURE").split(',').any(|f| f == "sse2");
    let asm = simd && target("OS") == "linux";
    let mut built = Vec::new();
    for (alias, on) in [
        ("x86_kernels", x86),
        ("simd_kernels", simd),
        ("asm_kernels", asm),
    ] {
        if on {
            println!("cargo::rustc-cfg={alias}");
            built.push(alias);
        }
    }
    // For the packages that depend on this one (the command line's
    // build.rs reads it as DEP_QUEENS_SIMD_KERNELS): its tests of the
    // kernels' instructions ask what this build has.
    println!("cargo::metadata=kernels={}", built.join(","));
}
