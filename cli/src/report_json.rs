//! The two tables as JSON: `--kernels --format json` and `--verify
//! --format json`, each one object on one line, with the facts of the
//! text (`report`) in fields a script reads.
//!
//! The objects are structs, not `json!` maps, so that their fields keep
//! the order written here whatever features serde_json is built with.

use std::io::Write;

use serde::Serialize;

use queens_simd::kernel::{Role, Task};
use queens_simd::verify::{Cell, Row};
use queens_simd::{Count, Kernel};

use super::Failure;
use super::report::{self, Verdict};
use super::status::Status;

/// `--kernels --format json`.
#[derive(Serialize)]
struct Kernels {
    kernels: Vec<KernelFacts>,
    auto: Auto,
    /// The kernels that count on threads, in shards and with checkpoints
    /// here (through their plans).
    splitting: Vec<&'static str>,
    /// The first N a plain count splits on threads.
    split_from: usize,
    /// Threads a count through a plan takes by default.
    threads: usize,
    /// What `asm` stands for here, or `null`.
    asm: Option<&'static str>,
    /// Why `asm` runs nothing here, or `null`.
    asm_unavailable_because: Option<&'static str>,
    /// Why this build runs only the plain-Rust kernels, or `null`.
    portable_forced_because: Option<&'static str>,
}

/// One row of the kernel table.
#[derive(Serialize)]
struct KernelFacts {
    name: &'static str,
    /// Whether this build carries it and this CPU runs it.
    available: bool,
    unavailable_because: Option<&'static str>,
    min_n: usize,
    max_n: usize,
    /// `fast` or `reference`.
    role: &'static str,
    /// The seed article's number of a reference kernel, or `null`.
    seed: Option<u8>,
    /// The plan it counts (`symmetric`, `join`), or `null` for none.
    method: Option<&'static str>,
    /// Whether it counts without visiting solutions.
    counts_only: bool,
    /// The CPU features it needs, as `target_feature` names them.
    cpu_features: Vec<&'static str>,
    description: &'static str,
}

/// What `auto` picks, by ranges of N.
#[derive(Serialize)]
struct Auto {
    count: Vec<Choice>,
    enumerate: Vec<Choice>,
    fundamental: Vec<Choice>,
    /// The kernels that count `auto`'s plans (shards, checkpoints,
    /// threads).
    plan: Vec<PlanChoiceJson>,
}

/// The kernel `auto` picks for N = `first_n` to `last_n`.
#[derive(Serialize)]
struct Choice {
    kernel: &'static str,
    first_n: usize,
    last_n: usize,
}

/// The kernel and plan `auto` shards N = `first_n` to `last_n` with, or
/// `null`s and why not.
#[derive(Serialize)]
struct PlanChoiceJson {
    kernel: Option<&'static str>,
    method: Option<&'static str>,
    first_n: usize,
    last_n: usize,
    none_because: Option<String>,
}

/// `--kernels --format json`: the table of `--kernels` as one object.
pub fn kernels(out: &mut impl Write) -> Result<(), Failure> {
    let choices = |task| {
        report::auto_ranges(task)
            .into_iter()
            .map(|(kernel, first_n, last_n)| Choice {
                kernel: kernel.name(),
                first_n,
                last_n,
            })
            .collect()
    };
    let plan = report::plan_ranges()
        .into_iter()
        .map(|(choice, first_n, last_n)| PlanChoiceJson {
            kernel: choice.as_ref().ok().map(|(kernel, _)| kernel.name()),
            method: choice.as_ref().ok().map(|(_, method)| method.name()),
            first_n,
            last_n,
            none_because: choice.err(),
        })
        .collect();
    let asm_unavailable_because = Kernel::Asm.unavailable_because();
    let table = Kernels {
        kernels: Kernel::ALL.iter().map(|&k| facts(k)).collect(),
        auto: Auto {
            count: choices(Task::Count),
            enumerate: choices(Task::Enumerate),
            fundamental: choices(Task::Fundamental),
            plan,
        },
        splitting: report::splitting_kernels(),
        split_from: report::split_from(),
        threads: report::default_threads(),
        asm: asm_unavailable_because.is_none().then(|| {
            queens_simd::dispatch::resolve_for(Kernel::Asm, queens_simd::kernel::Task::Count, 0)
                .name()
        }),
        asm_unavailable_because,
        portable_forced_because: queens_simd::dispatch::portable_forced(),
    };
    write_line(out, &table)
}

