//! Proof of the instructions: disassembles the built `queens-simd` binary
//! with `objdump` and checks that each SIMD kernel's state machine
//! (`kernel::<isa>::search`, one copy for counting and one for enumerating)
//! contains the instructions of davidad's machine in the encoding the kernel
//! claims, so that "SIMD" cannot silently become scalar code or the wrong
//! encoding. The hand-written asm kernel's two functions are held to the
//! same rules: they prove the assembly linked, under its versioned name, in
//! the encoding each claims. Needs `objdump`, and `nm` and `readelf` for the
//! unwind check (GNU binutils); where one is missing, the tests that need it
//! say `SKIPPED` and pass, unless `QUEENS_SIMD_REQUIRE_ALL=1`.
//!
//! Release builds only (`cargo test --release`, the README's test command): in
//! a debug build the intrinsics are calls, not instructions.
#![cfg(all(simd_kernels, not(debug_assertions)))]

use crate::common;

use std::collections::BTreeMap;
use std::process::Command;
use std::sync::OnceLock;

/// Whether `tools` are all on PATH; if not, the test says `SKIPPED` and
/// returns, as the README promises (a failure with
/// `QUEENS_SIMD_REQUIRE_ALL=1`, set in CI).
fn on_path(tools: &[&str]) -> bool {
    tools.iter().all(|tool| common::tool(tool).is_some())
}

/// The binary's disassembly (`objdump -d -C`), made once and shared by
/// every test of this file: a second of objdump per reading otherwise.
fn disassembly() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let binary = env!("CARGO_BIN_EXE_queens-simd");
        let output = Command::new("objdump")
            .args(["-d", "-C", "--no-show-raw-insn", binary])
            .output()
            .expect("objdump (GNU binutils) must be installed to check the kernels' instructions");
        assert!(output.status.success(), "objdump failed on {binary}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    })
}

/// Mnemonics of every function whose demangled name is `name`, one list per
/// copy (monomorphisation), read from `objdump -d -C`.
fn functions_named(name: &str) -> Vec<Vec<String>> {
    let text = disassembly();

    let mut functions = BTreeMap::<usize, Vec<String>>::new();
    let mut current = None;
    for (index, line) in text.lines().enumerate() {
        // A function starts with `0000000000042f10 <name>:`.
        if let Some(header) = line.strip_suffix(">:") {
            current = header
                .split_once(" <")
                .filter(|(_, function)| *function == name)
                .map(|_| index);
            continue;
        }
        // An instruction is `  42f10:\tmnemonic operands`.
        if let (Some(start), Some((_, instruction))) = (current, line.split_once(":\t"))
            && let Some(mnemonic) = instruction.split_whitespace().next()
        {
            functions
                .entry(start)
                .or_default()
                .push(mnemonic.to_owned());
        }
    }
    functions.into_values().collect()
}

/// What an encoding of the machine must and must not contain.
struct Encoding {
    /// Mnemonics that must occur; alternatives separated by `|`.
    required: Vec<String>,
    /// Prefixes no mnemonic may start with.
    forbidden: &'static [&'static str],
}

/// Checks every copy of `name` against `encoding`.
fn check(name: &str, encoding: &Encoding) -> Result<(), String> {
    let copies = functions_named(name);
    if copies.is_empty() {
        return Err(format!("no function named {name} in the binary"));
    }
    for mnemonics in &copies {
        for wanted in &encoding.required {
            if !wanted.split('|').any(|w| mnemonics.iter().any(|m| m == w)) {
                return Err(format!("{name} lacks {wanted}; it has: {mnemonics:?}"));
            }
        }
        if let Some(bad) = mnemonics
            .iter()
            .find(|m| encoding.forbidden.iter().any(|f| m.starts_with(f)))
        {
            return Err(format!(
                "{name} contains {bad}, which its encoding rules out: {mnemonics:?}"
            ));
        }
    }
    Ok(())
}

const SSE41_SEARCH: &str = "queens_simd::kernel::sse41::search";
const AVX_SEARCH: &str = "queens_simd::kernel::avx::search";
const ASM_SSE41: &str = "queens_simd_v0_1_davidad_sse41";
const ASM_AVX: &str = "queens_simd_v0_1_davidad_avx";

