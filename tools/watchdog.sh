#!/bin/bash
# Usage: tools/watchdog.sh SECONDS COMMAND [ARGUMENTS...]
#
# Runs COMMAND. Should it still be running after SECONDS, prints what every process under it is
# doing (their threads' stacks through gdb, grouped by stack, with a count of the threads in
# each; without gdb, each thread's kernel state and wait channel), kills them all, and exits 124.
# Otherwise exits with COMMAND's status.
#
# Why: a test process that hangs (a deadlock that needs a race shows in some runs only) would
# otherwise hold .ci/run until its 90-minute limit and leave no trace of where it stood. The full
# gdb output goes to WATCHDOG_DUMP (default: a file under $TMPDIR), the grouped stacks to stderr.
set -uo pipefail

if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS COMMAND [ARGUMENTS...]" >&2
    exit 64
fi
limit=$1
shift

"$@" &
child=$!

descendants() {
    local pid
    for pid in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$pid"
        descendants "$pid"
    done
}

waited=0
while kill -0 "$child" 2>/dev/null; do
    if [ "$waited" -ge "$limit" ]; then
        dump=${WATCHDOG_DUMP:-$(mktemp "${TMPDIR:-/tmp}/watchdog.XXXXXX")}
        echo "watchdog: '$*' still running after $limit s; the stacks of its processes follow" \
            "(all of them in $dump), then it is killed" >&2
        processes="$child $(descendants "$child")"
        for pid in $processes; do
            [ -d "/proc/$pid" ] || continue
            echo "--- process $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" | cut -c1-200)" | tee -a "$dump" >&2
            if command -v gdb > /dev/null; then
                timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 10" < /dev/null >> "$dump" 2>&1
                # One line per distinct stack (its first six functions), with how many threads share it.
                awk '/^Thread /{ if (stack != "") print stack; stack = ""; frames = 0; next }
                     /^#[0-9]/ { if (++frames > 6) next
                                 name = $0; sub(/^#[0-9]+ +(0x[0-9a-f]+ in )?/, "", name); sub(/ .*/, "", name)
                                 stack = stack (stack == "" ? "" : " < ") substr(name, 1, 70) }
                     END { if (stack != "") print stack }' <(sed -n "/--- process $pid:/,\$p" "$dump") \
                    | sort | uniq -c | sort -rn | head -20 >&2
            else
                echo "(gdb not installed: each thread's state and kernel wait channel)" >&2
                for task in /proc/"$pid"/task/*; do
                    echo "$(cut -d' ' -f2,3 "$task/stat" 2>/dev/null) $(cat "$task/wchan" 2>/dev/null)"
                done | sort | uniq -c | sort -rn | head -20 >&2
            fi
        done
        # shellcheck disable=SC2086
        kill -KILL $processes 2>/dev/null
        wait "$child" 2>/dev/null
        echo "watchdog: killed '$*' after $limit s" >&2
        exit 124
    fi
    sleep 5
    waited=$((waited + 5))
done
wait "$child"
