#!/bin/sh
# One shard per job, over ssh: 1/host runs one at a time on each host, on
# all its cores; --return brings each record back (with rsync, which both
# ends need), --cleanup removes it from the host. HOSTS=1/: runs them here.
set -e
n=${N:-20}
shards=${SHARDS:-16}
hosts=${HOSTS:-1/host1,1/host2}
seq 0 $((shards - 1)) | parallel -S "$hosts" --return shard-{}.json --cleanup \
    "queens-simd $n --count --shard {}/$shards --quiet >shard-{}.json"
queens-simd merge shard-*.json
