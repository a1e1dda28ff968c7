//! The asm kernel's own contract, beyond the shared kernel table: the
//! resumable search stops and continues without losing or repeating a
//! solution, whatever the buffer size; the System V ABI is kept (every
//! callee-saved register intact); and the large counts hold in release.
#![cfg(asm_kernels)]

mod common;

use common::{A000170, max_set_n, require_all};
use queens_simd::kernel::asm::{Asm, Encoding, RowMasks, Search};
use queens_simd::{Board, Kernel};

/// Both encodings, where this CPU runs them (with `QUEENS_SIMD_REQUIRE_ALL=1`
/// a missing one fails the test).
fn encodings() -> Vec<Asm> {
    let mut found = Vec::new();
    for (name, asm) in [("sse41", Asm::sse41()), ("avx", Asm::avx())] {
        match asm {
            Some(asm) => found.push(asm),
            None if require_all() => panic!("the asm {name} encoding does not run here"),
            None => eprintln!("SKIPPED: the asm {name} encoding does not run here"),
        }
    }
    found
}

/// Every solution of `search`, fetched `capacity` at a time, checking that
/// each call fills the buffer unless the search ends in it.
fn drain(mut search: Search, capacity: usize) -> Vec<Board> {
    let n = search.n();
    let mut buffer = vec![RowMasks::default(); capacity];
    let mut boards = Vec::new();
    loop {
        let written = search.fill(&mut buffer);
        assert!(written <= capacity);
        boards.extend(buffer[..written].iter().map(|m| m.to_board(n).unwrap()));
        if written < capacity {
            assert!(search.is_finished(), "a short fill ends the search");
            break;
        }
        if search.is_finished() {
            // The last solution filled the buffer exactly: nothing follows.
            assert_eq!(search.fill(&mut buffer), 0);
            break;
        }
    }
    assert_eq!(
        search.fill(&mut buffer),
        0,
        "a finished search stays finished"
    );
    boards
}

#[test]
fn tiny_buffers_give_exactly_the_full_solution_set_in_order() {
    for asm in encodings() {
        for n in 1..=max_set_n() {
            let all_at_once = drain(asm.search(n, u32::MAX).unwrap(), 1 << 16);
            let mut expected = queens_simd::dispatch::solutions(Kernel::Portable, n).unwrap();
            expected.sort_unstable();
            let mut sorted = all_at_once.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, expected, "{asm:?}, N = {n}");
            for capacity in [1, 2, 7] {
                let resumed = drain(asm.search(n, u32::MAX).unwrap(), capacity);
                assert_eq!(
                    resumed, all_at_once,
                    "{asm:?}, N = {n}, capacity {capacity}"
                );
            }
        }
    }
}

#[test]
fn counting_continues_where_filling_stopped() {
    for asm in encodings() {
        for (n, &total) in A000170.iter().enumerate().take(max_set_n() + 1).skip(1) {
            for taken in [0, 1, 5, 40] {
                let mut search = asm.search(n, u32::MAX).unwrap();
                let mut buffer = vec![RowMasks::default(); taken];
                let written = search.fill(&mut buffer) as u128;
                assert_eq!(written, total.min(taken as u128));
                let rest = u128::from(search.count_rest());
                assert_eq!(written + rest, total, "{asm:?}, N = {n}");
                assert!(search.is_finished());
                assert_eq!(search.count_rest(), 0);
            }
        }
    }
}

#[test]
fn a_copied_search_continues_independently() {
    for asm in encodings() {
        let mut search = asm.search(8, u32::MAX).unwrap();
        let mut buffer = [RowMasks::default(); 30];
        assert_eq!(search.fill(&mut buffer), 30);
        let copy = search.clone();
        let rest: Vec<Board> = search.into_iter().collect();
        let rest_of_copy: Vec<Board> = copy.into_iter().collect();
        assert_eq!(rest.len(), 92 - 30);
        assert_eq!(rest, rest_of_copy);
    }
}

#[test]
fn the_first_row_mask_restricts_row_0() {
    for asm in encodings() {
        for n in 1..=max_set_n() {
            for mask in [0, 1, 0b1010, u32::MAX] {
                let got: Vec<Board> = asm.search(n, mask).unwrap().into_iter().collect();
                let expected = queens_simd::dispatch::solutions(Kernel::Portable, n)
                    .unwrap()
                    .into_iter()
                    .filter(|b| mask >> b.columns()[0] & 1 == 1)
                    .count();
                assert_eq!(got.len(), expected, "{asm:?}, N = {n}, mask {mask:#b}");
                assert!(got.iter().all(|b| mask >> b.columns()[0] & 1 == 1));
            }
        }
    }
}