/// The machine's instructions, shared by both encodings: a bit scan, a
/// constant shifted by the column, both `movq` crossings and the vector
/// instructions. LLVM writes `psllw 1` as `paddw x, x` (the same bits at the
/// same cost), so a left shift may be either.
const MACHINE: &[&str] = &[
    "pblendw",
    "psrlw",
    "psllw|paddw",
    "psrldq",
    "por",
    "pandn",
    "movq",
];

/// The SSE4.1 kernel: the machine in legacy encoding, a bit scan, and no
/// VEX-encoded vector instruction.
fn sse41() -> Encoding {
    let mut required: Vec<String> = MACHINE.iter().map(|m| m.to_string()).collect();
    required.push("bsf|tzcnt".into());
    Encoding {
        required,
        forbidden: &["vp", "vmov"],
    }
}

/// The AVX kernel: the machine in VEX encoding, a bit scan, and no
/// legacy-SSE vector instruction.
fn avx() -> Encoding {
    let mut required: Vec<String> = MACHINE
        .iter()
        .map(|alternatives| {
            alternatives
                .split('|')
                .map(|m| format!("v{m}"))
                .collect::<Vec<_>>()
                .join("|")
        })
        .collect();
    required.push("bsf|tzcnt".into());
    Encoding {
        required,
        forbidden: &[
            "pblendw", "psrl", "psll", "paddw", "por", "pandn", "movdq", "movq",
        ],
    }
}

#[test]
fn sse41_kernel_is_the_machine_in_legacy_sse_encoding() {
    if !on_path(&["objdump"]) {
        return;
    }
    assert_eq!(
        functions_named(SSE41_SEARCH).len(),
        2,
        "a counting and an enumerating copy"
    );
    check(SSE41_SEARCH, &sse41()).unwrap();
}

#[test]
fn avx_kernel_is_the_machine_in_vex_encoding() {
    if !on_path(&["objdump"]) {
        return;
    }
    assert_eq!(
        functions_named(AVX_SEARCH).len(),
        2,
        "a counting and an enumerating copy"
    );
    check(AVX_SEARCH, &avx()).unwrap();
}

/// The join-avx2 kernel (its algorithm compiled into one
/// `#[target_feature(enable = "avx2")]` function): its matcher ORs 256-bit
/// slices and counts their bits in the vector unit (`vpshufb` on nibbles,
/// `vpsadbw` into 64-bit sums); its slicer transposes the bytes of 32
/// patterns (`vpshufb` and the shuffles LLVM chooses for the rest), moves
/// bit `t` of each byte to its top (`vpsllw`) and gathers 32 of them
/// (`vpmovmskb`). No legacy-SSE
/// vector instruction, which would cost a transition penalty beside VEX
/// code, and no 512-bit register.
#[test]
fn join_avx2_matches_and_slices_in_ymm_registers() {
    if !on_path(&["objdump"]) {
        return;
    }
    let kernel = Encoding {
        required: [
            "vpor",
            "vpshufb",
            "vpsadbw",
            "vpaddq",
            "vpsllw",
            "vpmovmskb",
        ]
        .map(String::from)
        .to_vec(),
        forbidden: &[
            "por", "pshufb", "psadbw", "movdq", "vpord", "vporq", "vpopcnt",
        ],
    };
    check("queens_simd::kernel::join::avx2::count_row_sets", &kernel).unwrap();
}

/// The join-avx512 kernel: its matcher ORs 512-bit slices (`vpord`/`vporq`)
/// and counts their bits with `vpopcntq`; its slicer transposes the bytes
/// of 64 patterns (`vpshufb`, then word shuffles LLVM chooses) and tests bit
/// `t` of each byte into a mask register, a whole word of a slice
/// (`vptestmb`); its join of quarter-boards
/// tests eight pairs at once (`vptestnmq`) and packs the kept ones with
/// `vpcompressq`; its sieve reads a half-board's class with BMI2's `pext`.
/// No legacy-SSE vector instruction.
#[test]
fn join_avx512_matches_slices_and_joins_in_zmm_registers() {
    if !on_path(&["objdump"]) {
        return;
    }
    let kernel = Encoding {
        required: [
            "vpord|vporq",
            "vpopcntq",
            "vpshufb",
            "vptestmb",
            "vptestnmq",
            "vpcompressq",
            "pext",
        ]
        .map(String::from)
        .to_vec(),
        forbidden: &["por", "pshufb", "psadbw", "movdq"],
    };
    check("queens_simd::kernel::join::avx512::count_row_sets", &kernel).unwrap();
    // The check can fail: the AVX2 kernel has none of these.
    assert!(check("queens_simd::kernel::join::avx2::count_row_sets", &kernel).is_err());
}

