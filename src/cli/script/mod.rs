//! `queens-simd script ENGINE N --shards M …`: writes the batch script of a
//! campaign, a count of N in M shards run as a Slurm array job
//! ([`slurm`]) or by GNU parallel ([`parallel`]). Everything the script
//! says is derived here from the same few numbers, so that nothing in it
//! is kept in step by hand: the array from the shard count under
//! MaxArraySize, the threads and memory from the count's estimate, the
//! warning signal from the time limit, the cross-checked shards from a
//! seed.
//!
//! The layout on the file system every node shares, in the directory the
//! script runs in: `records/shard-I.json` (a finished shard's record,
//! written whole or not at all by `--output`), `checkpoints/shard-I.json`
//! (its checkpoint, and the `.lock` beside it), and for a shard counted a
//! second time `records/shard-I.check.json` and
//! `checkpoints/shard-I.check.json`. `queens-simd status .` reads them,
//! `queens-simd merge records/*.json` adds them up.

mod parallel;
mod slurm;

use std::io::Write;

use crate::Kernel;
use crate::kernel::Method;
use crate::plan::{MemoryNeeds, Plan};

use super::Failure;
use super::args::{Campaign, DEFAULT_MAX_ARRAY_SIZE, Engine};
use super::memory;
use super::plural::counted;

/// Memory asked beyond the estimate when `--memory` is not given: a
/// quarter more, and this much for the process itself.
const MEMORY_MARGIN: u64 = 256 << 20;

/// What a script says, derived from a [`Campaign`].
#[derive(Debug)]
struct Derived {
    method: Method,
    subproblems: usize,
    fingerprint: u64,
    /// Threads each task counts on.
    threads: usize,
    /// The estimate of a task's memory on those threads.
    estimate: u64,
    /// The memory a task asks for.
    memory: u64,
    /// The shards counted twice, in order, and by what.
    cross: Vec<usize>,
    cross_kernel: Kernel,
    seed: u64,
}

