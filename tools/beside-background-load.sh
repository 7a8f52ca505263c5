#!/usr/bin/env bash
# Runs a command beside background load: one busy loop per CPU, each pinned to its CPU at a low
# priority (nice 19 unless --nice says otherwise), as a build or a batch job would sit beside a
# server. The loops end with the command, whose exit status this script returns.
#
#   tools/beside-background-load.sh [--nice N] -- COMMAND [ARGUMENTS...]
#   tools/beside-background-load.sh -- .build/release/bench run --workload semaphore --out /tmp/beside
#
# Run the same command without this script in the same sitting and compare the two (bench
# agreement, or the two reports). On Linux 6.6 and later (the EEVDF scheduler) a sched_yield
# forfeits the rest of the yielder's slice, so a thread that yields at every hand-off loses its
# CPU to such a loop for 10–20 µs a yield, nice 19 or not: Sources/PThreadPrimitives/README.md
# ("Beside a low-priority busy loop") has the figures.
set -euo pipefail
usage() {
    echo "usage: tools/beside-background-load.sh [--nice N] -- COMMAND [ARGUMENTS...]   (N from -20 to 19; default 19)" >&2
    exit 2
}
niceness=19
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
        --nice)
            [ $# -ge 2 ] && [[ $2 =~ ^-?[0-9]+$ ]] && [ "$2" -ge -20 ] && [ "$2" -le 19 ] || usage
            niceness=$2
            shift 2
            ;;
        -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) usage ;;
    esac
done
[ $# -ge 2 ] || usage
shift
loops=()
trap 'kill "${loops[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT
for cpu in $(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'); do
    taskset -c "$cpu" nice -n "$niceness" sh -c 'while :; do :; done' &
    loops+=("$!")
done
echo "beside-background-load: ${#loops[@]} busy loops at nice $niceness, one per CPU" >&2
"$@"
