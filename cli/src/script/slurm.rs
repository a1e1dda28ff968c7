//! The Slurm array script of a campaign: one or more shards per array
//! task, each resumed from its checkpoint; a warning signal before the
//! time limit, on which the task requeues itself (Slurm's `--requeue`
//! covers preemption and node failure, not a task that reaches its
//! limit: that one would end as TIMEOUT).

use std::fmt::Write;

use super::{Campaign, Derived, sizing};
use crate::memory;
use crate::plural::counted;

/// The script, whole.
pub fn script(campaign: &Campaign, derived: &Derived) -> String {
    let layout = Layout::of(campaign, derived);
    let mut text = String::new();
    header(&mut text, campaign, derived);
    how_tasks_run(&mut text, campaign, derived, &layout);
    directives(&mut text, campaign, derived, &layout);
    body(&mut text, campaign, derived, &layout);
    text
}

/// How the shards, and the second counts after them, are dealt to the
/// array's tasks.
struct Layout {
    /// Shards and second counts, in that order: task T counts
    /// `per_task` of them from `T × per_task`.
    jobs: usize,
    per_task: usize,
    tasks: usize,
}

impl Layout {
    fn of(campaign: &Campaign, derived: &Derived) -> Layout {
        let jobs = campaign.shards + derived.cross.len();
        let per_task = jobs.div_ceil(campaign.max_array_size);
        Layout {
            jobs,
            per_task,
            tasks: jobs.div_ceil(per_task),
        }
    }
}

/// The comment that says what the script is, and how it was derived.
fn header(text: &mut String, campaign: &Campaign, derived: &Derived) {
    let n = campaign.n;
    super::title(text, "/bin/bash", "as a Slurm array job", campaign, derived);
    let _ = writeln!(
        text,
        concat!(
            "# Write it again with that command rather than edit it: its numbers are\n",
            "# derived from each other. Submit it with sbatch from the campaign's folder\n",
            "# (it refuses to run in any other), on a file system every node shares (the\n",
            "# records and checkpoints go there), with queens-simd {} on every node's\n",
            "# PATH (or QUEENS_SIMD=/path/to/it): each count refuses another plan than\n",
            "# this one. The site's flags go on sbatch's command line, which overrides\n",
            "# the #SBATCH lines: sbatch -A ACCOUNT -p PARTITION --qos QOS script.sh."
        ),
        env!("CARGO_PKG_VERSION")
    );
    let _ = writeln!(
        text,
        "#\n# The {} plan of N = {n} ({:016x}): {} in {}.",
        derived.method,
        derived.fingerprint,
        counted(derived.subproblems, "subproblem", "subproblems"),
        counted(campaign.shards, "shard", "shards")
    );
    super::cross_check_note(text, derived, "of them", "of them");
}

/// The comment lines that say how the tasks run: how many, on what, at
/// what cost, and what happens before their time limit.
fn how_tasks_run(text: &mut String, campaign: &Campaign, derived: &Derived, layout: &Layout) {
    let per = if layout.per_task == 1 {
        "1 count per task".to_owned()
    } else {
        format!(
            "{} counts per task, so that the array\n# stays under MaxArraySize {}",
            layout.per_task, campaign.max_array_size
        )
    };
    let _ = writeln!(
        text,
        "# {} in {}, {per}.",
        counted(layout.jobs, "count", "counts"),
        counted(layout.tasks, "array task", "array tasks")
    );
    let _ = writeln!(
        text,
        "# Each task counts on {} (the estimate: {}), and asks for {}.",
        memory::threads_text(derived.threads),
        memory::show(derived.estimate),
        memory::show(derived.memory)
    );
    super::cost_text(text, campaign, derived, layout.per_task, "task");
    let time = campaign.time;
    let _ = writeln!(
        text,
        concat!(
            "# Slurm sends USR1 {} s before a task's time limit (or up to {} s earlier,\n",
            "# as man sbatch says): the task stops its count and requeues itself, to\n",
            "# resume from its checkpoint (--requeue alone covers preemption, not the\n",
            "# time limit). An attempt counts at least {} s before the warning{}."
        ),
        time.warning(),
        sizing::SIGNAL_EARLY_SECONDS,
        sizing::worst_attempt_seconds(time),
        attempts(campaign, derived, layout)
    );
    let _ = writeln!(
        text,
        "{}",
        sizing::stop_loss_text(derived.threads, super::longest_row_set(derived))
    );
    if sizing::short_time_warning(time).is_some() {
        let _ = writeln!(
            text,
            "# WARNING: --time {time} is too short for a task to make progress: give a\n# longer one (an attempt should count {} s or more).",
            sizing::LEAST_ATTEMPT_SECONDS
        );
    }
}

