#!/usr/bin/env bash
# Issue 55's measurements, old and new binaries alternated in one run
# (BENCHMARKS.md, "Every thread on the piece in hand"):
#
#     benches/pieces_in_hand.sh OLD NEW [REPEATS]
#
# 1. One piece of N = 22 (shard 3200/4103) on 1 and 2 threads.
# 2. The same count stopped with INT at half its time, then resumed: the
#    resume's time against a whole run's, and its total.
# 3. Whole counts of N = 16 to 21 on 2 threads.
# 4. --sample 20 --seed 1 of N = 24 to 28 on 2 threads: the wall time, the
#    projected core-hours and, for the new binary, what a stop can lose.
#
# Prints markdown tables on stdout (medians, then every time); run it with
# nothing else on the machine. Times are wall seconds (`/usr/bin/time`).
set -euo pipefail
old=$(realpath "$1") new=$(realpath "$2") repeats=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# seconds BIN ARGS...: the command's wall seconds on stdout (its own
# output dropped).
seconds() {
    /usr/bin/time -f %e -o "$work/time" "$@" >/dev/null 2>&1
    cat "$work/time"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

echo "# Issue 55 measurements, $(date -u +%Y-%m-%d)"
echo
echo "\`lscpu\`: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; AVX-512 VPOPCNTDQ: $(grep -q avx512_vpopcntdq /proc/cpuinfo && echo yes || echo no)"
echo

echo "## 1. One piece of N = 22 (shard 3200/4103), 1 and 2 threads"
echo
piece=(22 --count --shard 3200/4103)
declare -A runs
for _ in $(seq "$repeats"); do
    for pair in "old 1" "new 1" "new 2" "old 2" "old 2" "new 2" "new 1" "old 1"; do
        set -- $pair
        bin=$old; [ "$1" = new ] && bin=$new
        runs[$pair]="${runs[$pair]:-} $(seconds "$bin" "${piece[@]}" --threads "$2")"
    done
done
echo "| binary | 1 thread | 2 threads | 2 / 1 |"
echo "|---|---|---|---|"
for b in old new; do
    one=$(median ${runs["$b 1"]}) two=$(median ${runs["$b 2"]})
    echo "| $b | $one s | $two s | $(awk "BEGIN {printf \"%.2f\", $two / $one}") |"
done
echo
echo "Every time (s): $(for k in "old 1" "new 1" "old 2" "new 2"; do printf '%s:%s; ' "$k" "${runs[$k]}"; done)"
echo

echo "## 2. Stopped with INT at half time, then resumed (new)"
echo
echo "A whole run is under two seconds here, as long as a few checkpoint"
echo "intervals (0.5 s by default, and what a stop loses beside the blocks in"
echo "hand): so the checkpoint is saved after every block (--checkpoint-interval"
echo "0), and, for comparison, every 0.1 s and at the default."
echo
echo "| threads, interval | stopped after | in flight, finished | resume | resume / whole | total right |"
echo "|---|---|---|---|---|---|"
expected=$("$new" "${piece[@]}" --threads 2 | sed -n 's/.*"count": "\([0-9]*\)".*/\1/p')
for _ in $(seq "$repeats"); do
    for setting in "2 0" "2 0.1" "1 0" "1 0.5"; do
        set -- $setting
        whole=$(median ${runs["new $1"]})
        half=$(awk "BEGIN {print $whole / 2}")
        rm -f ck.json
        timeout -s INT "$half" "$new" "${piece[@]}" --threads "$1" --checkpoint ck.json --checkpoint-interval "$2" >/dev/null 2>&1 || true
        begun=$(python3 -c "import json; c = json.load(open('ck.json')); print(', '.join(p['done'] + ' of ' + str(p['row_sets']) for p in c['in_flight']) or 'none', '/', c['subproblems_done'])")
        /usr/bin/time -f %e -o "$work/time" "$new" "${piece[@]}" --threads "$1" --checkpoint ck.json >out.json 2>/dev/null
        resumed=$(cat "$work/time")
        got=$(sed -n 's/.*"count": "\([0-9]*\)".*/\1/p' out.json)
        echo "| $1, $2 s | $half s | $begun | $resumed s | $(awk "BEGIN {printf \"%.2f\", $resumed / $whole}") | $([ "$got" = "$expected" ] && echo yes || echo "NO: $got") |"
    done
done
echo

echo "## 3. Whole counts on 2 threads (old, new, new, old)"
echo
echo "| N | old | new | new / old |"
echo "|---|---|---|---|"
for n in 16 17 18 19 20 21; do
    o1=$(seconds "$old" "$n" --count --threads 2)
    n1=$(seconds "$new" "$n" --count --threads 2)
    n2=$(seconds "$new" "$n" --count --threads 2)
    o2=$(seconds "$old" "$n" --count --threads 2)
    o=$(median "$o1" "$o2") m=$(median "$n1" "$n2")
    echo "| $n | $o s ($o1, $o2) | $m s ($n1, $n2) | $(awk "BEGIN {printf \"%.3f\", $m / $o}") |"
done
echo

echo "## 4. --sample 20 --seed 1 on 2 threads (old, new, new, old)"
echo
echo "| N | old: wall, core-hours | new: wall, core-hours | new / old (wall) | a stop loses (new) |"
echo "|---|---|---|---|---|"
sample() { # BIN N: "wall core-hours stop-line"
    /usr/bin/time -f %e -o "$work/time" "$1" "$2" --count --sample 20 --seed 1 --threads 2 --format json >s.json 2>/dev/null
    python3 - "$(cat "$work/time")" <<'PY'
import json, sys
s = json.load(open("s.json"))
stop = s.get("stop_loses_core_seconds", {})
print(sys.argv[1], "%.4g" % (s["core_seconds"]["value"] / 3600), "%.1f" % stop.get("longest_row_set_drawn", float("nan")))
PY
}
for n in 24 25 26 27 28; do
    read -r ow1 oc1 _ <<<"$(sample "$old" "$n")"
    read -r nw1 nc1 nl1 <<<"$(sample "$new" "$n")"
    read -r nw2 nc2 nl2 <<<"$(sample "$new" "$n")"
    read -r ow2 oc2 _ <<<"$(sample "$old" "$n")"
    ow=$(median "$ow1" "$ow2") nw=$(median "$nw1" "$nw2")
    longest=$(printf '%s\n' "$nl1" "$nl2" | sort -g | tail -1)
    echo "| $n | $ow s ($ow1, $ow2), $oc1 / $oc2 | $nw s ($nw1, $nw2), $nc1 / $nc2 | $(awk "BEGIN {printf \"%.3f\", $nw / $ow}") | longest row set drawn $longest s |"
done
