#!/usr/bin/env bash
# Installs the optional system packages RuntimeBench loads at run time:
#   libpapi-dev      hardware counters through PAPI (cycles, instructions, cache misses)
#   libjemalloc-dev  the jemalloc allocator dimension (LD_PRELOAD of libjemalloc.so.2)
#   linux-perf       `bench profile`: perf record and perf script
# The build needs none: without them the suite runs and reports those metrics as unavailable, and
# `bench profile` says perf is missing.
# Idempotent: packages already installed are left alone. Needs root (apt-get).
set -euo pipefail

packages=(libpapi-dev libjemalloc-dev linux-perf)

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
    echo "install-deps: nothing to do"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
for package in "${missing[@]}"; do
    echo "install-deps: installed $package $(dpkg-query -W -f='${Version}' "$package")"
done
