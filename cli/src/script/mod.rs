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
//!
//! A script is bound to its campaign: the folder is written into it and
//! each count is given the plan's fingerprint (`--expect-plan`), so that a
//! script run from another folder, or a node with another version's plan,
//! counts nothing; a shard whose checkpoint another run holds is skipped
//! (`--skip-if-locked`), not failed.

mod parallel;
mod sizing;
mod slurm;

use std::io::Write;
use std::path::Path;

use queens_simd::Kernel;
use queens_simd::kernel::Method;
use queens_simd::plan::{MemoryNeeds, Plan};

use super::Failure;
use super::args::{Campaign, DEFAULT_MAX_ARRAY_SIZE, Engine};
use super::files::path_text;
use super::memory;
use super::plural::counted;
use super::status::Messages;
use sizing::CostProjection;

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
    /// The campaign's folder, absolute: the script runs only there.
    folder: String,
    /// The `--sample` projection of the count, if given.
    projection: Option<CostProjection>,
}

/// Writes the script `campaign` asks for; a time limit too short for a
/// task to make progress is warned of on stderr (and in the script).
pub(super) fn write(
    campaign: &Campaign,
    out: &mut impl Write,
    messages: &Messages,
) -> Result<(), Failure> {
    let derived = derive(campaign).map_err(Failure::Refused)?;
    if campaign.engine == Engine::Slurm
        && let Some(warning) = sizing::short_time_warning(campaign.time)
    {
        messages.say(format_args!("warning: {warning}"));
    }
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
        queens_simd::dispatch::plan_method(kernel, n).map_err(|e| crate::status::message(&e))?;
    let plan = Plan::with_method(method, n).map_err(|e| crate::status::message(&e))?;
    let asked = format!("--shards {}", campaign.shards);
    super::split::check_no_empty_shards(&asked, campaign.shards, &plan)?;
    let needs = MemoryNeeds::new(method, n).map_err(|e| crate::status::message(&e))?;
    let estimate = |threads| memory::needed(&needs, threads, None);
    let (threads, memory) = threads_and_memory(campaign, &estimate)?;
    let cross_kernel = cross_kernel(campaign, method)?;
    let seed = campaign.seed.unwrap_or_else(crate::seed::fresh);
    let mut cross = queens_simd::plan::choose_indices(campaign.shards, campaign.cross_check, seed);
    cross.sort_unstable();
    let folder = campaign_folder(campaign.folder.as_deref())?;
    let projection = match &campaign.projection {
        Some(path) => Some(CostProjection::read(path, n, plan.fingerprint())?),
        None => None,
    };
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
        folder,
        projection,
    })
}

/// The campaign's folder as the script holds it: `--folder`, made absolute
/// from the folder `script` runs in, or that folder itself (the kernel's
/// physical path: no link in it). Refused where a comment line could not
/// hold it as it is (a newline in it, bytes not UTF-8).
fn campaign_folder(given: Option<&Path>) -> Result<String, String> {
    let here = std::env::current_dir()
        .map_err(|e| format!("cannot tell the folder script runs in: {e}; give --folder DIR"))?;
    let folder = match given {
        Some(dir) => here.join(dir),
        None => here,
    };
    match folder.to_str() {
        Some(text) if path_text(&folder) == text => Ok(text.to_owned()),
        _ => Err(format!(
            "the campaign's folder {} has characters that a script's comment line cannot hold; give --folder a plain path (a link to it)",
            path_text(&folder)
        )),
    }
}

/// The script's first check, for bash and sh alike (`say` prints a line on
/// stderr): it runs only in the campaign's folder, compared as physical
/// paths (`pwd -P`), and refuses elsewhere before it creates anything.
fn folder_check(derived: &Derived) -> String {
    format!(
        r#"folder={folder}
here=$(pwd -P)
if [ "$(cd -P -- "$folder" 2>/dev/null && pwd -P)" != "$here" ]; then
    say "this script counts the campaign in $folder, but runs in $here: run it from $folder (or write this folder's own with queens-simd script)"
    exit 2
fi
"#,
        folder = quoted(&derived.folder)
    )
}

/// The longest row set the projection drew, in core-seconds, if it says.
fn longest_row_set(derived: &Derived) -> Option<f64> {
    derived.projection.as_ref()?.longest_row_set
}

/// The comment lines on what a task (or job: `what`) of `per` counts
/// costs: from the projection, its core-hours and its hours on its
/// threads; without one, how to get one.
fn cost_text(text: &mut String, campaign: &Campaign, derived: &Derived, per: usize, what: &str) {
    use std::fmt::Write as _;
    let n = campaign.n;
    let Some(projection) = &derived.projection else {
        let _ = writeln!(
            text,
            concat!(
                "# Core-hours per {what}: not known here. Write the script again with
",
                "# --projection FILE, FILE what `queens-simd {n} --count --sample 100
",
                "# --format json` prints (docs/plan.md, Projecting a count from a sample)."
            ),
            what = what,
            n = n
        );
        return;
    };
    let core_seconds = projection.core_seconds / campaign.shards as f64 * per as f64;
    let share = if projection.core_seconds > 0.0 {
        format!(
            "{:.0}%",
            100.0 * projection.standard_error / projection.core_seconds
        )
    } else {
        "?".to_owned()
    };
    let _ = writeln!(
        text,
        concat!(
            "# Each {what} of {counts}: about {core} core-hours, {wall} on its {threads}
",
            "# (the whole count: {total} core-hours ± {share} on one core of the machine
",
            "# that sampled it, --sample {draws} --seed {seed} by {kernel}; shards vary
",
            "# around their mean, as the plan's estimates that deal them are rough)."
        ),
        what = what,
        share = share,
        counts = counted(per, "count", "counts"),
        core = sizing::hours_text(core_seconds),
        wall = sizing::duration_text(core_seconds / derived.threads as f64),
        threads = memory::threads_text(derived.threads),
        total = sizing::hours_text(projection.core_seconds),
        draws = projection.draws,
        seed = projection.seed,
        kernel = projection.kernel,
    );
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
        _ => {
            return Err(format!(
                "name a second kernel of {method} plans with --cross-kernel"
            ));
        }
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
    match queens_simd::dispatch::plan_method(Kernel::Auto, n) {
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
    let _ = write!(words, " --folder {}", quoted(&derived.folder));
    if let Some(path) = &campaign.projection {
        // path_text writes an unprintable path as $'…', quoted already.
        let shown = path_text(path);
        let shown = if path.to_str() == Some(shown.as_str()) {
            quoted(&shown)
        } else {
            shown
        };
        let _ = write!(words, " --projection {shown}");
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
        // The program's name, not its package's (queens-simd-cli).
        "# Q({}) in {} {as_what}, written by queens-simd {}:",
        campaign.n,
        counted(campaign.shards, "shard", "shards"),
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
