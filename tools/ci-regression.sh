#!/usr/bin/env bash
# The pull-request gate: build the base revision and the head, run both side by side with
# `bench ab` (A B B A ..., compared pair by pair), counts first, then times, and exit with the worse status:
#   0 nothing regressed, 1 a regression, 2 an unusable build or file.
# Usage: tools/ci-regression.sh BASE_REF [bench ab options...]
#   BASE_REF   what to compare against, e.g. origin/main or a commit id
#   options    passed to `bench ab`; default: the quick suite on our two runtimes (and the
#              cases on no backend), system allocator, pairs decided as they come within 10
#              minutes (--budget 10m): what Sources/Gate/README.md measured. Choose what your
#              change touches instead, e.g. --suite quick --workload semaphore --budget 5m.
#   MARKDOWN=gate.md   where the pull-request comment on times is written (default: gate.md);
#                      the one on counts goes beside it (gate-counts.md)
#   CONFIRM_PAIRS=16   fresh pairs for the confirmation of a failing time row (0: none)
#   SCRATCH_PATH=dir   the head's build folder (default: .build in the checkout): a CI that
#                      keeps a build of the same dependencies elsewhere (a cache, another clone)
#                      passes it, and only this package's modules are compiled again
# Example (GitHub Actions): tools/ci-regression.sh origin/main
#   then post gate.md as a comment whatever the status, and fail the job on status 1 or 2.
set -euo pipefail
base_ref=${1:?usage: $0 BASE_REF [bench ab options...]}
shift
[ $# -gt 0 ] || set -- --suite quick --backend fifo-dispatch --backend work-stealing --allocator system --budget 10m
cd "$(dirname "$0")/.."

# A pull request's checkout (GitHub's actions/checkout by default) holds the one head commit at
# depth 1 and no other branch: the base is fetched here, at depth 1 (only its tree is built).
# REMOTE/BRANCH is fetched as that branch of that remote; a commit id from the default remote.
if ! git rev-parse --verify --quiet "$base_ref^{commit}" > /dev/null; then
    remote=${base_ref%%/*} branch=${base_ref#*/}
    if [ "$remote" = "$base_ref" ] || ! git remote get-url "$remote" > /dev/null 2>&1; then
        remote=$(git remote | head -n 1) branch=$base_ref
    fi
    if [ -z "$remote" ]; then
        echo "$0: '$base_ref' is not in this checkout and it has no remote to fetch it from: clone with the base branch (actions/checkout: fetch-depth: 0), or fetch it first" >&2
        exit 2
    fi
    echo "ci-regression: '$base_ref' is not in this checkout; fetching $branch from $remote (depth 1)"
    if [[ $base_ref =~ ^[0-9a-f]{7,40}$ ]]; then
        git fetch --quiet --no-tags --depth 1 "$remote" "$base_ref" || true
    else
        git fetch --quiet --no-tags --depth 1 "$remote" "+refs/heads/$branch:refs/remotes/$remote/$branch" || true
    fi
    git rev-parse --verify --quiet "$base_ref^{commit}" > /dev/null || {
        echo "$0: could not fetch '$base_ref' from $remote: give a branch of the remote (e.g. origin/main) or a commit it has, or check out with the base (actions/checkout: fetch-depth: 0)" >&2
        exit 2
    }
fi

# A change outside what the binaries are built from (documentation, tests, baselines, CI) cannot
# change a figure: the head's build then serves as the base too, which saves a release build (two
# minutes on 2 cores) and still runs both passes, an A/A comparison that must pass.
built_from=(Package.swift Sources Plugins)
base_path=.
if ! git diff --quiet "$base_ref" HEAD -- "${built_from[@]}"; then
    base_path=$(mktemp -d)/base
fi
cleanup() { [ "$base_path" = . ] || { git worktree remove --force "$base_path" 2> /dev/null || true; rm -rf "$(dirname "$base_path")"; }; }
trap cleanup EXIT

if [ "$base_path" = . ]; then
    echo "ci-regression: the base ($(git rev-parse --short "$base_ref")) and the head ($(git rev-parse --short HEAD)) build from the same ${built_from[*]}: one build serves both"
else
    git worktree add --quiet --detach "$base_path" "$base_ref"
    echo "ci-regression: building the base ($(git rev-parse --short "$base_ref")) and the head ($(git rev-parse --short HEAD))"
fi
head_scratch=(${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})
base_scratch=("${head_scratch[@]}")
[ "$base_path" = . ] || base_scratch=()
for product in bench RuntimeBenchInterposer; do
    if [ "$base_path" != . ]; then
        swift build -c release --product "$product" --package-path "$base_path" || { echo "$0: the base does not build" >&2; exit 2; }
    fi
    swift build -c release --product "$product" "${head_scratch[@]}" || { echo "$0: the head does not build" >&2; exit 2; }
done
base_bench="$(swift build -c release --product bench --package-path "$base_path" "${base_scratch[@]}" --show-bin-path)/bench"
head_bench="$(swift build -c release --product bench "${head_scratch[@]}" --show-bin-path)/bench"

# First the counts, which do not depend on timing: allocations and retains per operation with
# --count-allocations, 2 pairs and one look (the options after "$@" win), only the workloads
# whose counts do not follow the scheduling (Benchmarks/Baselines/smoke-thresholds.json says
# which). One allocation more per operation fails here, exactly; the default selection took 56 s
# on the 2-core VM. A base built before the interposer existed cannot count: that pass is
# skipped with the reason.
markdown=${MARKDOWN:-gate.md}
counts=0
if [ -e "$(dirname "$base_bench")/libRuntimeBenchInterposer.so" ]; then
    "$head_bench" ab --a "$base_bench" --b "$head_bench" --count-allocations --thresholds Benchmarks/Baselines/smoke-thresholds.json \
        --markdown "${markdown%.md}-counts.md" "$@" --budget 10m --pairs 2 --max-pairs 2 --confirm 0 || counts=$?
    echo "ci-regression: counts exited $counts (comment in ${markdown%.md}-counts.md)"
else
    echo "ci-regression: counts not compared: the base has no interposer beside its bench"
fi

# Then the times, pair by pair, within the budget. A row that fails is measured again with
# CONFIRM_PAIRS fresh pairs (default 16) and fails the gate only if it fails again: a case whose
# processes fall into modes can be flagged by one unlucky set of pairs, a real regression is
# flagged twice. It costs time only when something was flagged (Sources/Gate/README.md).
status=0
"$head_bench" ab --a "$base_bench" --b "$head_bench" --markdown "$markdown" --confirm "${CONFIRM_PAIRS:-16}" "$@" || status=$?
echo "ci-regression: times exited $status (0 no regression, 1 regression, 2 an unusable binary or file, 64 a bad option); comment in $markdown"
# The worse of the two: 64 or 2 before 1 before 0.
for code in 64 2 1; do [ "$counts" -eq "$code" ] || [ "$status" -eq "$code" ] && exit "$code"; done
exit 0
