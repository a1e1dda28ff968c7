//! The two tables: `--kernels` and `--verify`, as text; the facts they
//! are made of, which `report_json` writes as JSON.

use std::io::Write;

use queens_simd::kernel::{Role, Task};
use queens_simd::verify::{self, Cell, Row};
use queens_simd::{Kernel, MAX_N};

use super::Failure;
use super::status::Status;

/// `--kernels`: every kernel, whether it runs here, its sizes, its role, and
/// which kernel `auto` picks for each N, counting and enumerating.
pub fn kernels(out: &mut impl Write) -> Result<(), Failure> {
    let name_width = Kernel::ALL
        .iter()
        .map(|k| k.name().len())
        .max()
        .unwrap_or(0);
    writeln!(
        out,
        "{:<name_width$} {:<9} {:<7} {:<10} description",
        "kernel", "available", "N", "role"
    )?;
    for &kernel in Kernel::ALL {
        let sizes = kernel.sizes();
        let role = match kernel.role() {
            Role::Fast => "fast".to_owned(),
            Role::Reference { seed } => format!("seed {seed:03}"),
            // (A role added to the library after this program.)
            _ => "other".to_owned(),
        };
        writeln!(
            out,
            "{:<name_width$} {:<9} {:<7} {:<10} {}",
            kernel.name(),
            if kernel.is_available() { "yes" } else { "no" },
            format!("{}-{}", sizes.start(), sizes.end()),
            role,
            kernel.description()
        )?;
    }
    for (label, task) in [
        ("auto picks", Task::Count),
        ("auto enumerates with", Task::Enumerate),
        ("auto finds fundamental solutions with", Task::Fundamental),
    ] {
        writeln!(out, "{label}: {}", auto_choices(task))?;
    }
    writeln!(
        out,
        "counts on threads, in shards and with checkpoints: {} (through their plans; N {}-{MAX_N} on {} by default, every N in shards)",
        splitting_kernels().join(", "),
        split_from(),
        super::memory::threads_text(default_threads())
    )?;
    writeln!(out, "auto shards with: {}", auto_plans())?;
    match Kernel::Asm.unavailable_because() {
        None => writeln!(
            out,
            "asm picks: {}",
            queens_simd::dispatch::resolve_for(Kernel::Asm, queens_simd::kernel::Task::Count, 0)
        )?,
        Some(why) => writeln!(out, "asm picks: none ({why})")?,
    }
    if let Some(forced) = queens_simd::dispatch::portable_forced() {
        writeln!(out, "{forced}")?;
    }
    Ok(())
}

/// The kernels that count on threads, in shards and with checkpoints
/// here: those that split and run.
pub(super) fn splitting_kernels() -> Vec<&'static str> {
    Kernel::ALL
        .iter()
        .filter(|k| k.splits() && k.is_available())
        .map(|k| k.name())
        .collect()
}

/// The first N that a count on threads splits into a plan, as the
/// library answers it for the symmetric kernel, which splits every N it
/// can (below, one thread counts the whole board).
pub(super) fn split_from() -> usize {
    (0..=MAX_N)
        .find(|&n| queens_simd::dispatch::counts_through_plan(Kernel::Symmetric, n))
        .unwrap_or(MAX_N + 1)
}

/// The threads a count through a plan takes by default: every core.
pub(super) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// What counts `auto`'s plan of some N: the kernel and the plan's method,
/// or why there is none.
pub(super) type PlanChoice = Result<(Kernel, queens_simd::kernel::Method), String>;

/// The kernel that counts `auto`'s plan of each N (in shards, with
/// checkpoints, on threads) and the plan's method, with the first and last
/// N each serves.
pub(super) fn plan_ranges() -> Vec<(PlanChoice, usize, usize)> {
    let mut choices = Vec::<(PlanChoice, usize, usize)>::new();
    for n in 0..=MAX_N {
        let choice = queens_simd::dispatch::plan_method(Kernel::Auto, n)
            .and_then(|method| {
                let kernel = queens_simd::dispatch::Options::new().counting_kernel(method)?;
                Ok((kernel, method))
            })
            .map_err(|e| super::status::message(&e));
        match choices.last_mut() {
            Some((c, _, last)) if *c == choice => *last = n,
            _ => choices.push((choice, n, n)),
        }
    }
    choices
}

