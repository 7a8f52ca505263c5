#!/usr/bin/env bash
# The pull-request gate: build the base revision and the head, run both side by side with
# `bench ab` (A B B A ..., compared pair by pair), and exit with its status:
#   0 nothing regressed, 1 a regression, 2 an unusable build or file.
# Usage: tools/ci-regression.sh BASE_REF [bench ab options...]
#   BASE_REF   what to compare against, e.g. origin/main or a commit id
#   options    passed to `bench ab`; default: --suite smoke (choose what your change touches:
#              e.g. --suite quick --workload semaphore --pairs 10; `bench ab --help`)
#   MARKDOWN=gate.md   where the pull-request comment is written (default: gate.md)
# Example (GitHub Actions): tools/ci-regression.sh origin/main --suite quick --backend fifo-dispatch
#   then post gate.md as a comment whatever the status, and fail the job on status 1 or 2.
set -euo pipefail
base_ref=${1:?usage: $0 BASE_REF [bench ab options...]}
shift
[ $# -gt 0 ] || set -- --suite smoke
cd "$(dirname "$0")/.."
git rev-parse --verify --quiet "$base_ref^{commit}" > /dev/null || { echo "$0: unknown revision '$base_ref'" >&2; exit 2; }

work=$(mktemp -d)
cleanup() { git worktree remove --force "$work/base" 2> /dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add --quiet --detach "$work/base" "$base_ref"

echo "ci-regression: building the base ($(git rev-parse --short "$base_ref")) and the head ($(git rev-parse --short HEAD))"
swift build -c release --product bench --package-path "$work/base" || { echo "$0: the base does not build" >&2; exit 2; }
swift build -c release --product bench || { echo "$0: the head does not build" >&2; exit 2; }
base_bench="$(swift build -c release --product bench --package-path "$work/base" --show-bin-path)/bench"
head_bench="$(swift build -c release --product bench --show-bin-path)/bench"

status=0
"$head_bench" ab --a "$base_bench" --b "$head_bench" --markdown "${MARKDOWN:-gate.md}" "$@" || status=$?
echo "ci-regression: bench ab exited $status (0 no regression, 1 regression, 2 an unusable binary or file, 64 a bad option); comment in ${MARKDOWN:-gate.md}"
exit "$status"
