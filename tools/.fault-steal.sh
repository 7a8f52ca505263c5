#!/usr/bin/env bash
# How well the gate finds regressions in real runtime paths (Sources/Gate/README.md, "Detection on
# real paths"). Needs a FaultInjection build:
#   swift build -c release --traits FaultInjection --scratch-path .build-faults --product bench
# For each fault below, on its case: the fault's real effect (`bench ab` with 30 pairs), then N
# comparisons with the fault (a regression of the case's ns-per-op is a detection) and N without
# it (A/A: any regression row is a false alarm), each with the options given.
# Usage: tools/fault-calibration.sh N OUT_DIR [bench ab options, e.g. --budget 10m, or --pairs 6]
#   BENCH=path (default .build-faults/release/bench). Prints one line per fault; every
#   comparison's table stays in OUT_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: $0 N OUT_DIR [bench ab options...]}
out=${2:?usage: $0 N OUT_DIR [bench ab options...]}
shift 2
bench=${BENCH:-.build-faults/release/bench}
[ -x "$bench" ] || { echo "$0: no FaultInjection bench at $bench" >&2; exit 2; }
bench=$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")
"$bench" run --help > /dev/null
mkdir -p "$out"

# fault | case (a --filter matching exactly one case). The sizes give each case a slowdown of
# about 10 to 25% on the 2-core VM (the first line of each result measures it).
faults=(


    "steal=2000ns|fork-join/work-stealing/tree=16,form=task,cutoff=6/system"

)

# A wrapper beside the binary (where --count-allocations looks for the interposer) that sets the fault.
wrapper() {
    local path
    path="$(dirname "$bench")/bench-fault-$(echo "$1" | tr '=.' '--')"
    printf '#!/bin/sh\nRUNTIMEBENCH_FAULTS=%s exec "%s" "$@"\n' "$1" "$bench" > "$path"
    chmod +x "$path"
    echo "$path"
}

# The case's ns-per-op row of a comparison table: "regression", "no change", ...
verdict() { awk -F'|' '$4 ~ /ns-per-op/ { gsub(/^ +| +$/, "", $2); print $2 }' "$1" | head -n 1; }

for entry in "${faults[@]}"; do
    fault=${entry%%|*}; filter=${entry#*|}
    b=$(wrapper "$fault")
    dir="$out/$(basename "$b")"
    mkdir -p "$dir"
    "$bench" ab --a "$bench" --b "$b" --suite quick --filter "$filter" --pairs 30 --out "$dir/effect" --overwrite "$@" > /dev/null 2>&1 || true
    effect=$(awk -F'|' '$4 ~ /ns-per-op/ { print $5 "→" $6 ":" $7 "(" $8 ")" }' "$dir/effect/comparison.md" | tr -s ' ')
    detected=0; alarms=0; start=$SECONDS
    for i in $(seq 1 "$n"); do
        "$bench" ab --a "$bench" --b "$b" --suite quick --filter "$filter" --out "$dir/fault-$i" --overwrite "$@" > /dev/null 2>&1 || true
        [ "$(verdict "$dir/fault-$i/comparison.md")" = "regression" ] && detected=$((detected + 1))
    done
    per=$(( (SECONDS - start) / n ))
    pairs=$(for i in $(seq 1 "$n"); do awk -F'|' '$4 ~ /ns-per-op/ { gsub(/ /, "", $10); split($10, n, "/"); print n[1] }' "$dir/fault-$i/comparison.md"; done | sort -n | tr '\n' ' ')
    for i in $(seq 1 "$n"); do
        "$bench" ab --a "$bench" --b "$bench" --suite quick --filter "$filter" --out "$dir/aa-$i" --overwrite "$@" > /dev/null 2>&1 || true
        grep -q '^| regression' "$dir/aa-$i/comparison.md" && alarms=$((alarms + 1))
    done
    echo "$fault on $filter: effect$effect; detected $detected of $n (${per} s each; pairs: $pairs); A/A comparisons with an alarm: $alarms of $n"
done