/// Writes the script `campaign` asks for.
pub(super) fn write(campaign: &Campaign, out: &mut impl Write) -> Result<(), Failure> {
    let derived = derive(campaign).map_err(Failure::Refused)?;
    let text = match campaign.engine {
        Engine::Slurm => slurm::script(campaign, &derived),
        Engine::Parallel => parallel::script(campaign, &derived),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn derive(campaign: &Campaign) -> Result<Derived, String> {
    let (n, kernel) = (campaign.n, campaign.kernel);
    let method =
        crate::dispatch::plan_method(kernel, n).map_err(|e| crate::cli::status::message(&e))?;
    let plan = Plan::with_method(method, n).map_err(|e| crate::cli::status::message(&e))?;
    let asked = format!("--shards {}", campaign.shards);
    super::split::check_no_empty_shards(&asked, campaign.shards, &plan)?;
    let needs = MemoryNeeds::new(method, n).map_err(|e| crate::cli::status::message(&e))?;
    let estimate = |threads| memory::needed(&needs, threads, None);
    let (threads, memory) = threads_and_memory(campaign, &estimate)?;
    let cross_kernel = cross_kernel(campaign, method)?;
    let seed = campaign
        .seed
        .unwrap_or_else(crate::support::random::fresh_seed);
    let mut cross =
        crate::support::random::choose_indices(campaign.shards, campaign.cross_check, seed);
    cross.sort_unstable();
    Ok(Derived {
        method,
        subproblems: plan.len(),
        fingerprint: plan.fingerprint(),
        threads,
        estimate: estimate(threads),
        memory,
        cross,
        cross_kernel,
        seed,
    })
}

/// The threads of a task and the memory it asks for: with `--memory`,
/// the most threads up to `--cores` whose estimate fits it, and all of
/// it; else every core, and the estimate with a margin.
fn threads_and_memory(
    campaign: &Campaign,
    estimate: &dyn Fn(usize) -> u64,
) -> Result<(usize, u64), String> {
    let Some(limit) = campaign.memory else {
        let needed = estimate(campaign.cores);
        let asked = needed
            .saturating_add(needed / 4)
            .saturating_add(MEMORY_MARGIN);
        // Whole mebibytes, as sbatch's --mem takes them.
        return Ok((campaign.cores, asked.div_ceil(1 << 20) << 20));
    };
    match (1..=campaign.cores).rev().find(|&t| estimate(t) <= limit) {
        Some(threads) => Ok((threads, limit)),
        None => Err(format!(
            "a task of N = {} on 1 thread needs about {}, more than --memory {}; a shard needs as much as the whole count on as many threads, so no shard count fits either",
            campaign.n,
            memory::show(estimate(1)),
            memory::show(limit)
        )),
    }
}

/// `--cross-kernel`, checked to count the plan's method, or another
/// kernel than the campaign's that does.
fn cross_kernel(campaign: &Campaign, method: Method) -> Result<Kernel, String> {
    if campaign.cross_kernel == Some(Kernel::Auto) {
        return Err(auto_cross_kernel(campaign.n, method));
    }
    if let Some(kernel) = campaign.cross_kernel {
        return match kernel.method() {
            Some(m) if m == method => Ok(kernel),
            _ => Err(format!(
                "--cross-kernel {kernel} does not count {method} plans, which this campaign's records are"
            )),
        };
    }
    let (usual, instead) = match method {
        Method::Join => (Kernel::JoinAvx2, Kernel::Join),
        Method::Symmetric => (Kernel::Symmetric, Kernel::SymmetricBmi),
    };
    Ok(if campaign.kernel == usual {
        instead
    } else {
        usual
    })
}

/// Why `--cross-kernel auto` is refused: each node would pick its
/// kernel when the count runs, perhaps the shards' own (a second count
/// alike), or one of another plan than the records'.
fn auto_cross_kernel(n: usize, method: Method) -> String {
    let kernels = super::report::kernel_names(method);
    match crate::dispatch::plan_method(Kernel::Auto, n) {
        Ok(picked) if picked != method => format!(
            "--cross-kernel auto would count N = {n} through the {picked} plan, but this campaign's records are of the {method} plan; name one of its kernels: {kernels}"
        ),
        _ => format!(
            "--cross-kernel auto leaves the kernel to each node, which may pick the shards' own and count them twice alike; name one of the {method} plan's kernels: {kernels}"
        ),
    }
}

/// The command line that writes the script again: every flag that
/// changes it, the seed of the cross-checks included.
fn command_line(campaign: &Campaign, derived: &Derived) -> String {
    use std::fmt::Write as _;
    let engine = match campaign.engine {
        Engine::Slurm => "slurm",
        Engine::Parallel => "parallel",
    };
    let mut words = format!(
        "queens-simd script {engine} {} --shards {} --cores {}",
        campaign.n, campaign.shards, campaign.cores
    );
    if let Some(memory) = campaign.memory {
        let _ = write!(words, " --memory {}", size_text(memory));
    }
    match campaign.engine {
        Engine::Slurm => {
            let _ = write!(words, " --time {}", campaign.time);
            if campaign.max_array_size != DEFAULT_MAX_ARRAY_SIZE {
                let _ = write!(words, " --max-array-size {}", campaign.max_array_size);
            }
            if let Some(k) = campaign.max_running {
                let _ = write!(words, " --max-running {k}");
            }
        }
        Engine::Parallel => {
            let _ = write!(words, " --hosts {}", quoted(&campaign.hosts));
        }
    }
    if campaign.kernel != Kernel::Auto {
        let _ = write!(words, " --kernel {}", campaign.kernel);
    }
    if !derived.cross.is_empty() {
        let _ = write!(
            words,
            " --cross-check {} --cross-kernel {} --seed {}",
            derived.cross.len(),
            derived.cross_kernel,
            derived.seed
        );
    }
    words
}

/// The first lines of a script: its shell, what it counts and with what
/// (`as` names the engine), and the command line that writes it again.
fn title(text: &mut String, shell: &str, as_what: &str, campaign: &Campaign, derived: &Derived) {
    use std::fmt::Write as _;
    let _ = writeln!(text, "#!{shell}");
    let _ = writeln!(
        text,
        "# Q({}) in {} {as_what}, written by {} {}:",
        campaign.n,
        counted(campaign.shards, "shard", "shards"),
        env!("CARGO_PKG_NAME"),
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(text, "#   {}", command_line(campaign, derived));
}

/// The comment on the second counts, if any: how many (`one` or `many`
/// names them after their number: "1 shard", "3 of them"), chosen how,
/// and by which kernel.
fn cross_check_note(text: &mut String, derived: &Derived, one: &str, many: &str) {
    use std::fmt::Write as _;
    let chosen = derived.cross.len();
    if chosen == 0 {
        return;
    }
    let _ = writeln!(
        text,
        concat!(
            "# {}, chosen with --seed {}, {} counted a second time by {}\n",
            "# (records/shard-I.check.json), for merge to compare."
        ),
        counted(chosen, one, many),
        derived.seed,
        if chosen == 1 { "is" } else { "are" },
        derived.cross_kernel
    );
}

/// `bytes` as `--memory` reads it: in G or M where whole, else bytes.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b % (1 << 30) == 0 => format!("{}G", b >> 30),
        b if b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b => b.to_string(),
    }
}

/// The shell's single-quoted form of `text`.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
