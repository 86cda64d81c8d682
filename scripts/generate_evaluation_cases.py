#!/usr/bin/env python3
"""Seeded generator of modules with function and evaluation mistakes, judged by OpenTofu.

Each case is one module directory: a variable or two (with and without
defaults, typed), a few local values and outputs whose expressions come from
a pool of mistakes `tofu validate` reports while evaluating (unknown and
misspelt functions, too few or too many arguments, arguments of the wrong
type, errors inside a function, invalid operands, indexes and attributes on
known values, inconsistent conditional types, `for` over a non-iterable
value, files that do not exist, `provider::` functions of providers the module
does not require) and of near-misses that must stay silent (the same calls on
unknown input variables, inside `try`/`can`, on the branch a known condition
does not take, files that exist). Sometimes a local value feeds another, so
an error reaches a dependent.

A second series (`--module-count`, its own seeded stream, so the first
series and its cached answers stay as they were) puts the same expressions
in the arguments of a call of a local module `./child`: an argument that
reads a failing local value, an argument with an undeclared reference beside
others, a call whose `count` fails, `count.index` and `each.value` in
arguments, an argument the child does not declare, a constant of the wrong
type for a typed variable ("Invalid value for input variable" is compared
by summary alone: OpenTofu places it on the child's variable, tofu-lens on
the argument, by design).

With TOFU_LENS_ORACLE_DIR set, every case goes through `tofu validate -json`
(no `init` for the first series, which needs no provider or module; `tofu
init` offline first for the module series) and through `tofu-lens check
--format json`, and errors are compared by (file, line, summary). The
oracle's answers are cached in OUT/oracle-cache.json by the case's text, so a
second run (a new tofu-lens) costs only tofu-lens's time.

usage: scripts/generate_evaluation_cases.py TOFU_LENS_BINARY [--count N] [--module-count N] [--seed S] [--out DIR]
"""
import collections
import os
import random
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    AnswerCache,
    digest,
    oracle_or_say,
    take_option,
    tofu_lens_errors,
    validate,
    write_case,
)

# (kind, expression): what validate should report, or "silent".
MISTAKES = [
    ("unknown function", "uppper(var.name)"),
    ("unknown function", "lenght([1, 2])"),
    ("unknown function", "jsonencod({ a = 1 })"),
    ("unknown function", "tostrng(1)"),
    ("unknown function", "nosuchfunction()"),
    ("unknown function", "core::nosuch(1)"),
    ("arity", "length()"),
    ("arity", "upper()"),
    ("arity", "jsonencode({ a = 1 }, 2)"),
    ("arity", "join(\",\")"),
    ("arity", "cidrsubnet(\"10.0.0.0/8\", 8)"),
    ("argument type", "tonumber(\"abc\")"),
    ("argument type", "tobool(\"maybe\")"),
    ("argument type", "length(1)"),
    ("argument type", "upper([1])"),
    ("argument type", "keys(\"x\")"),
    ("argument type", "max(\"a\", 1)"),
    ("argument type", "abs(\"x\")"),
    ("function error", "cidrsubnet(\"10.0.0.0/8\", 8, 300)"),
    ("function error", "cidrhost(\"10.0.0.0/30\", 9)"),
    ("function error", "element([], 0)"),
    ("function error", "regex(\"[\", \"x\")"),
    ("function error", "jsondecode(\"{\")"),
    ("function error", "timeadd(\"yesterday\", \"1h\")"),
    ("function error", "formatdate(\"YYY\", \"2024-01-01T00:00:00Z\")"),
    ("function error", "base64decode(\"!!\")"),
    ("function error", "index([\"a\"], \"b\")"),
    ("function error", "range(1, 2, 0)"),
    ("function error", "zipmap([\"a\"], [1, 2])"),
    ("file", "file(\"nope.txt\")"),
    ("file", "filebase64(\"missing/x.bin\")"),
    ("file", "templatefile(\"nope.tftpl\", {})"),
    ("file", "templatefile(\"greeting.tftpl\", {})"),
    ("operand", "\"a\" + 1"),
    ("operand", "true && \"x\""),
    ("operand", "-\"x\""),
    ("operand", "!1"),
    ("operand", "1 / \"b\""),
    ("index", "[1, 2][5]"),
    ("index", "{ a = 1 }[\"b\"]"),
    ("index", "\"s\"[0]"),
    ("index", "[1, 2][\"x\"]"),
    ("attribute", "{ a = 1 }.b"),
    ("attribute", "tolist([1]).x"),
    ("conditional", "true ? [1] : \"x\""),
    ("conditional", "1 ? 2 : 3"),
    ("conditional", "\"maybe\" ? 1 : 2"),
    ("for", "[for x in 1 : x]"),
    ("for", "{ for k, v in { a = 1, b = 2 } : \"same\" => v }"),
    ("for", "[for x in [1, 2] : x if \"yes\"]"),
    ("splat", "\"x\"[*].y"),
    ("provider function", "provider::nosuch::f(1)"),
    ("template", "\"${[1]}\""),
    ("template", "\"%{ for x in 1 }${x}%{ endfor }\""),
]