/// [`plan_ranges`] in words: "symmetric-bmi for N 0-13 (symmetric plan),
/// join-avx512 for N 14-32 (join plan)".
fn auto_plans() -> String {
    plan_ranges()
        .iter()
        .map(|(choice, first, last)| {
            let (kernel, note) = match choice {
                Ok((kernel, method)) => (kernel.name(), format!("({method} plan)")),
                Err(e) => ("none", format!("({e})")),
            };
            format!("{kernel} for {} {note}", sizes(*first, *last))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kernel `auto` resolves to for `task`, with the first and last N
/// each serves.
pub(super) fn auto_ranges(task: Task) -> Vec<(Kernel, usize, usize)> {
    let mut choices = Vec::<(Kernel, usize, usize)>::new();
    for n in 0..=MAX_N {
        let kernel = queens_simd::dispatch::resolve_for(Kernel::Auto, task, n);
        match choices.last_mut() {
            Some((k, _, last)) if *k == kernel => *last = n,
            _ => choices.push((kernel, n, n)),
        }
    }
    choices
}

/// [`auto_ranges`] in words: "portable for N 0-9, symmetric-bmi for N
/// 10-32".
fn auto_choices(task: Task) -> String {
    auto_ranges(task)
        .iter()
        .map(|(k, first, last)| format!("{k} for {}", sizes(*first, *last)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The sizes from `first` to `last`: "N 0-9", or "N 9" for one.
fn sizes(first: usize, last: usize) -> String {
    if first == last {
        format!("N {first}")
    } else {
        format!("N {first}-{last}")
    }
}

/// `--verify`: one row per N, one column per subject, streamed as each row is
/// done. Exit status 3 on any disagreement ([`Status::Disagreement`]).
pub fn verify(out: &mut impl Write, max_n: usize) -> Result<Status, Failure> {
    check_verify_memory(max_n)?;
    let labels = subject_labels();
    let widths: Vec<usize> = labels.iter().map(|l| l.len().max(5)).collect();
    let mut header = format!("{:>3} {:>10} {:>8}", "N", "solutions", "classes");
    for (label, width) in labels.iter().zip(&widths) {
        header += &format!("  {label:<width$}");
    }
    writeln!(out, "{}", header.trim_end())?;
    out.flush()?;

    let mut io_result = Ok(());
    let verdict = run_checks(max_n, |row: &Row| {
        if io_result.is_ok() {
            io_result = write_row(out, row, &widths);
        }
    });
    io_result?;
    let verdict = verdict?;

    writeln!(
        out,
        "\nok = same solution set and count as the portable kernel; count = same count (the kernel only counts); - = N not supported; n/a = not available on this CPU"
    )?;
    if verdict.agree() {
        writeln!(out, "verify: all kernels agree for N = 0 to {max_n}")?;
        Ok(Status::Success)
    } else {
        for problem in &verdict.problems {
            writeln!(out, "MISMATCH {problem}")?;
        }
        if let Some(stopped) = &verdict.stopped {
            writeln!(out, "{stopped}")?;
        }
        writeln!(out, "verify: {} disagreement(s)", verdict.problems.len())?;
        Ok(Status::Disagreement)
    }
}

/// Before any output: a check that cannot fit is refused, not started.
pub(super) fn check_verify_memory(max_n: usize) -> Result<(), Failure> {
    let needed = |n| {
        let solutions = queens_simd::dispatch::count(queens_simd::Kernel::Auto, n).ok()?;
        Some(verify::memory_needed(n, solutions))
    };
    let limits = super::memory::Limits::without_max_memory();
    super::memory::check_verify(max_n, &needed, &limits).map_err(Failure::Refused)
}

/// The subjects' names, one per column (cell) of a row.
pub(super) fn subject_labels() -> Vec<String> {
    verify::subjects().iter().map(|s| s.label()).collect()
}

/// What `--verify` found, once every row is done.
pub(super) struct Verdict {
    /// Each disagreement: "N = 5, blocks: ...".
    pub problems: Vec<String>,
    /// Why the checks stopped before `--max-n` (memory ran out after a
    /// disagreement), if they did.
    pub stopped: Option<String>,
}

impl Verdict {
    /// Whether every check ran and agreed.
    pub fn agree(&self) -> bool {
        self.problems.is_empty() && self.stopped.is_none()
    }
}

/// Runs the checks of N = 0 to `max_n`, handing each row to `on_row` as
/// it is done. Memory that runs out before any disagreement is a failure
/// of its own (status 4), not a disagreement.
pub(super) fn run_checks(max_n: usize, mut on_row: impl FnMut(&Row)) -> Result<Verdict, Failure> {
    let labels = subject_labels();
    let mut problems = Vec::new();
    let mut checked = None;
    let run = verify::run(max_n, |row: &Row| {
        on_row(row);
        checked = Some(row.n);
        for (label, cell) in labels.iter().zip(&row.cells) {
            if let Cell::Disagree(why) = cell {
                problems.push(format!("N = {}, {label}: {why}", row.n));
            }
        }
    });
    let stopped = match run {
        // A check that could not allocate checked nothing: status 4, not
        // 3, unless an earlier N disagreed.
        Err(e @ queens_simd::Error::OutOfMemory { .. }) if problems.is_empty() => {
            let n = checked.map_or(0, |n| n + 1);
            let agreed = match checked {
                Some(last) => format!("every kernel agreed for N = 0 to {last}"),
                None => "nothing was checked".to_owned(),
            };
            return Err(Failure::OutOfMemory(format!(
                "--verify could not check N = {n}: {}; {agreed}; a smaller --max-n or more memory (ulimit -v) may fit",
                super::status::message(&e)
            )));
        }
        Err(e @ queens_simd::Error::OutOfMemory { .. }) => {
            let n = checked.map_or(0, |n| n + 1);
            Some(format!(
                "verify: stopped at N = {n}: {}",
                super::status::message(&e)
            ))
        }
        run => {
            run?;
            None
        }
    };
    Ok(Verdict { problems, stopped })
}

fn write_row(out: &mut impl Write, row: &Row, widths: &[usize]) -> Result<(), Failure> {
    let mut line = format!("{:>3} {:>10} {:>8}", row.n, row.solutions, row.classes);
    for (cell, width) in row.cells.iter().zip(widths) {
        let text = match cell {
            Cell::Agree => "ok",
            Cell::SameCount => "count",
            Cell::Disagree(_) => "MISMATCH",
            Cell::Unsupported => "-",
            Cell::Unavailable => "n/a",
        };
        line += &format!("  {text:<width$}");
    }
    writeln!(out, "{}", line.trim_end())?;
    out.flush()?;
    Ok(())
}

/// The kernels that count `method`'s plans, from the one that runs
/// everywhere up: `join, join-avx2, join-avx512bw or join-avx512`.
pub(super) fn kernel_names(method: queens_simd::kernel::Method) -> String {
    let kernels: Vec<&str> = method.kernels().rev().map(|k| k.name()).collect();
    match kernels.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
