//! The dispatcher on CPUs this machine is not: the `queens-simd` binary run
//! under `qemu-x86_64 -cpu <model>` (Debian's `qemu-user`), whose emulated
//! CPUID tells `is_x86_feature_detected!` what the model has, and whose
//! emulator refuses instructions the model lacks.
//!
//! | model | SSE4.1 | AVX | AVX2 | BMI1, BMI2, LZCNT, POPCNT |
//! |---|---|---|---|---|
//! | `core2duo` | no | no | no | none |
//! | `Nehalem` | yes | no | no | POPCNT only |
//! | `SandyBridge` | yes | yes | no | POPCNT only |
//! | `Haswell-noTSX` | yes | yes | yes | all four |
//!
//! None has AVX-512 (qemu-user emulates none), so `join-avx512`,
//! `join-avx512bw` and `lanes-avx512` are a clear error on every one: the
//! dispatcher's choice on a CPU without it. `lanes-avx2` runs on
//! `Haswell-noTSX` only.
//!
//! On the first three the asm kernel's `tzcnt` runs as the `bsf` it is
//! encoded over (`rep bsf`), as on real CPUs of those generations, and
//! `symmetric-bmi` is missing; on `Haswell-noTSX` it runs (qemu warns on
//! stderr about features of the model it does not emulate, none of which
//! the kernels use).
//!
//! On each: `--kernels` reports exactly the kernels the model runs, `auto`
//! resolves to an available kernel, a missing kernel is a clear error with
//! exit status 2, and every kernel that does run gives the right answers
//! (`--verify`). Without `qemu-x86_64` these tests are skipped, and reported
//! as skipped; with `QUEENS_SIMD_REQUIRE_ALL=1` (set in CI) a missing
//! `qemu-x86_64` fails them.
#![cfg(x86_kernels)]

use crate::common;

use std::process::{Command, Output};

use queens_simd::Kernel;

struct Model {
    name: &'static str,
    sse41: bool,
    avx: bool,
    avx2: bool,
    /// BMI1, BMI2, LZCNT and POPCNT, all four.
    bmi: bool,
}

impl Model {
    /// Each kernel of the table (`Kernel::ALL`, and the `asm` alias) that
    /// needs a CPU feature (the asm ones on Linux, where they are built),
    /// whether this model runs it, and the feature its error message must
    /// name when it does not. `asm` stands for its best encoding, so it
    /// needs SSE4.1.
    fn simd_kernels(&self) -> Vec<(&'static str, bool, &'static str)> {
        Kernel::ALL
            .iter()
            .chain([&Kernel::Asm])
            .filter(|kernel| cfg!(target_os = "linux") || !kernel.name().starts_with("asm"))
            .filter_map(|&kernel| {
                let (present, needs) = self.runs(kernel)?;
                Some((kernel.name(), present, needs))
            })
            .collect()
    }

    /// Whether this model runs `kernel` and the feature its refusal names;
    /// `None` for a kernel in plain Rust, which every model runs. Read from
    /// the kernel's CPU features in the kernel table (`asm` stands for its
    /// first encoding, the one it needs at least): a feature this model
    /// has no column for fails the tests until it is given one.
    fn runs(&self, kernel: Kernel) -> Option<(bool, &'static str)> {
        let needs = if kernel == Kernel::Asm {
            Kernel::ALL.iter().find(|k| k.name().starts_with("asm-"))?
        } else {
            &kernel
        };
        let bmi = "BMI1, BMI2, LZCNT and POPCNT";
        // Each feature: whether this model has it, and its name in messages.
        let has = |feature: &str| match feature {
            "sse4.1" => (self.sse41, "SSE4.1"),
            "avx" => (self.avx, "AVX"),
            "avx2" => (self.avx2, "AVX2"),
            "bmi1" | "bmi2" | "lzcnt" | "popcnt" => (self.bmi, bmi),
            // qemu-user emulates no AVX-512.
            avx512 if avx512.starts_with("avx512") => (false, "AVX-512"),
            other => panic!("cli/tests/program/cpu_models.rs: no column for the feature {other}"),
        };
        let mut features = needs.cpu_feature_names().map(has);
        // The refusal names the first feature of the row.
        let (first, named) = features.next()?;
        Some((features.fold(first, |all, (has, _)| all && has), named))
    }

    /// What `--kernels` says `asm` picks on this model.
    fn asm_picks(&self) -> &'static str {
        match (self.sse41, self.avx) {
            (_, true) => "asm-avx",
            (true, false) => "asm-sse41",
            (false, false) => "none (this CPU lacks SSE4.1)",
        }
    }
}

const MODELS: &[Model] = &[
    Model {
        name: "core2duo",
        sse41: false,
        avx: false,
        avx2: false,
        bmi: false,
    },
    Model {
        name: "Nehalem",
        sse41: true,
        avx: false,
        avx2: false,
        bmi: false,
    },
    Model {
        name: "SandyBridge",
        sse41: true,
        avx: true,
        avx2: false,
        bmi: false,
    },
    Model {
        name: "Haswell-noTSX",
        sse41: true,
        avx: true,
        avx2: true,
        bmi: true,
    },
];

