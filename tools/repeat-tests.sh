#!/usr/bin/env bash
# Runs a set of tests many times in a row and counts the runs that failed, for failures that need
# a race and show in some runs only. The tests are built once; each run is a fresh process.
#
#   tools/repeat-tests.sh RUNS FILTER [extra `swift test` options...]
#   tools/repeat-tests.sh 100 BlockingConformance
#   TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tools/tsan-suppressions.txt" \
#       tools/repeat-tests.sh 100 BlockingConformance --sanitize=thread --scratch-path .build-tsan
#
# CONFORMANCE_DEADLINE_SECONDS (default here: 60) bounds each scenario, so a hang costs a minute,
# not five. Logs of failed runs are kept in $REPEAT_LOGS (default: /tmp/repeat-tests).
set -uo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: tools/repeat-tests.sh RUNS FILTER [swift test options...]   (RUNS a whole number above 0)" >&2
    exit 2
fi
runs=$1 filter=$2
shift 2
logs=${REPEAT_LOGS:-/tmp/repeat-tests}
mkdir -p "$logs"
export CONFORMANCE_DEADLINE_SECONDS=${CONFORMANCE_DEADLINE_SECONDS:-60}
swift build --build-tests "$@" >"$logs/build.log" 2>&1 || { echo "build failed: see $logs/build.log" >&2; exit 2; }
failed=0
for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    if swift test --skip-build "$@" --filter "$filter" >"$log" 2>&1; then
        rm -f "$log"
    else
        failed=$((failed + 1))
        echo "run $run failed: $(grep -m1 -E 'deadlock or hang|✘|error' "$log" | cut -c1-160) (log: $log)"
    fi
    printf '\r%d of %d runs, %d failed' "$run" "$runs" "$failed" >&2
done
echo >&2
echo "$filter: $((runs - failed)) of $runs runs passed, $failed failed"
[ "$failed" -eq 0 ]