/// With a projection, how many attempts a task takes at worst: its hours
/// on its threads over an attempt's counting.
fn attempts(campaign: &Campaign, derived: &Derived, layout: &Layout) -> String {
    let worst = sizing::worst_attempt_seconds(campaign.time);
    match &derived.projection {
        Some(projection) if worst > 0 => {
            let wall = projection.core_seconds / campaign.shards as f64 * layout.per_task as f64
                / derived.threads as f64;
            match (wall / worst as f64).ceil() {
                a if a > 1.0 => {
                    format!(",\n# so a task takes about {a:.0} attempts, each queued again")
                }
                _ => ",\n# enough for a task in one attempt".to_owned(),
            }
        }
        _ => String::new(),
    }
}

/// The `#SBATCH` lines.
fn directives(text: &mut String, campaign: &Campaign, derived: &Derived, layout: &Layout) {
    let throttle = campaign
        .max_running
        .map(|k| format!("%{k}"))
        .unwrap_or_default();
    let _ = writeln!(text, "#SBATCH --job-name=queens-{}", campaign.n);
    let _ = writeln!(text, "#SBATCH --array=0-{}{throttle}", layout.tasks - 1);
    let _ = writeln!(text, "#SBATCH --cpus-per-task={}", derived.threads);
    let _ = writeln!(text, "#SBATCH --mem={}M", derived.memory >> 20);
    let _ = writeln!(text, "#SBATCH --time={}", campaign.time);
    let _ = writeln!(text, "#SBATCH --signal=B:USR1@{}", campaign.time.warning());
    let _ = writeln!(text, "#SBATCH --requeue");
    let _ = writeln!(text, "#SBATCH --open-mode=append");
    let _ = writeln!(text, "#SBATCH --output=slurm-%A_%a.out");
}

/// The task: checks its folder and the binary, then counts its shards one
/// by one.
fn body(text: &mut String, campaign: &Campaign, derived: &Derived, layout: &Layout) {
    let cross: Vec<String> = derived.cross.iter().map(usize::to_string).collect();
    let _ = write!(
        text,
        r#"set -u
n={n} shards={shards} per_task={per_task} threads={threads}
plan={plan} kernel={kernel} cross_kernel={cross_kernel}
cross_shards=({cross_shards})
bin=${{QUEENS_SIMD:-queens-simd}}
task=${{SLURM_ARRAY_TASK_ID:?run this script with sbatch}}
say() {{ echo "queens-simd campaign, task $task on $(hostname): $*" >&2; }}
{folder_check}
"$bin" --version >/dev/null 2>&1 || {{
    say "cannot run $bin: put queens-simd on every node's PATH, or set QUEENS_SIMD"
    exit 2
}}
mkdir -p records checkpoints

pid=""
requeue() {{
    say "near the time limit: the count stops and the task is requeued, to resume"
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null
        wait "$pid"
    fi
    if ! scontrol requeue "${{SLURM_ARRAY_JOB_ID}}_$task"; then
        say "scontrol requeue failed: submit this task again (sbatch --array=$task)"
        exit 1
    fi
    exit 0
}}
trap requeue USR1

# count SHARD KERNEL NAME: the shard's count, resumed from its checkpoint;
# its record is renamed into records/NAME.json only once whole; refused if
# this queens-simd's plan is another, skipped if another run holds the
# checkpoint. (In the background, so that the trap runs at once; TERM
# stops it, since a script's background commands ignore INT.)
count() {{
    [ -e "records/$3.json" ] && return 0
    "$bin" "$n" --count --shard "$1/$shards" --kernel "$2" --threads "$threads" \
        --checkpoint "checkpoints/$3.json" --output "records/$3.json" --quiet \
        --expect-plan "$plan" --skip-if-locked &
    pid=$!
    wait "$pid"
    local status=$?
    pid=""
    return "$status"
}}

# Task T counts jobs T * per_task on: the shards, then the second counts.
first=$((task * per_task))
for job in $(seq "$first" $((first + per_task - 1))); do
    if [ "$job" -lt "$shards" ]; then
        count "$job" "$kernel" "shard-$job" || exit
    else
        shard=${{cross_shards[job - shards]:-}}
        [ -n "$shard" ] || break
        count "$shard" "$cross_kernel" "shard-$shard.check" || exit
    fi
done
"#,
        n = campaign.n,
        shards = campaign.shards,
        per_task = layout.per_task,
        threads = derived.threads,
        plan = format_args!("{:016x}", derived.fingerprint),
        kernel = campaign.kernel,
        cross_kernel = derived.cross_kernel,
        cross_shards = cross.join(" "),
        folder_check = super::folder_check(derived),
    );
}
