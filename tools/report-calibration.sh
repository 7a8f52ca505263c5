#!/usr/bin/env bash
# Measures the report's own statistics (README "How far a figure holds"): N identical runs of a
# suite, back to back, then `bench agreement` over them, each run against the one before:
#   figures     how often a run's figure of a case falls outside the previous run's repeat
#               interval (at 95%, about 5 in 100 should);
#   statements  how often a "clearly" of one run's report is a tie or reversed in the next;
#   answers     how many parts of the first screen's questions agree in the next (no leader of
#               one clearly behind in the other), and how many read the same word for word.
# Usage: tools/report-calibration.sh N OUT_DIR [bench run options...]
#        tools/report-calibration.sh summarize OUT_DIR
#   BENCH=path/to/bench (default .build/release/bench).
# Examples:
#   tools/report-calibration.sh 6 /tmp/cal-fifo --suite quick --backend fifo-dispatch --backend libdispatch-c --allocator system
#   tools/report-calibration.sh 6 /tmp/cal-ws --backend work-stealing --backend swift-concurrency --allocator system
# The runs are kept in OUT_DIR/1, OUT_DIR/2, ...; `summarize` judges them again with BENCH, so a
# change to the statistics is measured on the same runs. A copy of the binary is measured, so a
# rebuild meanwhile does not change what runs. Nothing else should use the machine meanwhile:
# the figures are this machine's, quiet.
set -euo pipefail
usage="usage: $0 N OUT_DIR [bench run options...]  |  $0 summarize OUT_DIR"
bench=${BENCH:-.build/release/bench}
[ -x "$bench" ] || { echo "$0: no bench at $bench (swift build -c release, or set BENCH)" >&2; exit 2; }

summarize() {
    local out=$1 runs=()
    for dir in $(ls -d "$out"/[0-9]*/ 2> /dev/null | sort -V); do
        [ -s "$dir/results.json" ] && runs+=("${dir%/}/results.json")
    done
    [ ${#runs[@]} -ge 2 ] || { echo "$0: fewer than two finished runs in $out" >&2; exit 2; }
    "$bench" agreement --list 3 "${runs[@]}"
}

if [ "${1:-}" = summarize ]; then
    summarize "${2:?$usage}"
    exit 0
fi
count=${1:?$usage}
out=${2:?$usage}
shift 2
[[ "$count" =~ ^[1-9][0-9]*$ ]] && [ "$count" -ge 2 ] || { echo "$0: N must be an integer of 2 or more, got '$count'" >&2; exit 2; }
mkdir -p "$out"
cp "$bench" "$out/bench"
for i in $(seq 1 "$count"); do
    start=$(date +%s)
    "$out/bench" run "$@" --out "$out/$i" > "$out/$i.log" 2>&1 || { echo "$0: run $i failed; see $out/$i.log" >&2; exit 1; }
    echo "run $i of $count: $(( $(date +%s) - start )) s"
done
summarize "$out"
