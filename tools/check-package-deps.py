#!/usr/bin/env python3
"""Package.swift's dependency lists against the imports, both ways.

For every Swift target: each module its sources import that belongs to this package or to a
package dependency must be in its dependencies (missing), and each dependency it declares must be
imported by at least one of its sources (unused). A dependency that cannot be imported is exempt
from "unused": an executable target (declared so that it is built before the tests that run it)
and a library linked for its symbols alone (DEPENDED_ON_FOR_LINKING, each with its reason).
The toolchain's own modules (Foundation, Glibc, Testing, ...) are not checked.

Usage: tools/check-package-deps.py [PACKAGE_DIR]. Exit 0 when they agree, 1 with one line per
disagreement, 2 when the manifest cannot be read.
"""
import json
import os
import re
import subprocess
import sys

# target -> {dependency: why it is declared although never imported}. Empty today: add an entry
# only with its reason, e.g. a library whose symbols a C target needs at link time.
DEPENDED_ON_FOR_LINKING: dict[str, dict[str, str]] = {}

# `import X`, `@testable import X`, `import struct X.Y`, `@_exported import X`, `internal import X`.
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)


def dump(package_dir):
    try:
        text = subprocess.run(["swift", "package", "dump-package"], cwd=package_dir, check=True,
                              capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"check-package-deps: could not read the manifest: {error}", file=sys.stderr)
        sys.exit(2)
    return json.loads(text)


def default_path(target):
    folder = "Tests" if target["type"] == "test" else "Sources"
    if target["type"] == "plugin":
        folder = "Plugins"
    return os.path.join(folder, target["name"])


def imports(directory):
    """Module name -> the first file that imports it, over the target's Swift sources."""
    found = {}
    for root, _, files in os.walk(directory):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as source:
                for line in source:
                    match = IMPORT.match(line)
                    if match:
                        found.setdefault(match.group(1), path)
    return found


def dependency_name(dependency):
    for kind in ("byName", "target", "product"):
        if kind in dependency:
            return dependency[kind][0]
    raise ValueError(f"unknown dependency form: {dependency}")


def main():
    package_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    manifest = dump(package_dir)
    targets = {target["name"]: target for target in manifest["targets"]}
    # Modules that a target of this package may import: its own targets and the products of the
    # packages it depends on (a product's module is named as the product here).
    products = {dependency_name(d) for t in manifest["targets"] for d in t["dependencies"] if "product" in d}
    checked = set(targets) | products
    problems = []
    for name, target in targets.items():
        if target["type"] in ("plugin", "binary", "system"):
            continue
        directory = os.path.join(package_dir, target.get("path") or default_path(target))
        imported = imports(directory)
        if not any(f.endswith(".swift") for _, _, files in os.walk(directory) for f in files):
            continue  # a C target: its includes are not modules
        declared = {dependency_name(d) for d in target["dependencies"]}
        for module, path in sorted(imported.items()):
            if module in checked and module != name and module not in declared:
                problems.append(f"{name}: imports {module} ({os.path.relpath(path, package_dir)}) "
                                f"but does not declare it")
        exempt = DEPENDED_ON_FOR_LINKING.get(name, {})
        for module in sorted(declared - set(imported)):
            dependency = targets.get(module)
            if dependency is not None and dependency["type"] == "executable":
                continue  # built before the tests that run it; never imported
            if module in exempt:
                continue
            problems.append(f"{name}: declares {module} but none of its sources imports it")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-package-deps: {len(problems)} disagreement(s) between Package.swift and the imports",
              file=sys.stderr)
        return 1
    print(f"check-package-deps: the dependencies of {len(targets)} targets match their imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
