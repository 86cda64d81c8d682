#!/usr/bin/env python3
"""Seeded generator of modules with function and evaluation mistakes, judged by OpenTofu.

Each case is a module directory (one `main.tf`, sometimes a `present.txt`
for the file functions to read) whose local values and outputs call
built-in functions and operators the way people get them wrong: misspelt
and unknown functions (with `core::` and unknown namespaces), too few or
too many arguments, arguments of the wrong type or value, a function's own
error, invalid operands, indexes and attributes of known values,
inconsistent conditional results, bad `for` expressions, files that are not
there, provider functions of providers the module does not require, a
failing local read by another; and near-misses that must stay silent
(unknown inputs, `try`/`can`, the branch a known condition does not take,
files that are there).

With TOFU_LENS_ORACLE_DIR set (a directory holding a `tofu` binary), every
case is checked by `tofu validate -json` (no init) and by `tofu-lens check`,
and the agreement on (file, line, summary) of the errors is printed per
family (the family of the case's first local), with each class of
disagreement and an example. `--keep DIR` writes the disagreeing cases there.

usage: scripts/generate_validate.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR] [--strict]
"""
import collections
import os
import random
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import differential  # noqa: E402
from differential import oracle_or_say, take_option, tofu_lens_errors, validate  # noqa: E402

# Expressions by family; each is a value for one local. `{v}` is replaced by
# a reference to the input variable (unknown at validate time).
FAMILIES = {
    "unknown-function": [
        'uppper("x")', 'lenght([1])', 'jsonencod({})', "lookupp({}, \"a\")", 'core::uppper("x")',
        'foo::bar(1)', 'toSet([1])', 'substring("abc", 0, 1)', 'timeadd_("2020-01-01T00:00:00Z", "1h")',
    ],
    "arity": [
        "length()", "jsonencode({ a = 1 }, 2)", "upper()", 'join(",")', 'replace("a", "b")',
        "max()", 'format()', 'coalesce()', 'lower("A", "B")', "range()", 'split(",")',
        "merge()", 'concat()', "tostring()", 'cidrhost("10.0.0.0/8")',
    ],
    "arguments": [
        'tonumber("abc")', 'cidrsubnet("10.0.0.0/8", 8, 300)', "element([], 0)", "range(1, 2, 0)",
        'regex("[", "a")', 'base64decode("%%%")', 'jsondecode("{")', 'tobool("yes")',
        'cidrhost("10.0.0.0/30", 9)', 'substr("abc", 5, 1)', 'chunklist([1, 2], -1)',
        'upper(["a"])', 'length(5)', 'keys("x")', 'parseint("zz", 10)', 'pow("a", 2)',
        'formatdate("YYYY", "not a date")', 'csvdecode("a,b\\n1")', 'yamldecode(":")',
        'zipmap(["a"], [1, 2])', 'slice([1, 2], 1, 5)', 'index(["a"], "b")', 'sum([])',
        'abs("x")', 'log(-1, 10)', 'file(".")',
    ],
    "operators": [
        '1 + "a"', "true && 1", '-"x"', '"a" * 2', "[1] + 1", '!"x"', "{} == 1 && 2",
        '5 / "b"', '1 > "c"', "null + 1",
    ],
    "indexes": [
        "[1, 2][5]", "{ a = 1 }.b", '{ a = 1 }["b"]', '"abc"[0]', "[1][-1]", 'tolist(["a"])[3]',
        '{ a = { b = 1 } }.a.c', "[{ a = 1 }][0].b", "null.x", 'toset(["a"])[0]',
    ],
    "conditionals": [
        "true ? 1 : [1]", '"x" ? 1 : 2', "null ? 1 : 2", 'false ? { a = 1 } : "b"',
    ],
    "for": [
        "[for x in 1 : x]", '{ for k, v in { a = 1, b = 1 } : v => k }', "[for x in null : x]",
        '{ for x in ["a", "a"] : x => 1 }', '[for x in "abc" : x]',
    ],
    "files": [
        'file("nope.txt")', 'filebase64("nope.bin")', 'templatefile("nope.tftpl", {})',
        'filesha256("gone.bin")', 'filemd5("gone")', 'file("${path.module}/nope.txt")',
    ],
    "provider-functions": [
        'provider::aws::arn_parse("x")', 'provider::time::rfc3339_parse("2023-01-01T00:00:00Z")',
        'provider::tls::alias::f(1)',
    ],
    "near-miss": [
        "upper({v})", 'try(tonumber("abc"), 0)', 'can(regex("[", "a"))', 'false ? tonumber("x") : 1',
        'file("present.txt")', 'fileexists("nope.txt")', 'try(file("nope.txt"), "")',
        "length({v})", 'cidrsubnet("10.0.0.0/8", 8, 2)', 'jsonencode({ a = 1 })', 'core::upper("x")',
        'templatefile("present.txt", {})', "[for x in [1, 2] : x * 2]", "{v} == \"\" ? 1 : [1]",
        'tonumber({v})', 'file({v})', 'lookup({ a = 1 }, "b", 0)', "[1, 2][{v} == \"\" ? 0 : 1]",
    ],
}


