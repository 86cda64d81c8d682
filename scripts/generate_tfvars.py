#!/usr/bin/env python3
"""Seeded generator of variable definitions files, judged by `tofu plan`.

Each case is a module declaring typed variables (in `.tf`, sometimes a
`.tofu` twin, sometimes an override file changing a type) and values for
them in `terraform.tfvars`, `terraform.tfvars.json`, `*.auto.tfvars(.json)`
and named files (`prod.tfvars`, `dev.tfvars.json`): values right or of the
wrong type, for undeclared (misspelt) names, and names set in several files
so that a later file replaces an earlier value.

With TOFU_LENS_ORACLE_DIR set, every case is initialised and planned by
OpenTofu (`tofu plan -json -input=false`), once with the files it reads by
itself and once per named file with `-var-file=NAME`, and checked once by
`tofu-lens check`, which judges every file of the directory at once. What
each plan reports is compared with tofu-lens's diagnostics for the same
files (the automatic files, less the values the named file replaces, plus
the named file):

- "Invalid value for input variable": by detail (it names the variable and
  its declaration). OpenTofu places it on the declaration, tofu-lens on the
  value, the declaration related: by design.
- "Value for undeclared variable": OpenTofu gives no place, shows two in a
  random order and counts the rest ("Values for undeclared variables"); a
  case agrees when the two it shows are among tofu-lens's warnings (same
  name and file) and the count is the same.

usage: scripts/generate_tfvars.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR]
"""
import collections
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    in_parallel,
    init,
    row,
    run_tofu,
    scratch_copy,
    start_generated_run,
    streamed_diagnostics,
    tofu_lens_check,
    write_case,
)
from generate_module_trees import TYPES, json_value, typo  # noqa: E402

NAMES = ["region", "size", "tags", "enabled", "zones", "settings", "cidr", "owner"]
AUTO = ["terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars", "b.auto.tfvars.json", "z.auto.tfvars"]
NAMED = ["prod.tfvars", "dev.tfvars.json"]


def case(rng):
    variables = {name: rng.choice(TYPES) for name in rng.sample(NAMES, rng.randint(1, 6))}
    files = {}
    blocks = [f'variable "{name}" {{\n  type    = {ty[0]}\n  default = null\n}}\n' for name, ty in variables.items()]
    files["variables.tf"] = "\n".join(blocks)
    if rng.random() < 0.15:
        # A .tofu twin hides the .tf file: its types are the ones that count.
        twin = {name: rng.choice(TYPES) for name in variables}
        files["variables.tofu"] = "\n".join(
            f'variable "{name}" {{\n  type    = {ty[0]}\n  default = null\n}}\n' for name, ty in twin.items()
        )
        variables = twin
    if rng.random() < 0.2:
        name = rng.choice(list(variables))
        ty = rng.choice(TYPES)
        files["variables_override.tf"] = f'variable "{name}" {{\n  type = {ty[0]}\n}}\n'
        variables[name] = ty
    wrong = rng.choice([0.0, 0.2, 0.5])
    for file in rng.sample(AUTO + NAMED, rng.randint(1, 4)):
        values = {}
        for name, ty in variables.items():
            if rng.random() < 0.5:
                continue
            bad = ty[2] and rng.random() < wrong
            values[name] = rng.choice(ty[2] if bad else ty[1])
        for _ in range(rng.randint(0, 3) if rng.random() < wrong + 0.1 else 0):
            name = typo(rng, rng.choice(list(variables)))
            if name not in values:
                values[name] = '"x"'
        if file.endswith(".json"):
            files[file] = json.dumps({k: json_value(v) for k, v in values.items()}, indent=2) + "\n"
        else:
            files[file] = "".join(f"{k} = {v}\n" for k, v in values.items())
    return files


UNDECLARED = re.compile(r'does not declare a variable named "([^"]+)" but a value was found in file "([^"]+)"')
COUNT = re.compile(r"(\d+) other variable\(s\)")