#[test]
fn sizes_outside_1_to_16_are_errors() {
    for asm in encodings() {
        for n in [0, 17, 32, usize::MAX] {
            assert!(asm.search(n, u32::MAX).is_err(), "{asm:?}, N = {n}");
        }
    }
}

#[test]
fn asm_names_the_best_encoding_that_runs() {
    let expected = match queens_simd::dispatch::best_asm().map(Asm::encoding) {
        Some(Encoding::Avx) => Kernel::AsmAvx,
        Some(Encoding::Sse41) => Kernel::AsmSse41,
        None => Kernel::Asm,
    };
    assert_eq!(
        queens_simd::dispatch::resolve_for(Kernel::Asm, queens_simd::kernel::Task::Count, 8),
        expected
    );
    assert_eq!(
        Kernel::Asm.is_available(),
        queens_simd::dispatch::best_asm().is_some()
    );
    assert_eq!("asm".parse::<Kernel>().unwrap(), Kernel::Asm);
}

// N = 16, the largest board the machine holds, one test per encoding so
// that they run in parallel; release builds only. The whole count (ten
// seconds an encoding) with the long tests (CI); otherwise the boards with
// row 0's queen in column 7, every one of the machine's 16 frames in use
// all the same, against the portable kernel's count of them.
#[cfg(not(debug_assertions))]
fn counts_16_queens(encoding: Encoding) {
    if let Some(asm) = encodings().into_iter().find(|a| a.encoding() == encoding) {
        if common::long_tests() {
            let count = asm.search(16, u32::MAX).unwrap().count_rest();
            assert_eq!(u128::from(count), A000170[16], "{asm:?}");
            return;
        }
        let first_row = 1 << 7;
        let count = asm.search(16, first_row).unwrap().count_rest();
        let mut expected = 0u64;
        let flow = queens_simd::dispatch::for_each_solution_in_first_row(
            Kernel::Portable,
            16,
            first_row,
            &mut |_| {
                expected += 1;
                std::ops::ControlFlow::Continue(())
            },
        )
        .unwrap();
        assert_eq!(flow, std::ops::ControlFlow::Continue(()));
        assert!(expected > 0);
        assert_eq!(count, expected, "{asm:?}, row 0's queen in column 7");
    }
}

#[cfg(not(debug_assertions))]
#[test]
fn sse41_counts_16_queens() {
    counts_16_queens(Encoding::Sse41);
}

#[cfg(not(debug_assertions))]
#[test]
fn avx_counts_16_queens() {
    counts_16_queens(Encoding::Avx);
}

/// The ABI check. The machine's layout, restated from the header of
/// `asm/davidad.s`: the test builds one by hand, as a C caller would.
mod abi {
    use super::*;

    #[repr(C)]
    pub struct Machine {
        pub frames: [[u64; 2]; 16],
        pub free: u64,
        pub state: u64,
        pub depth: u64,
        pub last: u64,
        pub columns: u64,
    }

    impl Machine {
        pub fn new(n: usize) -> Machine {
            let columns = (1u64 << n) - 1;
            Machine {
                frames: [[0; 2]; 16],
                free: columns,
                state: 0,
                depth: 0,
                last: n as u64 - 1,
                columns,
            }
        }
    }

    pub type Entry = unsafe extern "sysv64" fn(*mut Machine, *mut RowMasks, usize) -> usize;

    unsafe extern "sysv64" {
        pub fn queens_simd_v0_1_davidad_sse41(
            machine: *mut Machine,
            out: *mut RowMasks,
            capacity: usize,
        ) -> usize;
        pub fn queens_simd_v0_1_davidad_avx(
            machine: *mut Machine,
            out: *mut RowMasks,
            capacity: usize,
        ) -> usize;

        /// Defined below: calls `entry(machine, out, capacity)` with a
        /// canary in every callee-saved register, and stores in `seen` what
        /// rbx, rbp, r12-r15 and rsp held after the call (seen[0..7]) and
        /// rsp before it (seen[7]).
        fn queens_simd_test_call_with_canaries(
            entry: Entry,
            machine: *mut Machine,
            out: *mut RowMasks,
            capacity: usize,
            seen: *mut [u64; 8],
        ) -> usize;
    }

    /// One canary per register, in `seen` order (rbx, rbp, r12-r15).
    pub const CANARIES: [u64; 6] = [
        0x0bb0_1111_2222_3333,
        0x0bb1_4444_5555_6666,
        0x0bb2_7777_8888_9999,
        0x0bb3_aaaa_bbbb_cccc,
        0x0bb4_dddd_eeee_ffff,
        0x0bb5_0123_4567_89ab,
    ];