fn facts(kernel: Kernel) -> KernelFacts {
    let (role, seed) = match kernel.role() {
        Role::Fast => ("fast", None),
        Role::Reference { seed } => ("reference", Some(seed)),
        // (A role added to the library after this program.)
        _ => ("other", None),
    };
    let sizes = kernel.sizes();
    KernelFacts {
        name: kernel.name(),
        available: kernel.is_available(),
        unavailable_because: kernel.unavailable_because(),
        min_n: *sizes.start(),
        max_n: *sizes.end(),
        role,
        seed,
        method: kernel.method().map(|m| m.name()),
        counts_only: !kernel.enumerates(),
        cpu_features: kernel.cpu_feature_names().collect(),
        description: kernel.description(),
    }
}

/// `--verify --format json`.
#[derive(Serialize)]
struct Verify {
    max_n: usize,
    /// One per N checked.
    rows: Vec<VerifyRow>,
    /// Every check that disagreed: "N = 5, blocks: ...".
    mismatches: Vec<String>,
    /// Why the checks stopped before `max_n`, or `null`.
    stopped: Option<String>,
    /// Whether every check ran and agreed (else the exit status is 3).
    agree: bool,
}

/// The checks of one N. (Counts stay far below 2^53 up to N = 15, the
/// most `--verify` takes: plain numbers.)
#[derive(Serialize)]
struct VerifyRow {
    n: usize,
    /// The portable kernel's count: the oracle.
    solutions: Count,
    /// Its classes under the symmetries of the square.
    classes: Count,
    checks: Vec<Check>,
    /// Whether no check of this N disagreed.
    agree: bool,
}

/// One subject's check: `ok` (same solutions), `count` (same count, from
/// a kernel that only counts), `mismatch` (with why), `unsupported` (N out
/// of its range) or `unavailable` (not on this CPU or build).
#[derive(Serialize)]
struct Check {
    subject: String,
    result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

/// `--verify --format json`: every row, then the verdict, as one object
/// written when the checks are done. Exit status 3 on any disagreement.
pub fn verify(out: &mut impl Write, max_n: usize) -> Result<Status, Failure> {
    report::check_verify_memory(max_n)?;
    let labels = report::subject_labels();
    let mut rows = Vec::new();
    let verdict: Verdict = report::run_checks(max_n, |row: &Row| {
        rows.push(json_row(row, &labels));
    })?;
    let agree = verdict.agree();
    let object = Verify {
        max_n,
        rows,
        mismatches: verdict.problems,
        stopped: verdict.stopped,
        agree,
    };
    write_line(out, &object)?;
    Ok(if agree {
        Status::Success
    } else {
        Status::Disagreement
    })
}

fn json_row(row: &Row, labels: &[String]) -> VerifyRow {
    let checks = labels
        .iter()
        .zip(&row.cells)
        .map(|(label, cell)| {
            let (result, why) = match cell {
                Cell::Agree => ("ok", None),
                Cell::SameCount => ("count", None),
                Cell::Disagree(why) => ("mismatch", Some(why.clone())),
                Cell::Unsupported => ("unsupported", None),
                Cell::Unavailable => ("unavailable", None),
            };
            Check {
                subject: label.clone(),
                result,
                why,
            }
        })
        .collect();
    VerifyRow {
        n: row.n,
        solutions: row.solutions,
        classes: row.classes,
        checks,
        agree: row.agrees(),
    }
}

/// `value` as one line of JSON. (serde_json fails only as the writer
/// does: these structs always serialize.)
fn write_line(out: &mut impl Write, value: &impl Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disagreement, which no kernel shows on its own: each cell's word,
    /// the mismatch's reason, and the row's verdict.
    #[test]
    fn a_mismatch_says_why_and_fails_its_row() {
        let labels = ["a", "b", "c", "d", "e"].map(String::from);
        let row = Row {
            n: 5,
            solutions: 10,
            classes: 2,
            cells: vec![
                Cell::Agree,
                Cell::SameCount,
                Cell::Disagree("9 solutions, not 10".into()),
                Cell::Unsupported,
                Cell::Unavailable,
            ],
        };
        let json = serde_json::to_value(json_row(&row, &labels)).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "n": 5, "solutions": 10, "classes": 2,
                "checks": [
                    {"subject": "a", "result": "ok"},
                    {"subject": "b", "result": "count"},
                    {"subject": "c", "result": "mismatch", "why": "9 solutions, not 10"},
                    {"subject": "d", "result": "unsupported"},
                    {"subject": "e", "result": "unavailable"},
                ],
                "agree": false,
            })
        );
    }
}
