#!/usr/bin/env python3
"""Effective-configuration differential: `tofu-lens show --format json`
against OpenTofu's own loader.

For every module directory under the given roots, a small Go program built
against OpenTofu's source (it calls `configs.NewParser(...).LoadConfigDir`
and prints the merged module: each block, and for each attribute and nested
block the file and line of the definition OpenTofu kept after override
merging) is compared with tofu-lens's effective configuration: the same
blocks, and for each attribute the same file and line. The `terraform` block
is left out (OpenTofu keeps no per-attribute ranges for it).

The program lives outside the repository: TOFU_LENS_ORACLE_DIR names a
directory holding an `effective-config` binary. Without it this says so and
stops. Exits 0: it is a report, not a test.

usage: scripts/effective_diff.py TOFU_LENS_BINARY ROOT...
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import TIMEOUT, module_dirs, oracle_or_say  # noqa: E402


# What the oracle program does not print: meta blocks inside resources and
# variables, and check blocks. Blocks of these kinds are left out on both sides.
NOT_PRINTED = {
    "lifecycle", "provisioner", "connection", "validation", "precondition",
    "postcondition", "check",
}


def flatten(blocks, prefix, out, nested_key):
    """{(block path, attribute): (file, line)} for blocks and nested blocks."""
    counts = {}
    for block in blocks:
        if nested_key:
            kind = block["kind"]
            counts[kind] = counts.get(kind, 0) + 1
            path = f"{prefix}/{kind}#{counts[kind]}"
        else:
            path = block.get("address") or block["kind"]
        if path == "terraform" or block["kind"] in NOT_PRINTED:
            continue
        if not nested_key and block["kind"] == "locals" and not block.get("attributes"):
            continue
        out.setdefault(path, {})
        attributes = block.get("attributes", {})
        if isinstance(attributes, dict):
            items = ((name, where) for name, where in attributes.items())
        else:
            items = ((a["name"], a["from"]) for a in attributes)
        for name, where in items:
            out[path][name] = (where["file"], where["line"])
        flatten(block.get("blocks", []), path, out, True)
    return out


def theirs(program, directory):
    result = subprocess.run([program, directory], capture_output=True, text=True, timeout=TIMEOUT)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return None
    if not report.get("loaded"):
        return None
    return flatten(report.get("blocks", []), "", {}, False)


def ours(binary, directory):
    result = subprocess.run(
        [binary, "show", "--format", "json", directory], capture_output=True, text=True
    )
    try:
        return flatten(json.loads(result.stdout), "", {}, False)
    except json.JSONDecodeError:
        return None


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    program = oracle_or_say("effective_diff", "effective-config")
    if program is None:
        return 0
    binary, roots = args[0], args[1:]
    n_dirs = n_agree = n_attrs = n_attrs_agree = n_skipped = 0
    for directory in module_dirs(roots):
        their_config = theirs(program, directory)
        our_config = ours(binary, directory)
        if their_config is None or our_config is None:
            n_skipped += 1
            continue
        n_dirs += 1
        problems = []
        for path in sorted(set(their_config) | set(our_config)):
            if path not in our_config:
                problems.append(f"  only OpenTofu: block {path}")
                continue
            if path not in their_config:
                problems.append(f"  only tofu-lens: block {path}")
                continue
            mine, reference = our_config[path], their_config[path]
            for name in sorted(set(mine) | set(reference)):
                n_attrs += 1
                if mine.get(name) == reference.get(name):
                    n_attrs_agree += 1
                else:
                    problems.append(
                        f"  {path}.{name}: tofu-lens {mine.get(name)}, OpenTofu {reference.get(name)}"
                    )
        if problems:
            print(f"{directory}:")
            print("\n".join(problems))
        else:
            n_agree += 1
    print(
        f"directories compared: {n_dirs} (skipped, OpenTofu could not load: {n_skipped}), "
        f"agreeing: {n_agree}; attributes: {n_attrs}, same definition: {n_attrs_agree}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
