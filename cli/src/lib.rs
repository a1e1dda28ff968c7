//! Empty: this package exists to turn on queens-simd's `cli` feature for
//! the workspace's default members (see its Cargo.toml). The command line
//! itself is queens-simd's `queens-simd` binary and its `cli` module.
#![no_std]
