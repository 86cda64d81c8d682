#!/usr/bin/env python3
"""Seeded generator of modules for the reference rules, judged by OpenTofu.

Each case is a small module directory (one to three files, native or JSON
syntax, sometimes with an override file) whose blocks refer to each other:
input variables, local values, `terraform_data` resources with and without
`count` or `for_each`, outputs with preconditions, checks, module calls to
undeclared modules; with references that are misspelt, undeclared, out of
context (`each`, `count`, `self`, `path`, `terraform`), indexed wrongly, in
`depends_on`, in conditions and provisioners, and chains of locals and
resources that may close into cycles. Only what OpenTofu judges without a
provider schema is written (`terraform_data` and its attributes, the
`local-exec` provisioner).

With TOFU_LENS_ORACLE_DIR set (a directory holding a `tofu` binary), every
case is checked by `tofu validate -json` and by `tofu-lens check`, and the
agreement on (file, line, summary) of the errors is printed per family, with
each class of disagreement and an example. A cycle has no place in
OpenTofu's output and its names come in no fixed order: cycles compare by
their sorted names alone. `--keep DIR` writes the disagreeing cases there.

usage: scripts/generate_references.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR] [--strict]
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    Disagreements,
    cycle_summary,
    has_place_or_none,
    in_parallel,
    row,
    scratch_copy,
    start_generated_run,
    tofu_lens_check,
    validate_json,
    write_case,
)

NAMES = ["web", "db", "app", "net", "cache", "queue"]


def typo(rng, name):
    """A misspelling within edit distance 1 or 2, or a different name."""
    choice = rng.random()
    if choice < 0.35 and len(name) > 2:
        i = rng.randrange(len(name) - 1)
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if choice < 0.7:
        return name + rng.choice(["s", "x", "_1"])
    return rng.choice(["nope", "missing", "other_thing", "zz"])


class Module:
    """The declarations a case makes, and the references it may write."""

    def __init__(self, rng):
        self.rng = rng
        self.variables = rng.sample(NAMES, rng.randint(1, 3))
        self.locals = rng.sample(["name", "tags", "size", "zone", "mode"], rng.randint(1, 3))
        self.resources = {}
        for name in rng.sample(NAMES, rng.randint(1, 3)):
            self.resources[name] = rng.choice(["single", "single", "count", "for_each"])
        self.validations = {}

    def good(self):
        rng = self.rng
        kind = rng.choice(["var", "local", "resource", "path", "terraform"])
        if kind == "var":
            return f"var.{rng.choice(self.variables)}"
        if kind == "local":
            return f"local.{rng.choice(self.locals)}"
        if kind == "resource":
            name = rng.choice(list(self.resources))
            shape = self.resources[name]
            key = {"single": "", "count": "[0]", "for_each": '["a"]'}[shape]
            return f"terraform_data.{name}{key}.{rng.choice(['output', 'id', 'input'])}"
        if kind == "path":
            return f"path.{rng.choice(['module', 'root', 'cwd'])}"
        return "terraform.workspace"

    def bad(self, place):
        """A reference OpenTofu rejects (or not, in some places)."""
        rng = self.rng
        kind = rng.choice(
            ["var", "local", "resource", "data", "module", "each", "count", "self", "path", "terraform", "key", "nokey", "countattr", "eachattr"]
        )
        if kind == "var":
            return f"var.{typo(rng, rng.choice(self.variables))}"
        if kind == "local":
            return f"local.{typo(rng, rng.choice(self.locals))}"
        if kind == "resource":
            return f"terraform_data.{typo(rng, rng.choice(list(self.resources)))}.output"
        if kind == "data":
            return f"data.terraform_remote_state.{rng.choice(NAMES)}.outputs"
        if kind == "module":
            return f"module.{rng.choice(NAMES)}.out"
        if kind == "each":
            return rng.choice(["each.key", "each.value"])
        if kind == "count":
            return "count.index"
        if kind == "self":
            return "self.output"
        if kind == "path":
            return f"path.{rng.choice(['modul', 'here', 'rot'])}"
        if kind == "terraform":
            return f"terraform.{rng.choice(['workspaces', 'env', 'version'])}"
        if kind == "eachattr":
            return "each.item"
        if kind == "countattr":
            return "count.value"
        name = rng.choice(list(self.resources))
        shape = self.resources[name]
        if kind == "key":
            return f"terraform_data.{name}[0].output" if shape == "single" else f"terraform_data.{name}.output"
        return f"terraform_data.{name}.count"

    def expr(self, place, n_bad):
        rng = self.rng
        parts = [self.good() for _ in range(rng.randint(0, 2))]
        parts += [self.bad(place) for _ in range(n_bad)]
        rng.shuffle(parts)
        if not parts:
            return '"constant"'
        form = rng.random()
        if form < 0.4:
            return "[" + ", ".join(parts) + "]"
        if form < 0.7:
            return '"' + "-".join("${jsonencode(" + p + ")}" for p in parts) + '"'
        if form < 0.85:
            return "{ " + ", ".join(f"k{i} = {p}" for i, p in enumerate(parts)) + " }"
        return f"[for x in [1] : [{', '.join(parts)}, x]]"


def native_case(rng, family):
    m = Module(rng)
    bad_rate = {"clean": 0.0, "undeclared": 0.35, "contexts": 0.35, "cycles": 0.1, "mixed": 0.25}[family]

    def n_bad():
        return 1 if rng.random() < bad_rate else 0

    blocks = []
    for name in m.variables:
        body = "  type = any\n  default = null\n"
        if rng.random() < 0.25:
            other = m.expr("validation", n_bad())
            body += f"  validation {{\n    condition     = var.{name} == null || length({other}) > 0\n    error_message = \"bad\"\n  }}\n"
        blocks.append(f'variable "{name}" {{\n{body}}}\n')
    local_lines = []
    for i, name in enumerate(m.locals):
        if family == "cycles" and rng.random() < 0.6:
            target = rng.choice(m.locals + list(m.resources))
            ref = f"local.{target}" if target in m.locals else f"terraform_data.{target}"
            if target in m.resources and m.resources[target] != "single":
                ref += "[*]" if m.resources[target] == "count" else ""
            local_lines.append(f"  {name} = [{ref}]")
        else:
            local_lines.append(f"  {name} = {m.expr('local', n_bad())}")
    blocks.append("locals {\n" + "\n".join(local_lines) + "\n}\n")
    for name, shape in m.resources.items():
        lines = []
        if shape == "count":
            lines.append(f"  count = {rng.choice(['2', 'length(var.' + rng.choice(m.variables) + ' == null ? [1] : [1, 2])'])}")
        elif shape == "for_each":
            lines.append('  for_each = toset(["a", "b"])')
        if family == "cycles" and rng.random() < 0.5:
            target = rng.choice(m.locals)
            lines.append(f"  input = local.{target}")
        else:
            lines.append(f"  input = {m.expr('resource', n_bad())}")
        if rng.random() < 0.3:
            lines.append(f"  triggers_replace = {m.expr('resource', n_bad())}")
        if rng.random() < 0.25:
            others = [f"terraform_data.{o}" for o in m.resources if o != name or family == "mixed"]
            if rng.random() < bad_rate:
                others.append(rng.choice([f"terraform_data.{typo(rng, name)}", f"var.{rng.choice(NAMES)}", "terraform_data.x.output"]))
            if others:
                lines.append(f"  depends_on = [{', '.join(others)}]")
        if rng.random() < 0.25:
            kind = rng.choice(["precondition", "postcondition"])
            lines.append(
                f"  lifecycle {{\n    {kind} {{\n      condition     = length({m.expr('condition', n_bad())}) > 0\n      error_message = \"no\"\n    }}\n  }}"
            )
        if rng.random() < 0.2:
            lines.append(f"  provisioner \"local-exec\" {{\n    command = \"echo ${{jsonencode({rng.choice(['self.output', m.good(), m.bad('provisioner')])})}}\"\n  }}")
        blocks.append(f'resource "terraform_data" "{name}" {{\n' + "\n".join(lines) + "\n}\n")
    for i in range(rng.randint(0, 2)):
        body = f"  value = {m.expr('output', n_bad())}\n"
        if rng.random() < 0.3:
            body += f"  precondition {{\n    condition     = {m.expr('condition', n_bad())} != null\n    error_message = \"no\"\n  }}\n"
        blocks.append(f'output "o{i}" {{\n{body}}}\n')
    if rng.random() < 0.2:
        blocks.append(
            f'check "c" {{\n  assert {{\n    condition     = {m.expr("assert", n_bad())} != null\n    error_message = "no"\n  }}\n}}\n'
        )
    rng.shuffle(blocks)
    files = {}
    n_files = rng.randint(1, 3)
    for i, block in enumerate(blocks):
        name = ["main.tf", "variables.tf", "outputs.tf"][i % n_files]
        files[name] = files.get(name, "") + block
    if family == "mixed" and rng.random() < 0.4:
        # An override that adds a reference, or changes one.
        name = rng.choice(list(m.resources))
        files["override.tf"] = f'resource "terraform_data" "{name}" {{\n  input = {m.expr("override", 1)}\n}}\n'
    return files


def json_case(rng):
    m = Module(rng)

    def template(n_bad):
        parts = [m.good() for _ in range(rng.randint(0, 1))] + [m.bad("json") for _ in range(n_bad)]
        rng.shuffle(parts)
        return "-".join("${jsonencode(" + p + ")}" for p in parts) or "plain"

    doc = {
        "variable": {name: {"default": None} for name in m.variables},
        "locals": {name: template(1 if rng.random() < 0.4 else 0) for name in m.locals},
        "resource": {"terraform_data": {}},
    }
    for name, shape in m.resources.items():
        body = {"input": template(1 if rng.random() < 0.4 else 0)}
        if shape == "count":
            body["count"] = 2
        elif shape == "for_each":
            body["for_each"] = '${toset(["a", "b"])}'
        doc["resource"]["terraform_data"][name] = body
    files = {"main.tf.json": json.dumps(doc, indent=2) + "\n"}
    if rng.random() < 0.4:
        files["extra.tf"] = f"output \"o\" {{\n  value = {m.expr('output', 1 if rng.random() < 0.5 else 0)}\n}}\n"
    return files


def override_case(rng):
    """A module and an override file that changes what it refers to."""
    files = native_case(rng, "undeclared")
    m = Module(rng)
    names = [n for n in NAMES if f'resource "terraform_data" "{n}"' in "".join(files.values())]
    pieces = []
    if names and rng.random() < 0.8:
        name = rng.choice(names)
        pieces.append(f'resource "terraform_data" "{name}" {{\n  input = {m.expr("override", 1 if rng.random() < 0.5 else 0)}\n}}\n')
    if rng.random() < 0.3:
        pieces.append(f'output "only_in_override" {{\n  value = 1\n}}\n')
    if rng.random() < 0.4:
        local_names = [n for n in ["name", "tags", "size", "zone", "mode"] if f"  {n} =" in "".join(files.values())]
        if local_names:
            pieces.append(f"locals {{\n  {rng.choice(local_names)} = {m.expr('override', 1 if rng.random() < 0.5 else 0)}\n}}\n")
    if pieces:
        files[rng.choice(["override.tf", "main_override.tf"])] = "".join(pieces)
    if rng.random() < 0.3 and "main.tf" in files:
        files["main.tofu"] = files.pop("main.tf")
    return files


def check_case(rng):
    """Checks with scoped data sources, and variables validated against others."""
    m = Module(rng)
    blocks = [f'variable "{name}" {{\n  type = any\n  default = null\n}}\n' for name in m.variables]
    other = rng.choice(m.variables)
    blocks.append(
        f'variable "checked" {{\n  default = 1\n  validation {{\n    condition     = var.checked > 0 && {m.expr("validation", 1 if rng.random() < 0.4 else 0)} != null\n    error_message = "no"\n  }}\n}}\n'
    )
    blocks.append(
        'check "c" {\n  data "terraform_remote_state" "s" {\n    backend = "local"\n  }\n  assert {\n'
        f'    condition     = data.terraform_remote_state.s.outputs != null && {m.expr("assert", 1 if rng.random() < 0.3 else 0)} != null\n'
        '    error_message = "no"\n  }\n}\n'
    )
    if rng.random() < 0.5:
        blocks.append('output "scoped" {\n  value = data.terraform_remote_state.s.outputs\n}\n')
    blocks.append("locals {\n" + "\n".join(f"  {n} = {m.expr('local', 1 if rng.random() < 0.3 else 0)}" for n in m.locals) + "\n}\n")
    for name, shape in m.resources.items():
        repeat = {"single": "", "count": "  count = 2\n", "for_each": '  for_each = toset(["a"])\n'}[shape]
        blocks.append(f'resource "terraform_data" "{name}" {{\n{repeat}  input = {m.expr("resource", 1 if rng.random() < 0.3 else 0)}\n}}\n')
    rng.shuffle(blocks)
    return {"main.tf": "".join(blocks)}


FAMILIES = {
    "overrides": override_case,
    "checks": check_case,
    "clean": lambda rng: native_case(rng, "clean"),
    "undeclared": lambda rng: native_case(rng, "undeclared"),
    "contexts": lambda rng: native_case(rng, "contexts"),
    "cycles": lambda rng: native_case(rng, "cycles"),
    "mixed": lambda rng: native_case(rng, "mixed"),
    "json": json_case,
}


STRICT = False


def key(file, line, summary, column=0, detail=""):
    """What two diagnostics must share to agree: file, line and summary; with
    --strict also the column and the detail (but for the "Did you mean" pick,
    which OpenTofu makes in Go's random map order). A cycle has no place and
    its names no order."""
    if summary.startswith("Cycle: "):
        return ("", 0, cycle_summary(summary))
    if not STRICT:
        return (file, line, summary)
    detail = detail.split(" Did you mean")[0]
    return (file, line, summary, column, detail)


def theirs(tofu, case_dir):
    with scratch_copy(case_dir, tree=False) as work:
        diagnostics = validate_json(tofu, work)
    if diagnostics is None:
        return None  # OpenTofu crashed (depends_on = [self] does): not judged.
    found = set()
    # Without the zero-range duplicates OpenTofu adds for a bare `var`.
    for d in map(row, filter(has_place_or_none, diagnostics)):
        if d.severity == "error":
            found.add(key(d.file, d.line, d.summary, d.column, d.detail))
    return found


def ours(binary, case_dir):
    found = set()
    for d in map(row, tofu_lens_check(binary, cwd=case_dir)):
        if d.severity == "error":
            found.add(key(d.file, d.line, d.summary, d.column, d.detail))
    return found


def main():
    defaults = [("--count", "5000"), ("--seed", "26"), ("--keep", None)]
    run = start_generated_run("generate_references", __doc__, defaults, ["--strict"], "tofu-lens-refs")
    if isinstance(run, int):
        return run
    global STRICT
    STRICT = run.flags["--strict"]
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    cases = []
    for i in range(int(options["--count"])):
        family = rng.choice(sorted(FAMILIES))
        case_dir = os.path.join(root, f"{family}-{i:05d}")
        write_case(case_dir, FAMILIES[family](rng))
        cases.append((family, case_dir))

    def judge(case):
        family, case_dir = case
        return family, case_dir, theirs(tofu, case_dir), ours(binary, case_dir)

    results = in_parallel(judge, cases)
    per_family = collections.defaultdict(lambda: [0, 0])
    disagreements = Disagreements(options["--keep"])
    for family, case_dir, their, our in results:
        if their is None:
            continue
        per_family[family][1] += 1
        if their == our:
            per_family[family][0] += 1
            continue
        disagreements.add(case_dir, our, their, label=family)
    agree = sum(a for a, _ in per_family.values())
    total = sum(n for _, n in per_family.values())
    n_errors = sum(len(t) for _, _, t, _ in results if t)
    print(f"cases: {total}, agreeing: {agree} ({100 * agree / max(total, 1):.2f} %), OpenTofu errors in all: {n_errors}")
    for family in sorted(per_family):
        a, n = per_family[family]
        print(f"  {family:12} {a:5} / {n:5}  {100 * a / max(n, 1):.1f} %")
    disagreements.print()
    return 0

if __name__ == "__main__":
    sys.exit(main())
