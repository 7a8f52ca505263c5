#!/usr/bin/env bash
# Lists the stored statics and globals of the runtimes' modules that a build reaches through
# swift_once, and fails on any not named below as cold.
#
# Why: a stored `static let` whose initializer is not a literal (a call, `.seconds(1)`, another
# static) is initialized lazily, and an unoptimized build calls swift_once on every access. Under
# ThreadSanitizer the Swift runtime leaves the once's flag positive after it ran, so every access
# takes the once's lock (a priority-inheritance futex) and tells TSan it acquired and released it.
# On a hot path that does two harmful things:
#   - it gives TSan a happens-before edge between every pair of threads that read the static, so
#     a missing ordering in the code around it can go unreported;
#   - the threads queue on the lock. FIFOGroup.countMask, read by every `leave`, made workers
#     sleep there; the stall monitor took them for blocked, added a thread every 150 ms, and the
#     TSan stress test of 1,000,000 blocks took 120-716 s instead of 6-13 (.ci/run's TSan step,
#     beside a build or another test).
# A computed static (`static var x: T { ... }`) or a literal initializer needs no once.
#
# Usage: tools/check-lazy-statics.sh BINARY   (a debug build: the TSan test bundle in .ci/run)
set -euo pipefail

binary=${1:?usage: tools/check-lazy-statics.sh BINARY}
test -f "$binary" || { echo "check-lazy-statics: no such file: $binary" >&2; exit 64; }

# Read once per process or on a cold path: names and descriptions, the FaultInjection variable
# (its hooks are compiled only into that trait's build), the table of CPUs a waiter moved off
# (once per move, at most one move in 256 shared waits), sem_clockwait's address (timed waits),
# and the event catalogue's size (read when counters are read, not when events are counted).
cold='^(FIFODispatch|StealingRuntime|PThreadRuntime)\.(id|summary|unsupported)$'
cold+='|^InjectedFaults\.|^LastSignaller\.movedOffAt$|^POSIXSemaphore\.clockWait$'
cold+='|^RuntimeEvent\.(count|countingBackends)$'

modules='^\$s(12FIFODispatch|15StealingRuntime|17PThreadPrimitives|10RuntimeKit|14PThreadRuntime)'
lazy=$(objdump -d --no-show-raw-insn "$binary" \
    | awk '/^[0-9a-f]+ <.*vau>:$/ { f = $2; next } /^$/ { f = "" } f != "" && /call.*swift_once/ { print f }' \
    | tr -d '<>:' | grep -E "$modules" | swift demangle --simplified \
    | sed 's/\.unsafeMutableAddressor.*//; s/^static //' | sort -u)
test -n "$lazy" || { echo "check-lazy-statics: found no lazy static at all; is $binary a debug build?" >&2; exit 1; }
hot=$(grep -Ev "$cold" <<<"$lazy" || true)
echo "lazy statics of the runtimes' modules: $(wc -l <<<"$lazy"), all cold: $(tr '\n' ' ' <<<"$lazy")"
if [ -n "$hot" ]; then
    echo "check-lazy-statics: these go through swift_once on every access in a debug build; make them computed" \
        "(static var x: T { ... }) or, if they are cold, name them in tools/check-lazy-statics.sh:" >&2
    sed 's/^/  /' <<<"$hot" >&2
    exit 1
fi
