#!/usr/bin/env bash
# Measures the rayon yardsticks of the suite's operations (tools/peer-reference/rayon): fib(30) by
# join at every call, apply at the full suite's body costs with rayon's own splitting, empty tasks
# from outside the pool and chained tasks. Each operation runs in --processes separate processes
# (one figure each, timed as the harness times a case); the line gives the median over processes
# and their range, in ns per join, iteration, task or link. Run it in the same sitting as the
# suite (`bench run --suite full --workload fork-join --workload apply-stride --workload spawn`)
# and compare ratios, never figures from another machine or another hour.
#
# The apply bodies spin the suite's serialized rounds. Give the suite run's cost of a round (its
# line "body costs use X ns per spin round") with --spin-round-ns, so both loops run exactly the
# same bodies; without it the program measures the round as the suite does, and a body may then
# differ by the two probes' difference.
#
#   tools/peer-reference.sh                    5 processes per operation, under a minute
#   tools/peer-reference.sh --processes 9 --spin-round-ns 5.47 --csv rayon.csv
#
# Needs cargo and Debian's librust-rayon-dev (tools/install-deps.sh --peers installs both); the
# build is offline, against /usr/share/cargo/registry, into .build/peer-reference/. Without them
# it says what is missing and exits 3.
set -euo pipefail
cd "$(dirname "$0")/.."

processes=5 csv="" round_ns=""
while [ $# -gt 0 ]; do
    case "$1" in
        --processes) processes=$2; shift 2 ;;
        --spin-round-ns) round_ns=$2; shift 2 ;;
        --csv) csv=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "peer-reference: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
case "$processes" in ''|*[!0-9]*|0) echo "peer-reference: --processes takes a whole number from 1, got '$processes'" >&2; exit 64 ;; esac
if [ -n "$round_ns" ] && ! awk -v x="$round_ns" 'BEGIN { exit !(x ~ /^[0-9]*\.?[0-9]+$/ && x > 0) }'; then
    echo "peer-reference: --spin-round-ns takes a positive number of ns (bench run prints it), got '$round_ns'" >&2
    exit 64
fi

registry=/usr/share/cargo/registry
if ! command -v cargo >/dev/null 2>&1; then
    echo "peer-reference: unavailable: cargo is not on PATH (tools/install-deps.sh --peers installs Debian's)" >&2
    exit 3
fi
if ! compgen -G "$registry/rayon-[0-9]*" >/dev/null; then
    echo "peer-reference: unavailable: no rayon in $registry (tools/install-deps.sh --peers installs librust-rayon-dev)" >&2
    exit 3
fi

# Debian's registry as the only source, so the build never reaches for the network.
build=.build/peer-reference
mkdir -p "$build/cargo-home"
cat > "$build/cargo-home/config.toml" <<TOML
[source.crates-io]
replace-with = "debian"
[source.debian]
directory = "$registry"
[net]
offline = true
TOML
echo "peer-reference: building tools/peer-reference/rayon (release, offline)" >&2
CARGO_HOME="$PWD/$build/cargo-home" cargo build -q --release \
    --manifest-path tools/peer-reference/rayon/Cargo.toml --target-dir "$build/target"
program=$build/target/release/rayon-reference
rayon_version=$(basename "$(compgen -G "$registry/rayon-[0-9]*" | sort -V | tail -1)")
round_source="the suite's"
if [ -z "$round_ns" ]; then
    round_ns=$("$program" spin-round)
    round_source="probed here"
fi
# The suite's rounding (BodyCost): the nearest whole round, at least one for a body above zero.
rounds() { awk -v ns="$1" -v r="$round_ns" 'BEGIN { n = int(ns / r + 0.5); if (ns > 0 && n < 1) n = 1; print n }'; }

# operation label | unit | arguments
operations=(
    "fib(30) by join at every call|join|fib 30"
    "apply, body 0ns, rayon splitting|iteration|apply 0 100000"
    "apply, body 10ns, rayon splitting|iteration|apply $(rounds 10) 100000"
    "apply, body 100ns, rayon splitting|iteration|apply $(rounds 100) 100000"
    "apply, body 1us, rayon splitting|iteration|apply $(rounds 1000) 10000"
    "apply, body 10us, rayon splitting|iteration|apply $(rounds 10000) 1000"
    "empty task from outside the pool (rayon::spawn)|task|outside"
    "chained tasks (rayon::spawn)|link|chain"
)

if [ -n "$csv" ]; then echo "operation,unit,median_ns,min_ns,max_ns,processes,rayon" > "$csv"; fi
printf '%s, %d processes per operation, bodies at %s ns per spin round (%s); ns per unit: median (min - max)\n' \
    "$rayon_version" "$processes" "$round_ns" "$round_source"
for entry in "${operations[@]}"; do
    IFS='|' read -r label unit arguments <<< "$entry"
    figures=()
    for ((p = 1; p <= processes; p++)); do
        # shellcheck disable=SC2086 # the arguments are words
        figures+=("$("$program" $arguments)")
    done
    read -r median low high < <(printf '%s\n' "${figures[@]}" | sort -g | awk '
        { v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }')
    printf '  %-50s %10s ns per %-9s (%s - %s)\n' "$label" "$median" "$unit" "$low" "$high"
    if [ -n "$csv" ]; then echo "\"$label\",$unit,$median,$low,$high,$processes,$rayon_version" >> "$csv"; fi
done
