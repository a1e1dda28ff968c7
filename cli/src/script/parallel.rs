//! The GNU parallel script of a campaign: one job per shard (and per
//! second count), over ssh, each record written whole or not at all and
//! brought back; a joblog, so that running the script again reruns only
//! the jobs that failed or never ran.

use std::fmt::Write;

use super::{Campaign, Derived, quoted};
use crate::memory;
use crate::plural::counted;

/// The script, whole.
pub fn script(campaign: &Campaign, derived: &Derived) -> String {
    let n = campaign.n;
    let mut text = String::new();
    super::title(&mut text, "/bin/sh", "with GNU parallel", campaign, derived);
    let _ = writeln!(
        text,
        concat!(
            "# The {} plan of N = {n} ({:016x}): {} in {}, one job each,\n",
            "# on {} (the estimate: {}); every host runs queens-simd {}\n",
            "# (QUEENS_SIMD=/path/to/it if it is not on the PATH) and rsync: each\n",
            "# count refuses another plan than this one. Run it from the campaign's\n",
            "# folder: it refuses to run in any other."
        ),
        derived.method,
        derived.fingerprint,
        counted(derived.subproblems, "subproblem", "subproblems"),
        counted(campaign.shards, "shard", "shards"),
        memory::threads_text(derived.threads),
        memory::show(derived.estimate),
        env!("CARGO_PKG_VERSION"),
        n = n,
    );
    super::cross_check_note(&mut text, derived, "shard", "shards");
    super::cost_text(&mut text, campaign, derived, 1, "job");
    let _ = writeln!(
        text,
        "{}",
        super::sizing::stop_loss_text(derived.threads, super::longest_row_set(derived))
    );
    let _ = writeln!(
        text,
        concat!(
            "# A job's record comes back to records/ (--return) only once whole\n",
            "# (--output); parallel.joblog holds every job's exit status, and running\n",
            "# this script again runs only the jobs that failed or never ran\n",
            "# (--resume-failed). A job's checkpoint stays on its host: a job rerun on\n",
            "# the same host resumes from it, on another it starts again; one whose\n",
            "# checkpoint another run holds is skipped (exit 0, and no record)."
        )
    );
    let cross: Vec<String> = derived.cross.iter().map(usize::to_string).collect();
    let _ = write!(
        text,
        r#"set -eu
n={n} shards={shards} threads={threads}
plan={plan} kernel={kernel} cross_kernel={cross_kernel}
cross_shards={cross_shards}
hosts=${{HOSTS:-{hosts}}}
bin=${{QUEENS_SIMD:-queens-simd}}
say() {{ echo "queens-simd campaign: $*" >&2; }}
{folder_check}# $bin single-quoted for the shell that runs each job, here or over ssh:
# a path with a space or a quote in it stays one word.
quoted_bin="'$(printf '%s' "$bin" | sed "s/'/'\\\\''/g")'"
mkdir -p records
# One line per job: its shard, kernel and record's name.
jobs() {{
    seq 0 $((shards - 1)) | while read -r i; do echo "$i $kernel shard-$i"; done
    for i in $cross_shards; do echo "$i $cross_kernel shard-$i.check"; done
}}
jobs | parallel --colsep ' ' -S "$hosts" --joblog parallel.joblog --resume-failed \
    --return 'records/{{3}}.json' --cleanup \
    "mkdir -p records checkpoints && $quoted_bin $n --count --shard {{1}}/$shards --kernel {{2}} --threads $threads --checkpoint checkpoints/{{3}}.json --output records/{{3}}.json --quiet --expect-plan $plan --skip-if-locked"
"$bin" merge records/*.json
"#,
        shards = campaign.shards,
        threads = derived.threads,
        plan = format_args!("{:016x}", derived.fingerprint),
        folder_check = super::folder_check(derived),
        kernel = campaign.kernel,
        cross_kernel = derived.cross_kernel,
        cross_shards = quoted(&cross.join(" ")),
        hosts = campaign.hosts,
    );
    text
}
