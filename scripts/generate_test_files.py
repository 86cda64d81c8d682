#!/usr/bin/env python3
"""Seeded generator of test files (`*.tftest.hcl`, `*.tofutest.hcl`), judged by `tofu validate`.

Each case is one module (variables, a local value, a `terraform_data`
resource and an output, so that no provider is needed) with one to three
test files in the directory and in `tests/`, sometimes a `.tofutest.hcl`
twin hiding a `.tftest.hcl` file, a hidden or backup name, or a file in a
directory OpenTofu does not read. Each test file is built from blocks that
are right or carry one mistake: unknown arguments and block types, `command`
and `mode` keywords (bare, quoted, unknown), `refresh = false` in
refresh-only mode, repeated `variables` / `plan_options` blocks, run names,
`expect_failures`, `replace` and `target` addresses, override and mock
blocks with their targets, labels and duplicates, `assert` blocks with
constant conditions or missing arguments, `provider` blocks.

With TOFU_LENS_ORACLE_DIR set, every case is validated by OpenTofu
(`tofu validate -json`, no init: the module needs no provider) and checked
by `tofu-lens check` once for all cases. A case agrees when both report the
same set of (file, line, severity, summary) for errors and warnings;
tofu-lens's `test-would-fail` warnings are left out (they say what only
`tofu test` reports). Prints the agreement and the classes of disagreement.

usage: scripts/generate_test_files.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR]
"""
import collections
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    Disagreements,
    in_parallel,
    row,
    scratch_copy,
    start_generated_run,
    tofu_lens_check,
    validate_json,
    write_case,
)

MODULE = """variable "name" {
  type    = string
  default = "x"
}

variable "size" {
  type    = number
  default = 1
}

locals {
  greeting = "hello ${var.name}"
}

resource "terraform_data" "a" {
  input = local.greeting
}

output "out" {
  value = terraform_data.a.output
}
"""

RUN_NAMES = ["one", "two", "setup", "_x", "with-dash", "bad name", "1st", "one"]
COMMANDS = ["plan", "apply", '"plan"', "destroy", "Plan", "var.name"]
MODES = ["normal", "refresh-only", '"normal"', "bogus"]
REFERENCES = [
    "var.name", "var.size", "output.out", "terraform_data.a", "terraform_data.a.output",
    "local.greeting", "check.c", '"var.name"', "var.name[0]", "module.m", "data.terraform_data.d",
    "terraform_data.b", "run.one",
]
TARGETS = ["terraform_data.a", "terraform_data.a[0]", "data.terraform_data.d", "var.name", "module.m", '"x"', "output.out"]
CONDITIONS = ["var.name == \"x\"", "output.out == \"hello x\"", "true", "terraform_data.a.input != \"\"", "length(local.greeting) > 0"]
TYPOS = {"command": "comand", "expect_failures": "expect_failure", "condition": "conditon", "error_message": "error_msg",
         "mode": "mod", "refresh": "refesh", "target": "targets", "values": "value", "defaults": "default"}


def maybe_typo(rng, name):
    return TYPOS.get(name, name + "x") if rng.random() < 0.05 else name


def lst(rng, pool):
    return "[" + ", ".join(rng.sample(pool, rng.randint(1, 2))) + "]"


def assert_block(rng):
    lines = ["  assert {"]
    if rng.random() < 0.93:
        lines.append(f"    {maybe_typo(rng, 'condition')} = {rng.choice(CONDITIONS)}")
    if rng.random() < 0.9:
        lines.append(f"    {maybe_typo(rng, 'error_message')} = \"failed\"")
    lines.append("  }")
    return lines


def plan_options(rng):
    lines = ["  plan_options {"]
    if rng.random() < 0.6:
        lines.append(f"    {maybe_typo(rng, 'mode')} = {rng.choice(MODES)}")
    if rng.random() < 0.4:
        lines.append(f"    {maybe_typo(rng, 'refresh')} = {rng.choice(['true', 'false'])}")
    if rng.random() < 0.3:
        lines.append(f"    replace = {lst(rng, TARGETS)}")
    if rng.random() < 0.3:
        lines.append(f"    {maybe_typo(rng, 'target')} = {lst(rng, TARGETS)}")
    lines.append("  }")
    return lines


def override(rng, kind, indent="  "):
    target = rng.choice(TARGETS if kind != "override_module" else ["module.m", "terraform_data.a", "module.m[0]"])
    lines = [f"{indent}{kind} {{"]
    if rng.random() < 0.93:
        lines.append(f"{indent}  {maybe_typo(rng, 'target')} = {target}")
    field = "outputs" if kind == "override_module" else "values"
    if rng.random() < 0.5:
        lines.append(f"{indent}  {maybe_typo(rng, field) if field == 'values' else field} = {{}}")
    lines.append(f"{indent}}}")
    return lines


