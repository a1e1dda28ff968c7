//! Build script: declares the crate's custom cfgs and tracks the inputs that
//! are not Rust source files.
//!
//! * `queens_simd_force_portable`: compile only the portable kernel into the
//!   dispatcher, whatever the target. Set it with
//!   `RUSTFLAGS="--cfg queens_simd_force_portable"` or, more conveniently,
//!   with the environment variable `QUEENS_SIMD_FORCE_PORTABLE=1`, which this
//!   script turns into the cfg.
//! * `asm/`: the hand-written assembly kernels are pulled in with
//!   `include_str!`, which Cargo does track, but a rerun on any change there
//!   keeps the cfgs above in step too.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(queens_simd_force_portable)");
    println!("cargo::rerun-if-changed=asm");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=QUEENS_SIMD_FORCE_PORTABLE");
    let forced = std::env::var("QUEENS_SIMD_FORCE_PORTABLE")
        .map(|v| !v.is_empty() && v != "0")
        .unwrap_or(false);
    if forced {
        println!("cargo::rustc-cfg=queens_simd_force_portable");
    }
}
