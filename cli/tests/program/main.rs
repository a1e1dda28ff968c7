//! The program's tests, built as one test binary: a file of tests here is
//! a module of it. One binary per file compiled and linked the shared
//! support (`common`, assert_cmd, snapbox, serde_json's values) once for
//! each: 42 s of compile time against 22 to 27 s as one (BENCHMARKS.md,
//! issue 57). cli/tests/sample_memory.rs is a binary of its own: its
//! counting allocator would count every test of this one.

#[path = "../common/mod.rs"]
mod common;

mod campaign;
mod cli;
mod cpu_models;
mod disassembly;
mod docs_examples;
mod flags;
mod fuzz_corpus;
mod hostile_environment;
mod hostile_files;
mod json_counts;
mod long_runs;
mod memory_cgroup;
mod merge;
mod script;