/// The join-avx512bw kernel, for AVX-512 CPUs without VPOPCNTDQ: its
/// matcher ORs 512-bit slices (`vpord`/`vporq`, EVEX forms that AVX2 has
/// not) and counts their bits with AVX-512 BW
/// (`vpshufb` on nibbles, `vpsadbw` into 64-bit sums), never `vpopcntq`;
/// its slicer, its join of quarter-boards and its classes are
/// join-avx512's (`vptestmb`, `vptestnmq`, `vpcompressq`, `pext`). No
/// legacy-SSE vector instruction.
#[test]
fn join_avx512bw_counts_bits_by_shuffles_in_zmm_registers() {
    if !on_path(&["objdump"]) {
        return;
    }
    let kernel = Encoding {
        required: [
            "vpord|vporq",
            "vpshufb",
            "vpsadbw",
            "vptestmb",
            "vptestnmq",
            "vpcompressq",
            "pext",
        ]
        .map(String::from)
        .to_vec(),
        forbidden: &["vpopcnt", "por", "pshufb", "psadbw", "movdq"],
    };
    check(
        "queens_simd::kernel::join::avx512bw::count_row_sets",
        &kernel,
    )
    .unwrap();
    // The check can fail: join-avx512 counts with `vpopcntq`, and join-avx2
    // ORs no zmm register.
    assert!(check("queens_simd::kernel::join::avx512::count_row_sets", &kernel).is_err());
    assert!(check("queens_simd::kernel::join::avx2::count_row_sets", &kernel).is_err());
}

/// The lanes-avx2 kernel: eight walkers in ymm lanes. A lane's stack
/// entries come and go by a 4x4 transpose in each 128-bit half
/// (`vpunpckldq`, `vpunpckhqdq`) with `vinserti128`/`vextracti128`; the
/// next row is chosen per lane by `vpblendvb`; the highest live square by a
/// float conversion (`vcvtdq2ps`) and a variable shift (`vpsrlvd`); the
/// forbidden rows by `vpsllvd`; the lanes that
/// finished by `vmovmskps`. No legacy-SSE vector instruction and no
/// 512-bit instruction.
#[test]
fn lanes_avx2_walks_eight_lanes_in_ymm_registers() {
    if !on_path(&["objdump"]) {
        return;
    }
    let kernel = Encoding {
        required: [
            "vpblendvb",
            "vpunpckldq",
            "vpunpckhqdq",
            "vinserti128",
            "vextracti128",
            "vcvtdq2ps",
            "vpsrlvd",
            "vpsllvd",
            "vmovmskps",
        ]
        .map(String::from)
        .to_vec(),
        forbidden: &["por", "pshufb", "movdq", "vpord", "vpblendmd", "vpopcnt"],
    };
    for function in ["count_board", "count_listed"] {
        check(
            &format!("queens_simd::kernel::lanes::avx2::LanesAvx2::{function}::compiled"),
            &kernel,
        )
        .unwrap();
    }
}

