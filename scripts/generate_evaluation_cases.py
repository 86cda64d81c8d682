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

With TOFU_LENS_ORACLE_DIR set, every case goes through `tofu validate -json`
(no `init`: the cases need no provider or module) and through `tofu-lens
check --format json`, and errors are compared by (file, line, summary). The
oracle's answers are cached in OUT/oracle-cache.json by the case's text, so a
second run (a new tofu-lens) costs only tofu-lens's time.

usage: scripts/generate_evaluation_cases.py TOFU_LENS_BINARY [--count N] [--seed S] [--out DIR]
"""
import collections
import hashlib
import json
import os
import random
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import oracle_or_say, take_option, tofu_lens_errors, validate  # noqa: E402

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


def write(case_dir, files):
    for name, text in files.items():
        with open(os.path.join(case_dir, name), "w") as f:
            f.write(text)


def theirs(tofu, case_dir):
    """OpenTofu's errors as [file name, line, summary], sorted (None without JSON)."""
    found = validate(tofu, case_dir)
    return None if found is None else sorted([os.path.basename(f), line, summary] for f, line, summary in found)


def ours_by_dir(binary, root):
    """tofu-lens's errors under root, per case directory, as theirs()."""
    return {
        directory: sorted([os.path.basename(f), line, summary] for f, line, summary in found)
        for directory, found in tofu_lens_errors(binary, [root]).items()
    }


def main():
    args = sys.argv[1:]
    count = int(take_option(args, "--count", "5000"))
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
    cache_path = os.path.join(out, "oracle-cache.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    cases = []
    for index in range(count):
        files, kinds = case(rng)
        case_dir = os.path.join(root, f"case{index:05}")
        os.makedirs(case_dir)
        write(case_dir, files)
        digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()
        cases.append((case_dir, digest, kinds))
    missing = [(d, h) for d, h, _ in cases if h not in cache]
    print(f"{count} cases, {len(missing)} not in the oracle cache", flush=True)

    def run(item):
        case_dir, digest = item
        return digest, theirs(tofu, case_dir)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for n, (digest, found) in enumerate(pool.map(run, missing), start=1):
            cache[digest] = found
            if n % 250 == 0:
                json.dump(cache, open(cache_path, "w"))
                print(f"  oracle: {n}/{len(missing)}", flush=True)
    json.dump(cache, open(cache_path, "w"))
    ours = ours_by_dir(binary, root)
    n_agree = 0
    by_kind = collections.Counter()
    agree_by_kind = collections.Counter()
    report = []
    for case_dir, digest, kinds in cases:
        their = cache.get(digest)
        our = sorted(ours.get(os.path.normpath(case_dir), []))
        same = their is not None and their == our
        n_agree += same
        for kind in set(kinds):
            by_kind[kind] += 1
            agree_by_kind[kind] += same
        if not same:
            report.append(f"{case_dir}:\n  OpenTofu:  {their}\n  tofu-lens: {our}")
    with open(os.path.join(out, "mismatches.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    for kind in sorted(by_kind):
        print(f"  {kind:20} {agree_by_kind[kind]:5}/{by_kind[kind]:5}")
    print(f"agreeing on file, line and summary: {n_agree}/{count} ({100 * n_agree / count:.2f} %); mismatches in {out}/mismatches.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