NEAR_MISSES = [
    ("silent", "upper(var.name)"),
    ("silent", "cidrsubnet(var.cidr, 8, 300)"),
    ("silent", "tonumber(var.name)"),
    ("silent", "try(tonumber(\"abc\"), 0)"),
    ("silent", "can(cidrsubnet(\"10.0.0.0/8\", 8, 300))"),
    ("silent", "false ? tonumber(\"x\") : 1"),
    ("silent", "true ? 1 : element([], 0)"),
    ("silent", "file(\"${path.module}/data.txt\")"),
    ("silent", "fileexists(\"nope.txt\")"),
    ("silent", "templatefile(\"greeting.tftpl\", { name = \"x\" })"),
    ("silent", "fileset(path.module, \"*.txt\")"),
    ("silent", "length(var.names)"),
    ("silent", "[for x in var.names : upper(x)]"),
    ("silent", "var.names[5]"),
    ("silent", "jsonencode({ a = var.name })"),
    ("silent", "formatdate(\"YYYY\", timestamp())"),
    ("silent", "uuid()"),
    ("silent", "\"${var.name}-x\""),
    ("silent", "coalesce(var.name, \"d\")"),
    ("silent", "lookup({ a = 1 }, \"b\", 2)"),
]

VARIABLES = '''variable "name" {
  type = string
}

variable "cidr" {
  type = string
}

variable "names" {
  type    = list(string)
  default = []
}
'''


def case(rng):
    """One module: files by name, and the kinds of what it holds."""
    n_values = rng.randint(1, 4)
    lines = [VARIABLES, "locals {"]
    kinds = []
    outputs = []
    names = []
    local_names = []
    for index in range(n_values):
        pool = MISTAKES if rng.random() < 0.6 else NEAR_MISSES
        kind, expression = rng.choice(pool)
        kinds.append(kind)
        name = f"v{index}"
        # Sometimes a value reads an earlier one, so its error reaches a dependent.
        if local_names and rng.random() < 0.2:
            expression = f"[{expression}, local.{rng.choice(local_names)}]"
        if rng.random() < 0.7:
            lines.append(f"  {name} = {expression}")
            local_names.append(name)
        else:
            outputs.append(f'output "{name}" {{\n  value = {expression}\n}}\n')
    lines.append("}\n")
    if local_names and rng.random() < 0.3:
        listed = ", ".join(f"local.{name}" for name in local_names)
        outputs.append(f'output "all" {{\n  value = [{listed}]\n}}\n')
    files = {
        "main.tf": "\n".join(lines) + "\n" + "\n".join(outputs),
        "data.txt": "data\n",
        "greeting.tftpl": "Hello, ${name}!\n",
    }
    return files, kinds


CHILD = '''variable "a" {}
variable "b" {}
variable "c" {}

variable "n" {
  type    = number
  default = 0
}
'''


def module_case(rng):
    """One module calling `./child` with arguments from the pools: files by
    name (the child's too), and the kinds of what it holds."""
    lines = [VARIABLES, "locals {"]
    kinds = []
    local_names = []
    for index in range(rng.randint(0, 2)):
        pool = MISTAKES if rng.random() < 0.5 else NEAR_MISSES
        kind, expression = rng.choice(pool)
        kinds.append(f"local: {kind}")
        lines.append(f"  v{index} = {expression}")
        local_names.append(f"v{index}")
    lines.append("}\n")
    call = ['module "m" {', '  source = "./child"']
    repetition = rng.random()
    if repetition < 0.1:
        call.append("  count  = local.nope")
        kinds.append("call: count fails")
    elif repetition < 0.2:
        call.append("  count  = 2")
    elif repetition < 0.3:
        call.append('  for_each = toset(["x", "y"])')
    for name in ("a", "b", "c"):
        if rng.random() < 0.15:
            continue
        pool = MISTAKES if rng.random() < 0.6 else NEAR_MISSES
        kind, expression = rng.choice(pool)
        shape = rng.random()
        if local_names and shape < 0.2:
            # Reads a local value, which may have failed.
            expression = f"[{expression}, local.{rng.choice(local_names)}]"
            kind += " + local"
        elif shape < 0.3:
            expression = f"[{expression}, {rng.choice(['local.nope', 'var.nope', 'module.nope.x'])}]"
            kind = "undeclared reference"
        elif shape < 0.35:
            expression = rng.choice(["count.index", "each.value", "list(each.key)", "[count.index, list()]"])
            kind = "repetition"
        kinds.append(f"argument: {kind}")
        call.append(f"  {name} = {expression}")
    extra = rng.random()
    if extra < 0.05:
        call.append("  undeclared = 1")
        kinds.append("argument: not declared")
    elif extra < 0.15:
        value = rng.choice(['"abc"', "[1]", "1", "var.name"])
        call.append(f"  n = {value}")
        kinds.append("argument: typed")
    call.append("}\n")
    files = {
        "main.tf": "\n".join(lines) + "\n" + "\n".join(call),
        "data.txt": "data\n",
        "greeting.tftpl": "Hello, ${name}!\n",
        "child/main.tf": CHILD,
    }
    return files, kinds


