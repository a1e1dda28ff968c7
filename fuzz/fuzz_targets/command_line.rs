//! Any command line: the words after the program's name, NUL-separated.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks/command_line.rs"]
mod command_line;

fuzz_target!(|bytes: &[u8]| command_line::check(bytes));
