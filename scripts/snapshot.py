#!/usr/bin/env python3
"""Snapshot of everything tofu-lens prints, for refactors that must not change it.

Writes into OUT_DIR, for the fixtures (tests/fixtures, tests/conformance,
examples), every module directory of ../shared/corpus, and N generated cases
(the seeded generator of generate_cases.py, written to disk; no oracle needed):

- `check --format json` of each root, one file per root;
- `show --format json` of each module directory.

Run it before and after a change with the same binary options and compare
the two directories with `diff -r`: a refactor that keeps behaviour leaves
no difference.

usage: scripts/snapshot.py TOFU_LENS_BINARY OUT_DIR [--count N] [--seed S]
"""
import hashlib
import os
import random
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from differential import module_dirs, take_option, write_case  # noqa: E402
from generate_cases import FAMILIES  # noqa: E402

REPO = os.path.dirname(HERE)


def run(binary, args, cwd):
    result = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True)
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}"


def name_of(path):
    return hashlib.sha1(path.encode()).hexdigest()[:16]


def main():
    args = sys.argv[1:]
    options = {key: take_option(args, key, default) for key, default in [("--count", "2000"), ("--seed", "16")]}
    if len(args) != 2:
        print(__doc__.strip())
        return 2
    binary, out_dir = os.path.abspath(args[0]), os.path.abspath(args[1])
    os.makedirs(out_dir, exist_ok=True)
    generated = tempfile.mkdtemp(prefix="tofu-lens-snapshot-")
    rng = random.Random(int(options["--seed"]))
    for i in range(int(options["--count"])):
        family = rng.choice(sorted(FAMILIES))
        write_case(os.path.join(generated, f"{family}-{i:05d}"), FAMILIES[family](rng))
    corpus = os.path.join(REPO, "..", "shared", "corpus")
    roots = {
        "fixtures": os.path.join(REPO, "tests"),
        "examples": os.path.join(REPO, "examples"),
        "corpus": corpus,
        "generated": generated,
    }
    jobs = []
    for label, root in roots.items():
        if not os.path.isdir(root):
            print(f"snapshot: {root} is missing, skipped", file=sys.stderr)
            continue
        jobs.append((f"check-{label}.txt", ["check", "--format", "json", "."], root))
        for directory in module_dirs([root]):
            relative = os.path.relpath(directory, root)
            jobs.append((f"show-{label}-{name_of(relative)}.txt", ["show", "--format", "json", relative], root))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outputs = pool.map(lambda job: (job[0], run(binary, job[1], job[2])), jobs)
        for name, text in outputs:
            with open(os.path.join(out_dir, name), "w") as f:
                f.write(text)
    print(f"snapshot: {len(jobs)} outputs in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