# Placed on the child's `variable` block by OpenTofu, on the caller's
# argument by tofu-lens, by design (docs/oracle.md, the module tree):
# compared by summary alone.
MOVED = "Invalid value for input variable"


def comparable(errors):
    """Errors as compared: a moved one without its place."""
    if errors is None:
        return None
    return sorted(["*", 0, summary] if summary == MOVED else [f, line, summary] for f, line, summary in errors)


def theirs(tofu, case_dir, init=False):
    """OpenTofu's errors as [file path in the case, line, summary], sorted
    (None without JSON)."""
    found = validate(tofu, case_dir, init)
    return None if found is None else sorted([os.path.relpath(f, case_dir), line, summary] for f, line, summary in found)


def ours_by_case(binary, root, case_dirs):
    """tofu-lens's errors under root, per case directory (its child's
    included), as theirs()."""
    ours = {os.path.normpath(case_dir): [] for case_dir in case_dirs}
    for directory, found in tofu_lens_errors(binary, [root]).items():
        case_dir = directory
        while case_dir not in ours and os.path.dirname(case_dir) != case_dir:
            case_dir = os.path.dirname(case_dir)
        for f, line, summary in found:
            ours.setdefault(case_dir, []).append([os.path.relpath(f, case_dir), line, summary])
    return {case_dir: sorted(found) for case_dir, found in ours.items()}


def main():
    args = sys.argv[1:]
    count = int(take_option(args, "--count", "5000"))
    module_count = int(take_option(args, "--module-count", "1000"))
    seed = int(take_option(args, "--seed", "33"))
    out = take_option(args, "--out", "/tmp/tofu-lens-evaluation-cases")
    if len(args) != 1:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("generate_evaluation_cases")
    if tofu is None:
        return 0
    binary = os.path.abspath(args[0])
    rng = random.Random(seed)
    root = os.path.join(out, "cases")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    cache = AnswerCache(os.path.join(out, "oracle-cache.json"))
    cases = []
    module_rng = random.Random(seed + 1)
    series = [(case, rng, count, "case", False), (module_case, module_rng, module_count, "modcase", True)]
    for make, series_rng, n, prefix, init in series:
        for index in range(n):
            files, kinds = make(series_rng)
            case_dir = os.path.join(root, f"{prefix}{index:05}")
            write_case(case_dir, files)
            cases.append((case_dir, digest(files), kinds, init))
    count = len(cases)
    missing = [(d, h, init) for d, h, _, init in cases if h not in cache]
    print(f"{count} cases, {len(missing)} not in the oracle cache", flush=True)

    def run(item):
        case_dir, key, init = item
        return key, theirs(tofu, case_dir, init)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for n, (key, found) in enumerate(pool.map(run, missing), start=1):
            cache.put(key, found)
            if n % 250 == 0:
                cache.save()
                print(f"  oracle: {n}/{len(missing)}", flush=True)
    cache.save()
    ours = ours_by_case(binary, root, [case_dir for case_dir, _, _, _ in cases])
    n_agree = 0
    by_kind = collections.Counter()
    agree_by_kind = collections.Counter()
    report = []
    n_module_cases = n_module_agree = 0
    for case_dir, key, kinds, init in cases:
        their = comparable(cache.get(key))
        our = comparable(ours.get(os.path.normpath(case_dir), []))
        same = their is not None and their == our
        n_agree += same
        n_module_cases += init
        n_module_agree += init and same
        for kind in set(kinds):
            by_kind[kind] += 1
            agree_by_kind[kind] += same
        if not same:
            report.append(f"{case_dir}:\n  OpenTofu:  {their}\n  tofu-lens: {our}")
    with open(os.path.join(out, "mismatches.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    for kind in sorted(by_kind):
        print(f"  {kind:20} {agree_by_kind[kind]:5}/{by_kind[kind]:5}")
    if n_module_cases:
        print(f"module series: {n_module_agree}/{n_module_cases} ({100 * n_module_agree / n_module_cases:.2f} %)")
    print(f"agreeing on file, line and summary: {n_agree}/{count} ({100 * n_agree / count:.2f} %); mismatches in {out}/mismatches.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
