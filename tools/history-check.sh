#!/usr/bin/env bash
# Does `bench history` find a real step where it happened? 30 runs of the suite itself (spin of
# 1,000 rounds, system allocator), the last 11 with RUNTIMEBENCH_SPIN_SLOWDOWN=1.10 (every spin
# 10% longer: the hook the gate's calibration uses), then `bench history` over them with Otava.
# Exit 0 when Otava finds exactly one change, between runs 19 and 20; 1 otherwise; 2 when bench or
# Otava is missing. Timing-dependent (a run drifts by a few percent on a VM), so it is a
# measurement, not a CI gate; HistoryCLITests checks the same with seeded noise.
#
#   tools/history-check.sh [BENCH] [OUT]    (defaults: .build/release/bench, a new temporary directory)
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-.build/release/bench}
out=${2:-$(mktemp -d)}
runs=30
step=20
[ -x "$bench" ] || { echo "history-check: $bench not built (swift build -c release --product bench)" >&2; exit 2; }
doctor=$("$bench" doctor 2>/dev/null || true)
[[ "$doctor" == *"Apache Otava at"* ]] || { echo "history-check: Otava not found (tools/install-deps.sh)" >&2; exit 2; }

for run in $(seq 1 $runs); do
    slowdown=1
    [ "$run" -ge $step ] && slowdown=1.10
    printf 'history-check: run %d of %d (slowdown %s)\r' "$run" "$runs" "$slowdown"
    RUNTIMEBENCH_SPIN_SLOWDOWN=$slowdown "$bench" run --suite quick --workload spin --filter 'rounds=1000/system' \
        --repetitions 5 --samples 5 --sample-ms 10 --out "$out/runs/$(printf %02d "$run")" > /dev/null
done
echo
"$bench" history "$out/runs" --out "$out/history"
changes=$(grep -E '^\| spin/none/rounds=1000/system \| ns/op \| [0-9]+ → [0-9]+ \(' "$out/history/report.md" || true)
echo "$changes"
if [ "$(printf '%s\n' "$changes" | grep -c .)" -eq 1 ] && printf '%s\n' "$changes" | grep -q "| $((step - 1)) → $step ("; then
    echo "history-check: the step found between runs $((step - 1)) and $step, and nowhere else ($out/history/report.md)"
else
    echo "history-check: expected one change, between runs $((step - 1)) and $step ($out/history/report.md)" >&2
    exit 1
fi
