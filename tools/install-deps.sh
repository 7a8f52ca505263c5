#!/usr/bin/env bash
# Installs the optional system packages RuntimeBench loads at run time, and one its tests use:
#   libpapi-dev      hardware counters through PAPI (cycles, instructions, cache misses)
#   libjemalloc-dev  the jemalloc allocator dimension (LD_PRELOAD of libjemalloc.so.2)
#   linux-perf       `bench profile`: perf record and perf script
#   python3-venv     the virtual environment below
#   chromium         tests only: HTMLReportTests opens report.html in headless Chromium and checks
#                    that its script ran without an error (without it that test is skipped, saying
#                    why); report.html itself needs no browser to be written
#   gdb              CI only: tools/watchdog.sh prints a hung test process's thread stacks with it
#                    (without it, each thread's kernel state)
#   binutils         CI only: tools/check-lazy-statics.sh reads the TSan build with objdump (the
#                    Swift toolchain's own linking usually brings it already)
# and, with pip in a virtual environment at /opt/runtimebench/venv (where bench looks for it):
#   apache-otava     `bench history`: change points over a series of runs (pinned: bench reads
#                    its JSON output)
# The build needs none: without them the suite runs and reports those metrics as unavailable,
# `bench profile` says perf is missing, and `bench history` writes Otava's input and says how to
# run it.
#
#   tools/install-deps.sh            the packages above
#   tools/install-deps.sh --peers    also librust-rayon-dev, Debian's cargo where no cargo is on
#                                    PATH, and golang-go where no go is: tools/peer-reference.sh's
#                                    rayon and Go yardsticks
#
# Idempotent: packages already installed are left alone. Needs root (apt-get).
set -euo pipefail

packages=(libpapi-dev libjemalloc-dev linux-perf python3-venv chromium gdb binutils)
case "${1:-}" in
    "") ;;
    --peers)
        packages+=(librust-rayon-dev)
        command -v cargo >/dev/null 2>&1 || packages+=(cargo)
        command -v go >/dev/null 2>&1 || packages+=(golang-go)
        ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-deps: unknown argument '$1' (--peers or nothing)" >&2; exit 64 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: must run as root to use apt-get (try: sudo $0)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: apt-get not found; install ${packages[*]} with your system's package manager" >&2
    exit 1
fi

missing=()
for package in "${packages[@]}"; do
    if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
        echo "install-deps: $package already installed ($(dpkg-query -W -f='${Version}' "$package"))"
    else
        missing+=("$package")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: every system package is installed"
else
    echo "install-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
    for package in "${missing[@]}"; do
        echo "install-deps: installed $package $(dpkg-query -W -f='${Version}' "$package")"
    done
fi

# Apache Otava from PyPI, in a virtual environment of its own so it touches no system Python.
# A failure here (no network, say) is not fatal: bench history then says Otava is missing.
venv=/opt/runtimebench/venv
otava_version=0.8.0
# pip's output is read whole before it is matched: `pip show | grep -q` under pipefail failed
# whenever grep stopped reading early (pip then died of SIGPIPE), and Otava was reinstalled.
installed_otava=$([ -x "$venv/bin/pip" ] && "$venv/bin/pip" show apache-otava 2>/dev/null || true)
if [ -x "$venv/bin/otava" ] && grep -qx "Version: $otava_version" <<<"$installed_otava"; then
    echo "install-deps: apache-otava already installed ($otava_version in $venv)"
elif python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check "apache-otava==$otava_version"; then
    echo "install-deps: installed apache-otava $otava_version in $venv"
else
    echo "install-deps: could not install apache-otava $otava_version in $venv; bench history will write Otava's input and say how to run it" >&2
fi
