#!/usr/bin/env bash
# compare.sh: the portable kernel against a classic C implementation of the
# same algorithm (benches/c/classic.c).
#
# Usage: benches/c/compare.sh [--rust-native] [ROUNDS]
#
# * C:    classic.c built with `gcc -O3 -march=native`: the classic loop.
# * C same loop (for information): classic.c built the same way with
#         -DSAME_LOOP_AS_RUST, a C transcription of the Rust kernel's loop
#         (dead ends get no stack frame, off-board columns start taken).
# * Rust: benches/c/portable_timer.rs, built by this script as a throw-away
#         Cargo project (in a temp dir) that depends on this crate by path,
#         `[profile.release] opt-level = 3, codegen-units = 1`, and times
#         the portable kernel's own `count(n)`. By default RUSTFLAGS is
#         cleared, so the crate gets the default target features (no
#         `-C target-cpu=native`); `--rust-native` builds it with
#         RUSTFLAGS="-C target-cpu=native" instead, for information.
#
# All three programs measure the same way: one warm-up solve, a batch size doubled
# until a timed batch takes >= 20 us, then SAMPLES timed batches
# (CLOCK_MONOTONIC), the median of the per-solve times. For each N the script
# runs the three programs in turn ROUNDS times (default 7), rotating which
# goes first every round, checks every count against OEIS A000170, and
# reports the median of the per-run medians. ratio = Rust / C, the figure
# the 1.1x target is about (below 1: Rust faster); "vs same" = Rust / C same
# loop.
#
# Takes about 70 s once the Rust dependencies are cached (they are built
# in target/c-compare*/ of this crate).

set -euo pipefail

native=0
if [[ ${1:-} == --rust-native ]]; then
    native=1
    shift
fi
rounds=${1:-7}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [--rust-native] [ROUNDS]" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/queens-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT

sizes=(8 10 12 14)
declare -A samples=([8]=101 [10]=101 [12]=41 [14]=15)
declare -A expected=([8]=92 [10]=724 [12]=14200 [14]=365596)

# --- build C --------------------------------------------------------------
gcc -O3 -march=native -o "$work/classic" "$here/classic.c"
gcc -O3 -march=native -DSAME_LOOP_AS_RUST -o "$work/classic_same" "$here/classic.c"

# --- build Rust -----------------------------------------------------------
mkdir -p "$work/timer/src"
cp "$here/portable_timer.rs" "$work/timer/src/main.rs"
# Same dependency versions as the crate itself.
cp "$root/Cargo.lock" "$work/timer/Cargo.lock"
cat >"$work/timer/Cargo.toml" <<EOF
[package]
name = "portable_timer"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
queens-simd = { path = "$root" }

[profile.release]
opt-level = 3
codegen-units = 1

[workspace]
EOF
if ((native)); then
    export RUSTFLAGS="-C target-cpu=native"
    target_dir="$root/target/c-compare-native"
else
    unset RUSTFLAGS
    target_dir="$root/target/c-compare"
fi
unset CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS
CARGO_TARGET_DIR="$target_dir" cargo build --quiet --release \
    --manifest-path "$work/timer/Cargo.toml"
rust_bin="$target_dir/release/portable_timer"

# --- measure --------------------------------------------------------------
# run PROGRAM N: prints the run's median us/solve after checking its count.
run() {
    local out count us
    out=$("$1" "$2" "${samples[$2]}")
    count=$(sed -n 's/.*count=\([0-9]*\).*/\1/p' <<<"$out")
    us=$(sed -n 's/.*median_us=\([0-9.]*\).*/\1/p' <<<"$out")
    if [[ $count != "${expected[$2]}" ]]; then
        echo "$1 N=$2: count $count, expected ${expected[$2]}" >&2
        exit 1
    fi
    echo "$us"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

programs=("$work/classic" "$rust_bin" "$work/classic_same")
declare -A runs # runs[program index,N]: the per-run medians, space-separated
for ((r = 0; r < rounds; r++)); do
    for n in "${sizes[@]}"; do
        for ((k = 0; k < 3; k++)); do
            p=$(((r + k) % 3))
            runs[$p,$n]+="$(run "${programs[$p]}" "$n") "
        done
    done
    echo "round $((r + 1))/$rounds done" >&2
done

# --- report ---------------------------------------------------------------
echo "# $(gcc --version | head -n 1) -O3 -march=native"
echo "# $(rustc --version), release, opt-level 3, codegen-units 1, RUSTFLAGS='${RUSTFLAGS:-}'"
echo "# CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
echo "# median of $rounds per-run medians (runs interleaved); ratio = Rust / C; vs same = Rust / C same loop"
printf '%4s %14s %14s %7s %16s %8s\n' N "C us" "Rust us" ratio "C same loop us" "vs same"
for n in "${sizes[@]}"; do
    c=$(tr ' ' '\n' <<<"${runs[0,$n]}" | grep . | median)
    rs=$(tr ' ' '\n' <<<"${runs[1,$n]}" | grep . | median)
    cs=$(tr ' ' '\n' <<<"${runs[2,$n]}" | grep . | median)
    printf '%4d %14.3f %14.3f %7.3f %16.3f %8.3f\n' "$n" "$c" "$rs" \
        "$(awk -v a="$rs" -v b="$c" 'BEGIN { print a / b }')" "$cs" \
        "$(awk -v a="$rs" -v b="$cs" 'BEGIN { print a / b }')"
done
echo "# per-run medians, us (C | Rust | C same loop):"
for n in "${sizes[@]}"; do
    echo "#   N=$n: ${runs[0,$n]}| ${runs[1,$n]}| ${runs[2,$n]}"
done
