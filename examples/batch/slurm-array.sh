#!/bin/sh
#SBATCH --array=0-63
#SBATCH --cpus-per-task=16
#SBATCH --requeue
# One shard per array task, each with a checkpoint: a preempted task is
# requeued (--requeue) and resumes where it stopped. N, SHARDS and
# MAX_MEMORY override the defaults, options on sbatch's command line the
# #SBATCH lines:
#   N=14 SHARDS=4 sbatch --array=0-3 --cpus-per-task=1 slurm-array.sh
n=${N:-21}
shards=${SHARDS:-64} # one per task: --array=0-(shards - 1)
i=$SLURM_ARRAY_TASK_ID
# Without MAX_MEMORY, the memory the task may take (its cgroup, which
# sbatch --mem sets) is the limit.
limit=${MAX_MEMORY:+--max-memory=$MAX_MEMORY}
# The record takes its name only when whole: shard-*.json are the finished
# tasks' records, never a killed attempt's empty one.
queens-simd "$n" --count --shard "$i/$shards" --threads "${SLURM_CPUS_PER_TASK:-1}" $limit \
    --checkpoint "ckpt-$i.json" --quiet >"shard-$i.json.part" &&
    mv "shard-$i.json.part" "shard-$i.json"
