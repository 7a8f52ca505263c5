#!/usr/bin/env bash
# Checks the package's Swift files (Package.swift, Sources/, Tests/, Benchmarks/, Plugins/ and the
# Examples package: Examples/Package.swift, Examples/Sources/, Examples/Tests/) two ways:
#   - each file is exactly what `swift format` (the toolchain's) makes of it with .swift-format;
#   - no line is longer than .swift-format's lineLength (120), counted in characters, not bytes.
# It names each file that differs and each long line as file:line (its length), and exits 1.
#
# To fix a failure: `tools/check-format.sh --fix` formats the files in place (the same as
# `swift format format --in-place --parallel` over them) and checks again. A line still too long
# is a string literal or a comment, which the formatter leaves as it is: wrap it by hand, keeping
# the string's value exactly (split it with + at a space, or, where one literal is needed, as in
# @Test names, use a multi-line literal whose lines end in a backslash), then run --fix again.
set -euo pipefail
cd "$(dirname "$0")/.."

fix=false
case "${1:-}" in
    --fix) fix=true ;;
    "") ;;
    *) echo "usage: tools/check-format.sh [--fix]" >&2; exit 64 ;;
esac

files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
    find Sources Tests Benchmarks Plugins Examples/Sources Examples/Tests \
        -name '.build*' -prune -o -name '*.swift' -type f -print0 | sort -z
)
files+=(Package.swift Examples/Package.swift)

if $fix; then
    swift format format --in-place --parallel --configuration .swift-format "${files[@]}"
fi

status=0

# The formatter's output for a copy of every file, compared with the file.
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
cp .swift-format "$copy/"
for file in "${files[@]}"; do
    mkdir -p "$copy/$(dirname "$file")"
    cp "$file" "$copy/$file"
done
if ! (cd "$copy" && swift format format --in-place --parallel --configuration .swift-format "${files[@]}"); then
    echo "check-format: swift format failed (see above)" >&2
    exit 1
fi
differing=0
for file in "${files[@]}"; do
    if ! cmp -s "$file" "$copy/$file"; then
        echo "$file: not as swift format lays it out"
        differing=$((differing + 1))
    fi
done
if [ "$differing" -gt 0 ]; then
    echo "check-format: $differing file(s) differ from swift format's output; tools/check-format.sh --fix formats them"
    status=1
fi

# Lines over the limit, in characters (some lines hold ×, …, —, →).
if ! python3 - .swift-format "${files[@]}" <<'EOF'
import json, sys
limit = json.load(open(sys.argv[1]))["lineLength"]
long = 0
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            length = len(line.rstrip("\n"))
            if length > limit:
                print(f"{path}:{number}: {length} columns (at most {limit})")
                long += 1
if long:
    print(f"check-format: {long} line(s) over {limit} columns; wrap them by hand (see this script's header)")
sys.exit(1 if long else 0)
EOF
then
    status=1
fi

if [ "$status" -eq 0 ]; then
    echo "check-format: ${#files[@]} Swift files as swift format lays them out, no line over the limit"
fi
exit "$status"
