#!/bin/bash
# Q(24) in 1024 shards as a Slurm array job, written by queens-simd 0.1.0:
#   queens-simd script slurm 24 --shards 1024 --cores 16 --memory 15G --time 01:00:00 --cross-check 16 --cross-kernel join-avx2 --seed 1 --folder '/scratch/you/q24' --projection 'examples/batch/q24-projection.json'
# Write it again with that command rather than edit it: its numbers are
# derived from each other. Submit it with sbatch from the campaign's folder
# (it refuses to run in any other), on a file system every node shares (the
# records and checkpoints go there), with queens-simd 0.1.0 on every node's
# PATH (or QUEENS_SIMD=/path/to/it): each count refuses another plan than
# this one. The site's flags go on sbatch's command line, which overrides
# the #SBATCH lines: sbatch -A ACCOUNT -p PARTITION --qos QOS script.sh.
#
# The join plan of N = 24 (a5016045b463a66d): 32472 subproblems in 1024 shards.
# 16 of them, chosen with --seed 1, are counted a second time by join-avx2
# (records/shard-I.check.json), for merge to compare.
# 1040 counts in 520 array tasks, 2 counts per task, so that the array
# stays under MaxArraySize 1001.
# Each task counts on 16 threads (the estimate: 6.2 GiB), and asks for 15.0 GiB.
# Each task of 2 counts: about 0.104 core-hours, 23 s on its 16 threads
# (the whole count: 53.4 core-hours ± 10% on one core of the machine
# that sampled it, --sample 200 --seed 1 by join-avx512; shards vary
# around their mean, as the plan's estimates that deal them are rough).
# Slurm sends USR1 360 s before a task's time limit (or up to 60 s earlier,
# as man sbatch says): the task stops its count and requeues itself, to
# resume from its checkpoint (--requeue alone covers preemption, not the
# time limit). An attempt counts at least 3180 s before the warning,
# enough for a task in one attempt.
# A stop (a signal, a lost node) loses at most one block of row sets per
# thread, each about 2 s of one core, and the 0.5 s since the last
# checkpoint: 40 core-seconds on 16 threads.
#SBATCH --job-name=queens-24
#SBATCH --array=0-519
#SBATCH --cpus-per-task=16
#SBATCH --mem=15360M
#SBATCH --time=01:00:00
#SBATCH --signal=B:USR1@360
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=slurm-%A_%a.out
set -u
n=24 shards=1024 per_task=2 threads=16
plan=a5016045b463a66d kernel=auto cross_kernel=join-avx2
cross_shards=(86 193 197 199 221 307 349 360 410 486 556 684 738 794 880 925)
bin=${QUEENS_SIMD:-queens-simd}
task=${SLURM_ARRAY_TASK_ID:?run this script with sbatch}
say() { echo "queens-simd campaign, task $task on $(hostname): $*" >&2; }
folder='/scratch/you/q24'
here=$(pwd -P)
if [ "$(cd -P -- "$folder" 2>/dev/null && pwd -P)" != "$here" ]; then
    say "this script counts the campaign in $folder, but runs in $here: run it from $folder (or write this folder's own with queens-simd script)"
    exit 2
fi

"$bin" --version >/dev/null 2>&1 || {
    say "cannot run $bin: put queens-simd on every node's PATH, or set QUEENS_SIMD"
    exit 2
}
mkdir -p records checkpoints

pid=""
requeue() {
    say "near the time limit: the count stops and the task is requeued, to resume"
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null
        wait "$pid"
    fi
    if ! scontrol requeue "${SLURM_ARRAY_JOB_ID}_$task"; then
        say "scontrol requeue failed: submit this task again (sbatch --array=$task)"
        exit 1
    fi
    exit 0
}
trap requeue USR1

# count SHARD KERNEL NAME: the shard's count, resumed from its checkpoint;
# its record is renamed into records/NAME.json only once whole; refused if
# this queens-simd's plan is another, skipped if another run holds the
# checkpoint. (In the background, so that the trap runs at once; TERM
# stops it, since a script's background commands ignore INT.)
count() {
    [ -e "records/$3.json" ] && return 0
    "$bin" "$n" --count --shard "$1/$shards" --kernel "$2" --threads "$threads" \
        --checkpoint "checkpoints/$3.json" --output "records/$3.json" --quiet \
        --expect-plan "$plan" --skip-if-locked &
    pid=$!
    wait "$pid"
    local status=$?
    pid=""
    return "$status"
}

# Task T counts jobs T * per_task on: the shards, then the second counts.
first=$((task * per_task))
for job in $(seq "$first" $((first + per_task - 1))); do
    if [ "$job" -lt "$shards" ]; then
        count "$job" "$kernel" "shard-$job" || exit
    else
        shard=${cross_shards[job - shards]:-}
        [ -n "$shard" ] || break
        count "$shard" "$cross_kernel" "shard-$shard.check" || exit
    fi
done
