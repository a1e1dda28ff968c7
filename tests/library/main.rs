//! The library's tests, built as one test binary: a file of tests here is
//! a module of it (one binary per file compiled and linked `common` and
//! proptest once for each). tests/headroom.rs and tests/plan_memory.rs
//! are binaries of their own: their counting allocators would count every
//! test of this one.

#[path = "../common/mod.rs"]
mod common;

mod asm;
mod domain;
mod kernels;
mod memory_limits;
mod plan;
mod properties;
mod reference;
mod structure;
