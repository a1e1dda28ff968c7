//! The Slurm array script of a campaign: one or more shards per array
//! task, each resumed from its checkpoint; a warning signal before the
//! time limit, on which the task requeues itself (Slurm's `--requeue`
//! covers preemption and node failure, not a task that reaches its
//! limit: that one would end as TIMEOUT).

use std::fmt::Write;

use super::{Campaign, Derived, quoted};
use crate::cli::memory;
use crate::cli::plural::counted;

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
            "# derived from each other. Run it with sbatch from the campaign's directory,\n",
            "# on a file system every node shares (the records and checkpoints go there),\n",
            "# with queens-simd {} on every node's PATH (or QUEENS_SIMD=/path/to/it)."
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

/// The comment lines that say how the tasks run: how many, on what, and
/// what happens before their time limit.
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
    let _ = writeln!(
        text,
        concat!(
            "# {} s before its time limit Slurm sends USR1: the task stops its count,\n",
            "# whose checkpoint is at most half a second old, and requeues itself to\n",
            "# resume from it (--requeue alone covers preemption, not the time limit)."
        ),
        campaign.time.warning()
    );
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

/// The task: checks the binary, then counts its shards one by one.
fn body(text: &mut String, campaign: &Campaign, derived: &Derived, layout: &Layout) {
    let cross: Vec<String> = derived.cross.iter().map(usize::to_string).collect();
    let _ = write!(
        text,
        r#"set -u
n={n} shards={shards} per_task={per_task} threads={threads}
kernel={kernel} cross_kernel={cross_kernel}
cross_shards=({cross_shards})
bin=${{QUEENS_SIMD:-queens-simd}}
expected={expected}
task=${{SLURM_ARRAY_TASK_ID:?run this script with sbatch}}
say() {{ echo "queens-simd campaign, task $task on $(hostname): $*" >&2; }}

version=$("$bin" --version 2>/dev/null) || {{
    say "cannot run $bin: put queens-simd on every node's PATH, or set QUEENS_SIMD"
    exit 2
}}
if [ "$version" != "$expected" ]; then
    say "$bin is $version, but this campaign is $expected's plan: run that version on every node"
    exit 2
fi
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
# its record is renamed into records/NAME.json only once whole. (In the
# background, so that the trap runs at once; TERM stops it, since a
# script's background commands ignore INT.)
count() {{
    [ -e "records/$3.json" ] && return 0
    "$bin" "$n" --count --shard "$1/$shards" --kernel "$2" --threads "$threads" \
        --checkpoint "checkpoints/$3.json" --output "records/$3.json" --quiet &
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
        kernel = campaign.kernel,
        cross_kernel = derived.cross_kernel,
        cross_shards = cross.join(" "),
        expected = quoted(&format!(
            "{} {}",
            env!("CARGO_PKG_NAME"),
            env!("CARGO_PKG_VERSION")
        )),
    );
}
