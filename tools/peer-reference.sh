#!/usr/bin/env bash
# Measures the peer yardsticks of the suite's operations, each in the peer's own native program:
#   rayon (tools/peer-reference/rayon): fib(30) by join at every call, apply at the full suite's
#     body costs with rayon's own splitting, empty tasks from outside the pool, chained tasks;
#   Go (tools/peer-reference/go): group fan-out (goroutines joined by a sync.WaitGroup), empty
#     goroutines from one goroutine, chained goroutines.
# Each operation runs in --processes separate processes (one figure each, timed as the harness
# times a case); the line gives the median over processes and their range, in ns per join,
# iteration, task or link, and the median CPU time per unit (user and system, all threads), with
# the CPUs that kept busy: beside the suite's rusage.user-cpu-ns + rusage.system-cpu-ns, it tells
# a peer that is fast by running the operation on one CPU from one that spreads it. Run it in the
# same sitting as the suite (`bench run --suite full --workload fork-join --workload apply-stride
# --workload spawn --workload group`) and compare ratios, never figures from another machine or
# another hour.
#
# The apply bodies spin the suite's serialized rounds. Give the suite run's cost of a round (its
# line "body costs use X ns per spin round") with --spin-round-ns, so both loops run exactly the
# same bodies; without it the program measures the round as the suite does, and a body may then
# differ by the two probes' difference.
#
#   tools/peer-reference.sh                    every peer, 5 processes per operation, about a minute
#   tools/peer-reference.sh --peer go --processes 9
#   tools/peer-reference.sh --processes 9 --spin-round-ns 5.47 --csv peers.csv
#
# rayon needs cargo and Debian's librust-rayon-dev, Go Debian's golang-go (tools/install-deps.sh
# --peers installs them); the builds are offline (rayon against /usr/share/cargo/registry), into
# .build/peer-reference/. A peer that is missing is said unavailable, with what is missing, and
# skipped; with none available the script exits 3.
set -euo pipefail
cd "$(dirname "$0")/.."

processes=5 csv="" round_ns="" peers=()
while [ $# -gt 0 ]; do
    case "$1" in
        --peer|--processes|--spin-round-ns|--csv)
            [ $# -ge 2 ] || { echo "peer-reference: $1 needs a value (see --help)" >&2; exit 64; } ;;
    esac
    case "$1" in
        --peer)
            case "${2:-}" in
                rayon|go) peers+=("$2") ;;
                *) echo "peer-reference: --peer takes rayon or go, got '${2:-}'" >&2; exit 64 ;;
            esac
            shift 2 ;;
        --processes) processes=${2:-}; shift 2 ;;
        --spin-round-ns) round_ns=${2:-}; shift 2 ;;
        --csv) csv=${2:-}; shift 2 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "peer-reference: unknown argument '$1' (see --help)" >&2; exit 64 ;;
    esac
