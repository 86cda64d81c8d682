#!/usr/bin/env python3
"""Compares two `tofu providers schema -json` documents as JSON values and
prints every path where they differ (or nothing, exit 0, when equal).

    scripts/compare_schemas.py OURS.json THEIRS.json

OURS is what tofu-lens read (`cargo run -p tofu-schema --example
read_schema ADDRESS EXECUTABLE`), THEIRS what `tofu providers schema -json`
printed. Keys tofu-lens adds for what OpenTofu's output drops
(`provider_meta`, a function's `description_kind` / `deprecation_message`,
a parameter's `allow_unknown_values`) are ignored.
"""
import json
import sys

EXTRA_KEYS = {"provider_meta", "allow_unknown_values"}


def differences(ours, theirs, path, out):
    if isinstance(ours, dict) and isinstance(theirs, dict):
        for key in sorted(set(ours) | set(theirs)):
            here = path + [key]
            if key not in theirs and (key in EXTRA_KEYS or (
                    "functions" in path and key in ("description_kind", "deprecation_message"))):
                continue
            if key not in ours:
                out.append(("missing in ours", here, theirs[key]))
            elif key not in theirs:
                out.append(("extra in ours", here, ours[key]))
            else:
                differences(ours[key], theirs[key], here, out)
    elif isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        for index, (left, right) in enumerate(zip(ours, theirs)):
            differences(left, right, path + [str(index)], out)
    elif ours != theirs:
        out.append(("differs", path, (ours, theirs)))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as ours_file, open(sys.argv[2]) as theirs_file:
        ours, theirs = json.load(ours_file), json.load(theirs_file)
    out = []
    differences(ours, theirs, [], out)
    for kind, path, value in out[:50]:
        print(f"{kind}: {'.'.join(path)}: {json.dumps(value)[:200]}")
    if len(out) > 50:
        print(f"... and {len(out) - 50} more")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