def run_block(rng):
    name = rng.choice(RUN_NAMES)
    header = f'run "{name}" {{' if rng.random() < 0.97 else rng.choice(["run {", f'run "{name}" "extra" {{'])
    lines = [header]
    if rng.random() < 0.6:
        lines.append(f"  {maybe_typo(rng, 'command')} = {rng.choice(COMMANDS)}")
    if rng.random() < 0.3:
        lines.append(f"  expect_failures = {lst(rng, REFERENCES)}")
    if rng.random() < 0.05:
        lines.append("  bogus = 1")
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        lines += plan_options(rng)
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        lines += ["  variables {", f"    {rng.choice(['name', 'size', 'undeclared'])} = \"v\"", "  }"]
    for _ in range(rng.randint(0, 2)):
        lines += assert_block(rng)
    if rng.random() < 0.15:
        lines += override(rng, rng.choice(["override_resource", "override_data", "override_module"]))
    if rng.random() < 0.03:
        lines += ["  expect {}"]
    lines.append("}")
    return lines


def mock_provider(rng):
    label = rng.choice(['"terraform"', '"aws"', '"terraform"'])
    lines = [f"mock_provider {label} {{"]
    if rng.random() < 0.2:
        alias = rng.choice(['"mock"', '"bad alias"', '"x"'])
        lines.append(f"  alias = {alias}")
    for _ in range(rng.randint(0, 2)):
        kind = rng.choice(["mock_resource", "mock_data"])
        lines += [f'  {kind} "{rng.choice(["terraform_data", "aws_instance"])}" {{']
        if rng.random() < 0.5:
            lines.append(f"    {maybe_typo(rng, 'defaults')} = {rng.choice(['{}', '{ a = 1 }', '1'])}")
        lines.append("  }")
    if rng.random() < 0.2:
        lines += override(rng, rng.choice(["override_resource", "override_data"]))
    lines.append("}")
    return lines


def test_file(rng):
    blocks = []
    for _ in range(rng.randint(1, 4)):
        pick = rng.random()
        if pick < 0.55:
            blocks.append(run_block(rng))
        elif pick < 0.68:
            blocks.append(["variables {", f"  {rng.choice(['name', 'size', 'other'])} = \"v\"", "}"])
        elif pick < 0.76:
            blocks.append(['provider "terraform" {}'] if rng.random() < 0.8 else ['provider "bad name" {}'])
        elif pick < 0.88:
            blocks.append(mock_provider(rng))
        elif pick < 0.96:
            blocks.append(override(rng, rng.choice(["override_resource", "override_data", "override_module"]), indent=""))
        else:
            blocks.append([rng.choice(["bogus = 1", "resource \"terraform_data\" \"x\" {}", "runs \"x\" {}"])])
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


NAMES = ["main.tftest.hcl", "a.tftest.hcl", "a.tofutest.hcl", "tests/b.tftest.hcl", "tests/b.tofutest.hcl",
         "tests/c.tftest.hcl", ".hidden.tftest.hcl", "deeper/d.tftest.hcl", "tests/deeper/e.tftest.hcl"]


def case(rng):
    files = {"main.tf": MODULE}
    for name in rng.sample(NAMES, rng.randint(1, 3)):
        files[name] = test_file(rng)
    return files


def theirs(tofu, case_dir):
    with scratch_copy(case_dir) as work:
        diagnostics = validate_json(tofu, work) or []
    found = set()
    for d in diagnostics:
        r = row(d)
        found.add((r.file if d.get("range") else "-", r.line, r.severity, r.summary))
    return found


def ours(binary, root):
    """tofu-lens's diagnostics for every case under root: {case: {(file, line, severity, summary)}}."""
    by_case = collections.defaultdict(set)
    for d in tofu_lens_check(binary, cwd=root):
        if d["severity"] not in ("error", "warning") or d["code"] == "test-would-fail":
            continue
        r = row(d)
        parts = os.path.normpath(r.file).split(os.sep)
        by_case[parts[0]].add((os.sep.join(parts[1:]), r.line, r.severity, r.summary))
    return by_case


def main():
    defaults = [("--count", "3000"), ("--seed", "35"), ("--keep", None)]
    run = start_generated_run("generate_test_files", __doc__, defaults, prefix="tofu-lens-test-files")
    if isinstance(run, int):
        return run
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    names = [f"case-{i:05d}" for i in range(int(options["--count"]))]
    for name in names:
        write_case(os.path.join(root, name), case(rng))
    verdicts = dict(zip(names, in_parallel(lambda name: theirs(tofu, os.path.join(root, name)), names)))
    mine = ours(binary, root)
    agreeing = 0
    n_theirs = 0
    summaries = collections.Counter()
    disagreements = Disagreements(options["--keep"])
    for name in names:
        their, our = verdicts[name], mine.get(name, set())
        n_theirs += len(their)
        summaries.update(summary for _, _, _, summary in their)
        if their == our:
            agreeing += 1
            continue
        disagreements.add(os.path.join(root, name), our, their, summary=lambda e: e[3])
    print(f"cases: {len(names)}, agreeing: {agreeing} ({100 * agreeing / max(len(names), 1):.2f} %), "
          f"OpenTofu diagnostics in all: {n_theirs}, of {len(summaries)} summaries")
    for summary, n in summaries.most_common():
        print(f"{n:7} {summary}")
    disagreements.print()
    if not options["--keep"]:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