done
[ ${#peers[@]} -gt 0 ] || peers=(rayon go)
case "$processes" in ''|*[!0-9]*|0) echo "peer-reference: --processes takes a whole number from 1, got '$processes'" >&2; exit 64 ;; esac
if [ -n "$round_ns" ] && ! awk -v x="$round_ns" 'BEGIN { exit !(x ~ /^[0-9]*\.?[0-9]+$/ && x > 0) }'; then
    echo "peer-reference: --spin-round-ns takes a positive number of ns (bench run prints it), got '$round_ns'" >&2
    exit 64
fi

build=.build/peer-reference
mkdir -p "$build"
if [ -n "$csv" ]; then echo "operation,unit,median_ns,min_ns,max_ns,processes,peer,cpu_median_ns" > "$csv"; fi

# The median, least and greatest of the numbers on standard input, one per line.
median_and_range() {
    sort -g | awk '
        { v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'
}

# Runs each "label|unit|arguments" entry of the rest in $processes processes of program $2, each
# printing its wall and CPU ns per unit, and prints (and writes to the CSV) the wall figures'
# median and range, and the median CPU time with the CPUs it kept busy; $1 names the peer and its
# version.
measure() {
    local version=$1 program=$2 entry label unit arguments wall cpu
    shift 2
    for entry in "$@"; do
        IFS='|' read -r label unit arguments <<< "$entry"
        walls=() cpus=()
        for ((p = 1; p <= processes; p++)); do
            # shellcheck disable=SC2086 # the arguments are words
            read -r wall cpu < <("$program" $arguments)
            if [ -z "${cpu:-}" ]; then
                echo "peer-reference: '$program $arguments' gave no wall and CPU figures (it failed: see above)" >&2
                exit 1
            fi
            walls+=("$wall") cpus+=("$cpu")
        done
        read -r median low high < <(printf '%s\n' "${walls[@]}" | median_and_range)
        read -r cpu_median _ < <(printf '%s\n' "${cpus[@]}" | median_and_range)
        busy=$(awk -v c="$cpu_median" -v w="$median" 'BEGIN { printf "%.2f", c / w }')
        printf '  %-50s %10s ns per %-9s (%s - %s), CPU %s ns (%s CPUs)\n' \
            "$label" "$median" "$unit" "$low" "$high" "$cpu_median" "$busy"
        if [ -n "$csv" ]; then
            echo "\"$label\",$unit,$median,$low,$high,$processes,$version,$cpu_median" >> "$csv"
        fi
    done
}

# rayon, built offline against Debian's registry. Returns 1, saying why, where it cannot run.
rayon_peer() {
    local registry=/usr/share/cargo/registry
    if ! command -v cargo >/dev/null 2>&1; then
        echo "peer-reference: rayon unavailable: cargo is not on PATH (tools/install-deps.sh --peers installs Debian's)" >&2
        return 1
    fi
    if ! compgen -G "$registry/rayon-[0-9]*" >/dev/null; then
        echo "peer-reference: rayon unavailable: no rayon in $registry (tools/install-deps.sh --peers installs librust-rayon-dev)" >&2
        return 1
    fi
    # Debian's registry as the only source, so the build never reaches for the network.
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
    local program=$build/target/release/rayon-reference
    local version round_source="the suite's"
    version=$(basename "$(compgen -G "$registry/rayon-[0-9]*" | sort -V | tail -1)")
    if [ -z "$round_ns" ]; then
        round_ns=$("$program" spin-round)
        round_source="probed here"
    fi
    # Rounds per index as the suite's apply spins them (BodyCost.spinRoundsPerIndex): the exact
    # quotient, which the program spins as whole rounds by turns.
    rounds() { awk -v ns="$1" -v r="$round_ns" 'BEGIN { printf "%.9f", ns / r }'; }
    printf '%s, %d processes per operation, bodies at %s ns per spin round (%s); ns per unit: median (min - max)\n' \
        "$version" "$processes" "$round_ns" "$round_source"
    measure "$version" "$program" \
        "fib(30) by join at every call|join|fib 30" \
        "apply, body 0ns, rayon splitting|iteration|apply 0 100000" \
        "apply, body 10ns, rayon splitting|iteration|apply $(rounds 10) 100000" \
        "apply, body 100ns, rayon splitting|iteration|apply $(rounds 100) 100000" \
        "apply, body 1us, rayon splitting|iteration|apply $(rounds 1000) 10000" \
        "apply, body 10us, rayon splitting|iteration|apply $(rounds 10000) 1000" \
        "empty task from outside the pool (rayon::spawn)|task|outside" \
        "chained tasks (rayon::spawn)|link|chain"
}

# Go, built with the standard library only (no module to fetch).
go_peer() {
    if ! command -v go >/dev/null 2>&1; then
        echo "peer-reference: go unavailable: go is not on PATH (tools/install-deps.sh --peers installs golang-go)" >&2
        return 1
    fi
    echo "peer-reference: building tools/peer-reference/go" >&2
    local program=$PWD/$build/go-reference version
    (cd tools/peer-reference/go && GOFLAGS=-mod=mod GOPROXY=off GOCACHE="$OLDPWD/$build/go-cache" \
        GOPATH="$OLDPWD/$build/go-path" go build -o "$program" .)
    version=$(go env GOVERSION)
    printf '%s, GOMAXPROCS %s, %d processes per operation; ns per unit: median (min - max)\n' \
        "$version" "$(nproc)" "$processes"
    measure "$version" "$program" \
        "group fan-out + wait (sync.WaitGroup)|task|fan-out" \
        "empty goroutine from one goroutine|task|outside" \
        "chained goroutines|link|chain"
}

ran=0
for peer in "${peers[@]}"; do
    if "${peer}_peer"; then ran=$((ran + 1)); fi
done
[ "$ran" -gt 0 ] || exit 3
