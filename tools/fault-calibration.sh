#!/usr/bin/env bash
# How well the gate finds regressions in real runtime paths (Sources/Gate/README.md, "Detection on
# real paths"). Needs a FaultInjection build:
#   swift build -c release --traits FaultInjection --scratch-path .build-faults --product bench
# For each fault below, on its case: N comparisons with the fault (a regression of the case's
# ns-per-op is a detection) and N without it (A/A: any regression row is a false alarm), each
# with the options given. The fault's real effect is the median of the N estimates with it.
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

# fault | case (a --filter matching exactly one case). On the 2-core VM the sizes slowed each case
# by 5 to 16% (Sources/Gate/README.md, "Detection on real paths"; the steal path could not be made
# to cost 10% there).
faults=(
    "fifo-sync=0.5ns|queue-vs-lock/fifo-dispatch/guard=queue-sync,threads=1,resource=counter,critical=0ns,outside=0ns/system"
    "task-allocation=1|spawn/fifo-dispatch/pattern=chain/system"
    "steal=500ns|fork-join/work-stealing/tree=16,form=task,cutoff=6/system"
    "steal=2000ns|fork-join/work-stealing/tree=16,form=task,cutoff=6/system"
    "semaphore-spin=0.4|group/fifo-dispatch/pattern=fan-out/system"
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
# The median, least and greatest change of the case's ns-per-op over comparisons DIR/PREFIX-*.
changes() {
    awk -F'|' '$4 ~ /ns-per-op/ { gsub(/[ %+]/, "", $7); gsub(/−/, "-", $7); gsub(/±/, "", $7); print $7 }' "$1"/"$2"-*/comparison.md |
        sort -g | awk '{ v[NR] = $1 } END { printf "median %+.1f%% (%+.1f … %+.1f)", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
}

for entry in "${faults[@]}"; do
    fault=${entry%%|*}; filter=${entry#*|}
    b=$(wrapper "$fault")
    dir="$out/$(basename "$b")"
    mkdir -p "$dir"
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
    echo "$fault on $filter: slowdown $(changes "$dir" fault), A/A $(changes "$dir" aa); detected $detected of $n (${per} s each; pairs: $pairs); A/A comparisons with an alarm: $alarms of $n"
done
