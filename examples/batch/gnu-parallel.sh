#!/bin/sh
# Q(20) in 16 shards with GNU parallel, written by queens-simd 0.1.0:
#   queens-simd script parallel 20 --shards 16 --cores 16 --hosts '1/host1,1/host2' --cross-check 1 --cross-kernel join-avx2 --seed 1 --folder '/scratch/you/q20'
# The join plan of N = 20 (f0cf50607db421f3): 2062 subproblems in 16 shards, one job each,
# on 16 threads (the estimate: 1.4 GiB); every host runs queens-simd 0.1.0
# (QUEENS_SIMD=/path/to/it if it is not on the PATH) and rsync: each
# count refuses another plan than this one. Run it from the campaign's
# folder: it refuses to run in any other.
# 1 shard, chosen with --seed 1, is counted a second time by join-avx2
# (records/shard-I.check.json), for merge to compare.
# Core-hours per job: not known here. Write the script again with
# --projection FILE, FILE what `queens-simd 20 --count --sample 100
# --format json` prints (docs/plan.md, Projecting a count from a sample).
# A stop (a signal, a lost node) loses at most one block of row sets per
# thread, each about 2 s of one core, and the 0.5 s since the last
# checkpoint: 40 core-seconds on 16 threads.
# A job's record comes back to records/ (--return) only once whole
# (--output); parallel.joblog holds every job's exit status, and running
# this script again runs only the jobs that failed or never ran
# (--resume-failed). A job's checkpoint stays on its host: a job rerun on
# the same host resumes from it, on another it starts again; one whose
# checkpoint another run holds is skipped (exit 0, and no record).
set -eu
n=20 shards=16 threads=16
plan=f0cf50607db421f3 kernel=auto cross_kernel=join-avx2
cross_shards='1'
hosts=${HOSTS:-1/host1,1/host2}
bin=${QUEENS_SIMD:-queens-simd}
say() { echo "queens-simd campaign: $*" >&2; }
folder='/scratch/you/q20'
here=$(pwd -P)
if [ "$(cd -P -- "$folder" 2>/dev/null && pwd -P)" != "$here" ]; then
    say "this script counts the campaign in $folder, but runs in $here: run it from $folder (or write this folder's own with queens-simd script)"
    exit 2
fi
# $bin single-quoted for the shell that runs each job, here or over ssh:
# a path with a space or a quote in it stays one word.
quoted_bin="'$(printf '%s' "$bin" | sed "s/'/'\\\\''/g")'"
mkdir -p records
# One line per job: its shard, kernel and record's name.
jobs() {
    seq 0 $((shards - 1)) | while read -r i; do echo "$i $kernel shard-$i"; done
    for i in $cross_shards; do echo "$i $cross_kernel shard-$i.check"; done
}
jobs | parallel --colsep ' ' -S "$hosts" --joblog parallel.joblog --resume-failed \
    --return 'records/{3}.json' --cleanup \
    "mkdir -p records checkpoints && $quoted_bin $n --count --shard {1}/$shards --kernel {2} --threads $threads --checkpoint checkpoints/{3}.json --output records/{3}.json --quiet --expect-plan $plan --skip-if-locked"
"$bin" merge records/*.json
