#!/usr/bin/env bash
# Measures the regression gate itself with `bench ab` (Sources/Gate/README.md, "How well the
# gate works"):
#   aa        A/A: the same build against itself, N times: every "regression" is a false alarm.
#   slowdown  A against a B whose spins are FACTOR times longer (the calibration workload, through
#             RUNTIMEBENCH_SPIN_SLOWDOWN in a wrapper around the same binary), N times: the share
#             of spin cells with rounds > 0 flagged as a regression is the detection rate.
# Usage: tools/gate-calibration.sh aa|slowdown N OUT_DIR [bench ab options...]
#        tools/gate-calibration.sh summarize OUT_DIR
#   BENCH=path/to/bench (default .build/release/bench), FACTOR=1.10 (slowdown).
# The verdicts are always those of BENCH's `bench compare --paired` on the saved a.json and
# b.json, so `summarize` re-judges old measurements after a change to the decision rule.
# Examples:
#   tools/gate-calibration.sh aa 20 /tmp/gate-aa --backend fifo-dispatch --allocator system
#   tools/gate-calibration.sh slowdown 30 /tmp/gate-slow --workload spin --allocator system --cpus 1
# Each comparison's full table is kept in OUT_DIR/N.txt (and its files in OUT_DIR/N/); the last
# lines printed are the counts. A copy of the binary is measured, so a rebuild during the
# calibration does not change what runs.
set -euo pipefail
usage="usage: $0 aa|slowdown N OUT_DIR [bench ab options...]  |  $0 summarize OUT_DIR"
mode=${1:?$usage}
bench=${BENCH:-.build/release/bench}
[ -x "$bench" ] || { echo "$0: no bench at $bench (swift build -c release, or set BENCH)" >&2; exit 2; }

# Judges every saved comparison in $1 with this bench and prints the counts.
summarize() {
    local out=$1 mode comparisons=0
    mode=$(cat "$out/mode" 2> /dev/null) || { echo "$0: $out has no measurements (no $out/mode)" >&2; exit 2; }
    for dir in "$out"/[0-9]*/; do
        [ -s "$dir/a.json" ] && [ -s "$dir/b.json" ] || continue
        "$bench" compare --paired "$dir/a.json" "$dir/b.json" > "${dir%/}.txt"
        comparisons=$((comparisons + 1))
    done
    echo "$mode: $comparisons comparisons in $out, judged by $bench"
    # Every row of every table: a block whose first line is the verdict ("no change" and "not
    # comparable" are two words) and the case; the next line starts with the metric (and a colon).
    # An undecided row (moved, but too few processes to tell) was tested and is no alarm.
    cat "$out"/[0-9]*.txt | awk -v mode="$mode" '
        $1 == "regression" || $1 == "improvement" || $1 == "undecided" || ($1 == "no" && $2 == "change") {
            verdict = $1; c = ($1 == "no") ? $3 : $2; pending = 1; next
        }
        # A long case id continues on indented lines before the metric line, which ends in ", n A/B".
        pending && /^ / && !/, n [0-9]+\/[0-9]+$/ { c = c $1; next }
        pending && /^ / {
            pending = 0; metric = $1; sub(/[:,]$/, "", metric)
            rows++; if (verdict == "regression") alarms++; if (verdict == "improvement") improvements++
            if (metric == "ns-per-op" && c ~ /^spin\/.*rounds=[1-9]/) {
                slowed++; if (verdict == "regression") detected++
                cell[c]++; if (verdict == "regression") hit[c]++
            }
        }
        END {
            if (mode == "aa") {
                printf "A/A: %d of %d compared case/metric rows flagged as regressions (%.2f%%), %d as improvements\n", alarms, rows, 100 * alarms / rows, improvements
            } else {
                printf "slowdown: %d of %d spin cells with rounds > 0 flagged (%.1f%% detected)\n", detected, slowed, 100 * detected / slowed
                for (c in cell) printf "  %s: %d of %d\n", c, hit[c], cell[c]
                printf "slowdown: other rows flagged: %d of %d\n", alarms - detected, rows - slowed
            }
        }'
    echo "comparisons with at least one regression: $(grep -l '^regression ' "$out"/[0-9]*.txt 2> /dev/null | wc -l) of $comparisons"
}

if [ "$mode" = summarize ]; then
    summarize "${2:?$usage}"
    exit 0
fi
count=${2:?$usage}
out=${3:?$usage}
shift 3
case "$mode" in aa|slowdown) ;; *) echo "$0: mode must be aa, slowdown or summarize, got '$mode'" >&2; exit 2 ;; esac
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { echo "$0: N must be a positive integer, got '$count'" >&2; exit 2; }
mkdir -p "$out"
echo "$mode" > "$out/mode"
cp "$bench" "$out/bench-a"
if [ "$mode" = slowdown ]; then
    factor=${FACTOR:-1.10}
    printf '#!/bin/sh\nRUNTIMEBENCH_SPIN_SLOWDOWN=%s exec "%s" "$@"\n' "$factor" "$(cd "$out" && pwd)/bench-a" > "$out/bench-b"
    chmod +x "$out/bench-b"
else
    cp "$out/bench-a" "$out/bench-b"
fi

for i in $(seq 1 "$count"); do
    status=0
    "$out/bench-a" ab --a "$out/bench-a" --b "$out/bench-b" --out "$out/$i" "$@" > /dev/null 2> "$out/$i.log" || status=$?
    [ "$status" -le 1 ] || { echo "$0: comparison $i failed with status $status; see $out/$i.log" >&2; exit 2; }
    echo "comparison $i/$count: bench ab exited $status"
done
summarize "$out"