/// The lanes-avx512 kernel: sixteen walkers in zmm lanes, sets of lanes in
/// mask registers: compares into masks (`vpcmpeqd`, `vptestnmd`), choices
/// by `vpblendmd` or masked moves, the stack pointers moved by masked adds;
/// the solutions by `vpopcntd`; entries placed by `vinserti32x4` and stored
/// by `vextracti32x4`. No legacy-SSE vector instruction.
#[test]
fn lanes_avx512_walks_sixteen_lanes_with_mask_registers() {
    if !on_path(&["objdump"]) {
        return;
    }
    let kernel = Encoding {
        required: [
            "vpcmpeqd",
            "vptestnmd",
            "vpblendmd|vmovdqa32",
            "vpopcntd",
            "vinserti32x4",
            "vextracti32x4",
            "korw|kandw|kandnw|kmovw",
        ]
        .map(String::from)
        .to_vec(),
        forbidden: &["por", "pshufb", "movdq"],
    };
    for function in ["count_board", "count_listed"] {
        check(
            &format!("queens_simd::kernel::lanes::avx512::LanesAvx512::{function}::compiled"),
            &kernel,
        )
        .unwrap();
    }
    // The check can fail: the AVX2 kernel has none of these.
    assert!(
        check(
            "queens_simd::kernel::lanes::avx2::LanesAvx2::count_board::compiled",
            &kernel
        )
        .is_err()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn asm_kernel_is_the_machine_in_both_encodings() {
    if !on_path(&["objdump"]) {
        return;
    }
    assert_eq!(functions_named(ASM_SSE41).len(), 1);
    check(ASM_SSE41, &sse41()).unwrap();
    assert_eq!(functions_named(ASM_AVX).len(), 1);
    check(ASM_AVX, &avx()).unwrap();
}

/// The `.cfi_*` directives made it into the binary: each asm function has
/// an unwind entry (FDE) spanning exactly the function (its `.size`), which
/// records the one push (`rbx` saved at CFA-16) and its pop, so debuggers,
/// profilers and unwinders can walk through it.
#[cfg(target_os = "linux")]
#[test]
fn asm_functions_have_exact_unwind_info() {
    if !on_path(&["nm", "readelf"]) {
        return;
    }
    let binary = env!("CARGO_BIN_EXE_queens-simd");
    let run = |tool: &str, args: &[&str]| {
        let output = Command::new(tool)
            .args(args)
            .arg(binary)
            .output()
            .unwrap_or_else(|e| panic!("{tool} (GNU binutils) must be installed: {e}"));
        assert!(output.status.success(), "{tool} failed on {binary}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let symbols = run("nm", &["-S"]);
    let frames = run("readelf", &["--debug-dump=frames"]);
    for name in [ASM_SSE41, ASM_AVX] {
        // `nm -S`: `<address> <size> T <name>`.
        let fields: Vec<&str> = symbols
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|f| f.len() == 4 && f[3] == name)
            .unwrap_or_else(|| panic!("{name} is not in the symbol table"));
        let start = u64::from_str_radix(fields[0], 16).unwrap();
        let size = u64::from_str_radix(fields[1], 16).unwrap();
        assert!(size > 0, "{name} has no .size");
        let span = format!("pc={start:016x}..{:016x}", start + size);
        let fde: Vec<&str> = frames
            .split("\n\n")
            .find(|entry| entry.contains(&span))
            .unwrap_or_else(|| panic!("no unwind entry spans {name} ({span})"))
            .lines()
            .collect();
        for rule in [
            "DW_CFA_offset: r3 (rbx) at cfa-16",
            "DW_CFA_restore: r3 (rbx)",
        ] {
            assert!(fde.iter().any(|l| l.trim() == rule), "{name}: {fde:#?}");
        }
    }
}

/// The check itself can fail: each kernel fails the other's encoding, and
/// scalar code (the portable kernel's iterator) fails both.
#[test]
fn the_check_rejects_other_encodings_and_scalar_code() {
    if !on_path(&["objdump"]) {
        return;
    }
    assert!(check(SSE41_SEARCH, &avx()).is_err());
    assert!(check(AVX_SEARCH, &sse41()).is_err());
    if cfg!(target_os = "linux") {
        assert!(check(ASM_SSE41, &avx()).is_err());
        assert!(check(ASM_AVX, &sse41()).is_err());
    }
    let scalar = "<queens_simd::kernel::portable::Solutions as core::iter::traits::iterator::Iterator>::next";
    assert!(!functions_named(scalar).is_empty(), "{scalar} not found");
    assert!(check(scalar, &sse41()).is_err());
    assert!(check(scalar, &avx()).is_err());
}