    core::arch::global_asm!(
        ".pushsection .text.queens_simd_test_call_with_canaries, \"ax\", @progbits",
        ".p2align 4",
        ".globl queens_simd_test_call_with_canaries",
        ".type queens_simd_test_call_with_canaries, @function",
        "queens_simd_test_call_with_canaries:",
        ".cfi_startproc",
        "push rbp",               // keep the caller's callee-saved registers
        ".cfi_adjust_cfa_offset 8",
        "push rbx",
        ".cfi_adjust_cfa_offset 8",
        "push r12",
        ".cfi_adjust_cfa_offset 8",
        "push r13",
        ".cfi_adjust_cfa_offset 8",
        "push r14",
        ".cfi_adjust_cfa_offset 8",
        "push r15",
        ".cfi_adjust_cfa_offset 8",
        "push r8",                // seen; rsp is now 16-byte aligned for the call
        ".cfi_adjust_cfa_offset 8",
        "mov [r8 + 56], rsp",     // seen[7] = rsp before the call
        "mov rax, rdi",           // rax = entry
        "mov rdi, rsi",           // rdi = machine
        "mov rsi, rdx",           // rsi = out
        "mov rdx, rcx",           // rdx = capacity
        "mov rbx, {c0}",          // the canaries
        "mov rbp, {c1}",
        "mov r12, {c2}",
        "mov r13, {c3}",
        "mov r14, {c4}",
        "mov r15, {c5}",
        "call rax",               // rax = the kernel's result
        "mov rcx, [rsp]",         // rcx = seen (where rsp says it is)
        "mov [rcx], rbx",         // seen[0..7] = what the kernel left
        "mov [rcx + 8], rbp",
        "mov [rcx + 16], r12",
        "mov [rcx + 24], r13",
        "mov [rcx + 32], r14",
        "mov [rcx + 40], r15",
        "mov [rcx + 48], rsp",
        "pop r8",                 // restore the caller's registers
        ".cfi_adjust_cfa_offset -8",
        "pop r15",
        ".cfi_adjust_cfa_offset -8",
        "pop r14",
        ".cfi_adjust_cfa_offset -8",
        "pop r13",
        ".cfi_adjust_cfa_offset -8",
        "pop r12",
        ".cfi_adjust_cfa_offset -8",
        "pop rbx",
        ".cfi_adjust_cfa_offset -8",
        "pop rbp",
        ".cfi_adjust_cfa_offset -8",
        "ret",
        ".cfi_endproc",
        ".size queens_simd_test_call_with_canaries, . - queens_simd_test_call_with_canaries",
        ".popsection",
        c0 = const CANARIES[0],
        c1 = const CANARIES[1],
        c2 = const CANARIES[2],
        c3 = const CANARIES[3],
        c4 = const CANARIES[4],
        c5 = const CANARIES[5],
    );

    /// Runs `entry` on N = `n` with `capacity` records (0: count only)
    /// through the canary call; returns its result and what it left in the
    /// callee-saved registers and rsp.
    pub fn call(entry: Entry, n: usize, capacity: usize) -> (usize, [u64; 8]) {
        let mut machine = Machine::new(n);
        let mut out = vec![RowMasks::default(); capacity];
        let out_ptr = if capacity == 0 {
            core::ptr::null_mut()
        } else {
            out.as_mut_ptr()
        };
        let mut seen = [0u64; 8];
        // SAFETY: the caller passes an entry whose encoding this CPU runs;
        // the machine is a fresh one for N in 1..=16, laid out as the
        // assembly documents; `out` is null or holds `capacity >= 1`
        // records; `seen` is valid for the 8 words the trampoline writes.
        let found = unsafe {
            queens_simd_test_call_with_canaries(entry, &mut machine, out_ptr, capacity, &mut seen)
        };
        (found, seen)
    }
}

#[test]
fn callee_saved_registers_and_rsp_are_intact_after_the_kernel() {
    for asm in encodings() {
        let entry: abi::Entry = match asm.encoding() {
            Encoding::Sse41 => abi::queens_simd_v0_1_davidad_sse41,
            Encoding::Avx => abi::queens_simd_v0_1_davidad_avx,
        };
        // Counting to the end, stopping on a full buffer, and the smallest
        // board: every way out of the function.
        for (n, capacity, expected) in [(8, 0, 92), (8, 5, 5), (1, 1, 1), (6, 100, 4)] {
            let (found, seen) = abi::call(entry, n, capacity);
            assert_eq!(found, expected, "{asm:?}, N = {n}, capacity {capacity}");
            assert_eq!(
                seen[..6],
                abi::CANARIES,
                "{asm:?}: rbx, rbp, r12-r15 (seen {seen:#x?})"
            );
            assert_eq!(seen[6], seen[7], "{asm:?}: rsp moved");
        }
    }
}