/// Whether qemu-user can be run; panics instead when CI requires it.
fn qemu_present() -> bool {
    let present = Command::new("qemu-x86_64")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !present {
        assert!(
            !common::require_all(),
            "qemu-x86_64 is missing and QUEENS_SIMD_REQUIRE_ALL=1 (apt-get install qemu-user)"
        );
        eprintln!("SKIPPED: qemu-x86_64 not found (apt-get install qemu-user)");
    }
    present
}

/// Runs `queens-simd args…` on the emulated `model`.
fn run_on(model: &Model, args: &[&str]) -> Output {
    Command::new("qemu-x86_64")
        .args(["-cpu", model.name, env!("CARGO_BIN_EXE_queens-simd")])
        .args(args)
        .output()
        .expect("qemu-x86_64 runs")
}

fn stdout_on(model: &Model, args: &[&str]) -> String {
    let out = run_on(model, args);
    assert!(
        out.status.success(),
        "{}: queens-simd {args:?} failed: {}",
        model.name,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `available` column of `--kernels` for `kernel`.
fn listed_as_available(kernels: &str, kernel: &str) -> bool {
    let row = kernels
        .lines()
        .find(|line| line.split_whitespace().next() == Some(kernel))
        .unwrap_or_else(|| panic!("--kernels lists no {kernel}:\n{kernels}"));
    match row.split_whitespace().nth(1) {
        Some("yes") => true,
        Some("no") => false,
        other => panic!("bad availability {other:?} in: {row}"),
    }
}

#[test]
fn kernels_lists_what_each_model_runs() {
    if !qemu_present() {
        return;
    }
    for model in MODELS {
        let kernels = stdout_on(model, &["--kernels"]);
        if cfg!(target_os = "linux") {
            let asm_line = format!("asm picks: {}", model.asm_picks());
            assert!(
                kernels.lines().any(|l| l == asm_line),
                "{}: {kernels}",
                model.name
            );
        }
        for (kernel, present, _) in model.simd_kernels() {
            if kernel == "asm" {
                continue; // not a row: its line is checked above
            }
            assert_eq!(
                listed_as_available(&kernels, kernel),
                present,
                "{}: {kernel}",
                model.name
            );
        }
        assert!(listed_as_available(&kernels, "portable"), "{}", model.name);
        // Whatever auto picks, for every task, must be a kernel this model
        // runs.
        for label in [
            "auto picks: ",
            "auto enumerates with: ",
            "auto finds fundamental solutions with: ",
            "auto shards with: ",
        ] {
            let picks = kernels
                .lines()
                .find_map(|line| line.strip_prefix(label))
                .unwrap_or_else(|| panic!("a '{label}' line"));
            for pick in picks.split(", ") {
                let kernel = pick.split_whitespace().next().unwrap();
                assert!(
                    listed_as_available(&kernels, kernel),
                    "{}: {label}{kernel}, which this model lacks",
                    model.name
                );
            }
        }
    }
}

#[test]
fn a_missing_kernel_is_a_clear_error() {
    if !qemu_present() {
        return;
    }
    for model in MODELS {
        for (kernel, present, needs) in model.simd_kernels() {
            let out = run_on(model, &["8", "--count", "--kernel", kernel]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if present {
                assert!(out.status.success(), "{}: {kernel}: {stderr}", model.name);
                assert_eq!(String::from_utf8_lossy(&out.stdout), "92\n");
            } else {
                assert_eq!(
                    out.status.code(),
                    Some(2),
                    "{}: {kernel}: {stderr}",
                    model.name
                );
                assert!(out.stdout.is_empty());
                let expected = format!("queens-simd: error: kernel '{kernel}' is not available");
                assert!(
                    stderr.contains(&expected) && stderr.contains(needs),
                    "{}: {kernel}: {stderr}",
                    model.name
                );
            }
        }
    }
}

#[test]
fn every_kernel_a_model_runs_agrees() {
    if !qemu_present() {
        return;
    }
    for model in MODELS {
        let report = stdout_on(model, &["--verify", "--max-n", "10"]);
        assert!(
            report.contains("verify: all kernels agree for N = 0 to 10"),
            "{}:\n{report}",
            model.name
        );
        // The kernels the model lacks are shown as not run, not as agreeing.
        let header = report.lines().next().unwrap();
        let row8 = report
            .lines()
            .find(|line| line.split_whitespace().next() == Some("8"))
            .unwrap();
        for (kernel, present, _) in model.simd_kernels() {
            if kernel == "asm" {
                continue; // not a column: its encodings are
            }
            let column = header.split_whitespace().position(|h| h == kernel).unwrap();
            let cell = row8.split_whitespace().nth(column).unwrap();
            // A kernel that only counts agrees on the count.
            let agrees = match Kernel::from_name(kernel) {
                Some(k) if !k.enumerates() => "count",
                _ => "ok",
            };
            assert_eq!(
                cell,
                if present { agrees } else { "n/a" },
                "{}: {kernel}",
                model.name
            );
        }
        assert_eq!(
            stdout_on(model, &["12", "--count"]),
            "14200\n",
            "{}",
            model.name
        );
        if model.sse41 && cfg!(target_os = "linux") {
            // The resumable interface, end to end, on the model.
            let columns = stdout_on(model, &["9", "--kernel", "asm", "--format", "columns"]);
            assert_eq!(columns.lines().count(), 352, "{}", model.name);
        }
    }
}