def plans(tofu, case_dir, named):
    """OpenTofu's verdict per run: {named file or None: (errors, shown, count)}."""
    verdicts = {}
    with scratch_copy(case_dir) as work:
        init(tofu, work, "-backend=false")
        for run in [None, *named]:
            command = ["plan", "-json", "-input=false", "-no-color", "-refresh=false"]
            if run:
                command.append(f"-var-file={run}")
            out = run_tofu(tofu, command, work)
            errors, shown, count = set(), set(), 0
            for d in streamed_diagnostics(out.stdout):
                if d["summary"] == "Value for undeclared variable":
                    m = UNDECLARED.search(d["detail"])
                    shown.add((m.group(1), m.group(2)) if m else ("?", d["detail"]))
                    count += 1
                elif d["summary"] == "Values for undeclared variables":
                    m = COUNT.search(d["detail"])
                    count += int(m.group(1)) if m else 0
                elif d["severity"] == "error":
                    errors.add((d["summary"], d.get("detail", "")))
            verdicts[run] = (errors, shown, count)
    return verdicts


def ours(binary, case_dir):
    """tofu-lens's diagnostics by file: {file: [(severity, summary, detail, name)]}."""
    by_file = collections.defaultdict(list)
    for d in map(row, tofu_lens_check(binary, cwd=case_dir)):
        if d.severity not in ("error", "warning"):
            continue
        m = UNDECLARED.search(d.detail) or re.search(r"suitable for var\.([\w-]+)", d.detail)
        by_file[d.file].append((d.severity, d.summary, d.detail, m.group(1) if m else None))
    return by_file


def names_in(case_dir, file):
    path = os.path.join(case_dir, file)
    with open(path) as f:
        text = f.read()
    if file.endswith(".json"):
        return set(json.loads(text))
    return {line.split("=")[0].strip() for line in text.splitlines() if "=" in line}


def expected(case_dir, by_file, run):
    """What tofu-lens's diagnostics say `tofu plan` should report for `run`."""
    replaced = names_in(case_dir, run) if run else set()
    errors, undeclared = set(), set()
    for file, found in by_file.items():
        if file not in AUTO and file not in NAMED:
            # An error in the module's own files stops every plan before
            # it reads a value.
            errors.update((summary, detail) for severity, summary, detail, _ in found if severity == "error")
    if errors:
        return errors, undeclared
    for file, found in by_file.items():
        if not (file in AUTO or file == run):
            continue
        for severity, summary, detail, name in found:
            if file != run and name in replaced:
                continue
            if summary == "Value for undeclared variable":
                undeclared.add((name, file))
            elif severity == "error":
                errors.add((summary, detail))
    return errors, undeclared


def agree(verdict, ours_expected):
    their_errors, shown, count = verdict
    our_errors, undeclared = ours_expected
    return their_errors == our_errors and shown <= undeclared and count == len(undeclared)


def main():
    defaults = [("--count", "500"), ("--seed", "31"), ("--keep", None)]
    run = start_generated_run("generate_tfvars", __doc__, defaults, prefix="tofu-lens-tfvars")
    if isinstance(run, int):
        return run
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    cases = []
    for i in range(int(options["--count"])):
        case_dir = os.path.join(root, f"tfvars-{i:05d}")
        write_case(case_dir, case(rng))
        cases.append(case_dir)

    def judge(case_dir):
        named = [f for f in NAMED if os.path.exists(os.path.join(case_dir, f))]
        return case_dir, plans(tofu, case_dir, named), ours(binary, case_dir)

    results = in_parallel(judge, cases)
    runs = agreeing = errors = warnings = 0
    classes = collections.Counter()
    examples = {}
    for case_dir, verdicts, by_file in results:
        for run, verdict in verdicts.items():
            runs += 1
            errors += len(verdict[0])
            warnings += verdict[2]
            mine = expected(case_dir, by_file, run)
            if agree(verdict, mine):
                agreeing += 1
                continue
            k = (
                tuple(sorted(s for s, _ in mine[0] - verdict[0])),
                tuple(sorted(s for s, _ in verdict[0] - mine[0])),
                verdict[2] - len(mine[1]),
            )
            classes[k] += 1
            examples.setdefault(k, f"{case_dir} ({run or 'automatic files'})")
            if options["--keep"]:
                shutil.copytree(case_dir, os.path.join(options["--keep"], os.path.basename(case_dir)), dirs_exist_ok=True)
    print(
        f"cases: {len(results)}, plans: {runs}, agreeing: {agreeing} ({100 * agreeing / max(runs, 1):.2f} %), "
        f"OpenTofu errors in all: {errors}, undeclared-value warnings in all: {warnings}"
    )
    for (only_ours, only_theirs, extra), n in classes.most_common():
        print(f"{n:5} tofu-lens only {list(only_ours)}; OpenTofu only {list(only_theirs)}; undeclared count OpenTofu - tofu-lens: {extra}; e.g. {examples[(only_ours, only_theirs, extra)]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