def local_value(rng, family):
    return rng.choice(FAMILIES[family]).replace("{v}", "var.name")


def case(rng):
    """(family, files) of one generated module."""
    families = list(FAMILIES)
    n_locals = rng.randint(1, 4)
    chosen = [rng.choice(families) for _ in range(n_locals)]
    lines = ['variable "name" {', "  type    = string", '  default = "x"', "}", "", "locals {"]
    names = []
    for index, family in enumerate(chosen):
        name = f"l{index}"
        names.append(name)
        lines.append(f"  {name} = {local_value(rng, family)}")
    # A local read by another: its failure silences the reader.
    if rng.random() < 0.3:
        lines.append(f"  chained = local.{names[0]}")
        names.append("chained")
    lines.append("}")
    lines.append("")
    if rng.random() < 0.4:
        lines.append('output "direct" {')
        lines.append(f"  value = {local_value(rng, rng.choice(families))}")
        lines.append("}")
        lines.append("")
    lines.append('output "all" {')
    lines.append("  value = [" + ", ".join(f"local.{name}" for name in names) + "]")
    lines.append("}")
    files = {"main.tf": "\n".join(lines) + "\n"}
    if rng.random() < 0.7:
        files["present.txt"] = "hello\n"
    return chosen[0], files


def main():
    args = sys.argv[1:]
    if "--strict" in args:
        args.remove("--strict")
        differential.STRICT = True
    count = int(take_option(args, "--count", "300"))
    seed = int(take_option(args, "--seed", "1"))
    keep = take_option(args, "--keep")
    if len(args) != 1:
        print(__doc__)
        return 2
    binary = os.path.abspath(args[0])
    tofu = oracle_or_say("generate_validate")
    if tofu is None:
        return 0
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as root:
        families = {}
        dirs = []
        for index in range(count):
            family, files = case(rng)
            directory = os.path.join(root, f"case{index:05}")
            os.makedirs(directory)
            for name, text in files.items():
                with open(os.path.join(directory, name), "w") as out:
                    out.write(text)
            families[directory] = family
            dirs.append(directory)
        with ThreadPoolExecutor(max_workers=2) as pool:
            expected = dict(zip(dirs, pool.map(lambda d: validate(tofu, d), dirs)))
        found = tofu_lens_errors(binary, [root])
        per_family = collections.defaultdict(lambda: [0, 0])
        classes = collections.Counter()
        examples = {}
        for directory in dirs:
            family = families[directory]
            want = expected[directory]
            if want is None:
                continue
            got = found.get(directory, set())
            per_family[family][1] += 1
            if want == got:
                per_family[family][0] += 1
                continue
            for missing in sorted(want - got, key=str):
                key = ("missed", missing[-1])
                classes[key] += 1
                examples.setdefault(key, directory)
            for extra in sorted(got - want, key=str):
                key = ("extra", extra[-1])
                classes[key] += 1
                examples.setdefault(key, directory)
            if keep:
                shutil.copytree(directory, os.path.join(keep, os.path.basename(directory)))
        total = sum(n for _, n in per_family.values())
        agree = sum(a for a, _ in per_family.values())
        print(f"{agree}/{total} cases agree ({100.0 * agree / max(total, 1):.2f} %), seed {seed}")
        for family in sorted(per_family):
            a, n = per_family[family]
            print(f"  {family:20} {a}/{n}")
        for (kind, summary), n in classes.most_common():
            example = examples[(kind, summary)]
            print(f"  {n:5} {kind}: {summary}  e.g. {os.path.basename(example)}:")
            with open(os.path.join(example, "main.tf")) as text:
                print("        " + text.read().replace("\n", "\n        ").rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
