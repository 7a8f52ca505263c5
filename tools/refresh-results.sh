#!/usr/bin/env bash
# Refreshes the committed reference run in Results/: builds bench in release, runs the full suite
# into a temporary directory, writes every report from it, and only then replaces Results/ whole
# (results.json, results.csv, report.md, charts/, smaller-is-better.json, and a README with the
# machine's facts). An interrupted or failed run leaves Results/ as it was.
#
#   tools/refresh-results.sh                         the full suite (21 to 27 minutes on 2 cores)
#   tools/refresh-results.sh --suite smoke --into /tmp/results-check
#                                                    try the script quickly, somewhere harmless
#   tools/refresh-results.sh --from RUN/results.json regenerate Results/ from a finished run
#   --allow-failed-cases                             accept a run in which some case failed
#                                                    (bench run exits 1; the report lists them)
#
# Refuses to run with uncommitted changes to tracked files: the run records the commit it was
# built from, and that commit must be what was measured. Run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=full into=Results from="" allow_failed=0
while [ $# -gt 0 ]; do
    case "$1" in
        --suite) suite=$2; shift 2 ;;
        --into) into=$2; shift 2 ;;
        --from) from=$2; shift 2 ;;
        --allow-failed-cases) allow_failed=1; shift ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "refresh-results: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "refresh-results: uncommitted changes to tracked files; commit or stash them so the run's commit is what was measured:" >&2
    git status --short --untracked-files=no >&2
    exit 1
fi
commit=$(git rev-parse HEAD)

swift build -c release --product bench
bench=.build/release/bench

work=$(mktemp -d "${TMPDIR:-/tmp}/refresh-results.XXXXXX")
staging="$into.partial-$$"
trap 'rm -rf "$work" "$staging"' EXIT

if [ -z "$from" ]; then
    echo "refresh-results: bench run --suite $suite at $commit (progress on stderr)"
    status=0
    "$bench" run --suite "$suite" --out "$work/run" || status=$?
    if [ "$status" -eq 1 ] && [ "$allow_failed" -eq 1 ]; then
        echo "refresh-results: some cases failed; kept, as --allow-failed-cases asks (report.md lists them)"
    elif [ "$status" -ne 0 ]; then
        echo "refresh-results: bench run exited $status; $into is left as it was" >&2
        exit 1
    fi
    from="$work/run/results.json"
    origin="\`bench run --suite $suite\` by tools/refresh-results.sh at commit $commit"
else
    origin="an earlier run's results file, reported again by tools/refresh-results.sh --from at commit $commit"
fi

mkdir -p "$(dirname "$into")" "$staging"
"$bench" report "$from" --out "$staging"
# The JMH export repeats every raw sample (9 MB for the full suite): regenerable, so not committed.
rm -f "$staging/jmh-result.json"

# README.md: the machine's facts, read back from the report's environment table.
fact() { sed -n "s/^| $1 | \(.*\) |\$/\1/p" "$staging/report.md" | head -n 1; }
cat > "$staging/README.md" <<README
# Results: the reference run

A run of RuntimeBench's **$(fact suite)** suite, committed so that a newcomer can read what the
benchmarks say without running them for half an hour. Start with [report.md](report.md): its
first screen answers "what should I use?" and gives the dispatch guide's claims their verdicts;
every number in it is computed from [results.json](results.json).

## Where it came from

| | |
| --- | --- |
| made by | $origin |
| measured at commit | $(fact commit) |
| CPU | $(fact CPU), $(fact "online CPUs") online CPUs |
| virtual machine | $(fact "virtual machine") |
| kernel | $(fact kernel) |
| compiler | $(fact compiler) |
| processes per case | $(fact "processes per case"), samples of at least $(fact "minimum sample time") |

Figures from another machine, or from this one under load, will differ: run the suite yourself
(\`swift run -c release bench run --suite quick\` takes about 4 minutes) and read your own
report.md.

## What is here

| file | what |
| --- | --- |
| report.md | what to use, the claims' verdicts, the machine and its counters, the best stride per body cost, a table per family and parameter set, failures |
| charts/ | the report's SVG charts (stride curves, thread scaling, hand-off and notify latency percentiles), readable in light and dark viewers |
| results.json | the whole run, every raw sample (schema versioned): \`bench report results.json --out DIR\` regenerates everything else |
| results.csv | one row per case and metric, for spreadsheets and dataframes |
| jmh-result.json | not committed (it repeats every raw sample): \`bench report results.json --out DIR\` writes it, in JMH's JSON layout for JMH visualizers |
| smaller-is-better.json | \`{name, unit, value}\` per case, for CI dashboards (github-action-benchmark's customSmallerIsBetter) |

## Refreshing it

On a quiet machine, from a clean checkout:

\`\`\`sh
tools/refresh-results.sh          # builds release, runs the full suite (21 to 27 minutes on 2 cores), replaces Results/
\`\`\`

Results/ is replaced only when the run and its report finished; \`bench run\` on its own writes to
bench-results/ (not committed), so no run overwrites this one by accident.
README

rm -rf "$into.old-$$"
if [ -e "$into" ]; then mv "$into" "$into.old-$$"; fi
mv "$staging" "$into"
rm -rf "$into.old-$$"
echo "refresh-results: $into now holds the run ($(ls "$into" | tr '\n' ' '))"
