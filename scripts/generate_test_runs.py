#!/usr/bin/env python3
"""Seeded generator of modules with a test file of `command = plan` runs,
judged by `tofu test -json` (issue 45, part 4).

Each case is a root module of 1 to 4 typed input variables (string,
number, bool, list(string)), with a default or not, now and then a
`validation` rule, now and then valued by `terraform.tfvars`; 0 to 2
local values and 0 to 2 outputs over them; and one test file
(`main.tftest.hcl` in the directory or `tests/`) with a `variables`
block now and then, and 1 to 3 runs with `command = plan`, each with its
own `variables` now and then and 1 to 3 assertions over a variable, a
local value or an output (`output.NAME`), each drawn to hold or to fail,
the message now and then showing the value. Now and then a run leaves a
required variable without a value, or gives a value its validation
rejects (`tofu test` then fails the run before its assertions).

With TOFU_LENS_ORACLE_DIR set, each case is copied to a temporary
directory where OpenTofu runs `tofu init` and `tofu test -json` (no
provider: nothing to install); its answers are cached in OUT by the
case's text. tofu-lens runs `check --format json` over all cases. The
comparison: OpenTofu's "Test assertion failed" diagnostics against
tofu-lens's (a warning of `test-would-fail`), by (file, line, column,
detail); a case agrees when the two sets are equal.

usage: scripts/generate_test_runs.py TOFU_LENS_BINARY [--count N] [--seed S] [--out DIR]
"""
import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    TIMEOUT,
    AnswerCache,
    digest,
    in_parallel,
    init,
    oracle_or_say,
    scratch_copy,
    take_option,
    tofu_env,
    tofu_lens_check,
    write_case,
)

KINDS = ["string", "number", "bool", "list"]
TYPES = {"string": "string", "number": "number", "bool": "bool", "list": "list(string)"}


def value(rng, kind):
    """A value of `kind`, as HCL text, and as Python."""
    if kind == "string":
        v = rng.choice(["web", "db", "a", "prod", ""])
        return json.dumps(v), v
    if kind == "number":
        v = rng.choice([0, 1, 3, 7, 12])
        return str(v), v
    if kind == "bool":
        v = rng.choice([True, False])
        return ("true" if v else "false"), v
    v = rng.choice([[], ["a"], ["a", "b"], ["x", "y", "z"]])
    return json.dumps(v), v


def condition(rng, kind, ref):
    """A condition over `ref` of `kind`, either way."""
    if kind == "string":
        return rng.choice([f'{ref} == "web"', f"length({ref}) > 2", f'startswith({ref}, "d")', f'{ref} != ""'])
    if kind == "number":
        return rng.choice([f"{ref} > 2", f"{ref} % 2 == 1", f"{ref} <= 7", f"{ref} == 0"])
    if kind == "bool":
        return rng.choice([ref, f"!{ref}"])
    return rng.choice([f"length({ref}) > 1", f'contains({ref}, "a")', f"length({ref}) == 0"])


def generate(rng):
    files = {}
    variables = []  # (name, kind, has_default)
    main = []
    tfvars = []
    for index in range(rng.randint(1, 4)):
        name = f"v{index}"
        kind = rng.choice(KINDS)
        has_default = rng.random() < 0.6
        body = [f"  type = {TYPES[kind]}"]
        if has_default:
            body.append(f"  default = {value(rng, kind)[0]}")
        if rng.random() < 0.25:
            body.append(
                f"  validation {{\n    condition     = {condition(rng, kind, f'var.{name}')}\n"
                f'    error_message = "{name}: rule."\n  }}'
            )
        main.append(f'variable "{name}" {{\n' + "\n".join(body) + "\n}\n")
        if rng.random() < 0.3:
            tfvars.append(f"{name} = {value(rng, kind)[0]}")
            has_default = True
        variables.append((name, kind, has_default))
    refs = [(f"var.{name}", kind) for name, kind, _ in variables]
    for index in range(rng.randint(0, 2)):
        name, kind, _ = rng.choice(variables)
        if kind == "string":
            main.append(f'locals {{\n  l{index} = upper(var.{name})\n}}\n')
            refs.append((f"local.l{index}", "string"))
        elif kind == "number":
            main.append(f'locals {{\n  l{index} = var.{name} * 2\n}}\n')
            refs.append((f"local.l{index}", "number"))
        else:
            main.append(f'locals {{\n  l{index} = var.{name}\n}}\n')
            refs.append((f"local.l{index}", kind))
    module_refs = list(refs)
    for index in range(rng.randint(0, 2)):
        ref, kind = rng.choice(module_refs)
        main.append(f'output "o{index}" {{\n  value = {ref}\n}}\n')
        refs.append((f"output.o{index}", kind))
    files["main.tf"] = "\n".join(main)
    if tfvars:
        files["terraform.tfvars"] = "\n".join(tfvars) + "\n"
    test = []
    if rng.random() < 0.5:
        given = rng.sample(variables, rng.randint(1, len(variables)))
        test.append("variables {\n" + "".join(f"  {n} = {value(rng, k)[0]}\n" for n, k, _ in given) + "}\n")
    for index in range(rng.randint(1, 3)):
        body = ["  command = plan"]
        if rng.random() < 0.5:
            given = rng.sample(variables, rng.randint(1, len(variables)))
            body.append("\n  variables {\n" + "".join(f"    {n} = {value(rng, k)[0]}\n" for n, k, _ in given) + "  }")
        for number in range(rng.randint(1, 3)):
            ref, kind = rng.choice(refs)
            message = f"r{index} a{number}"
            if kind in ("string", "number") and rng.random() < 0.5:
                message += f" (${{{ref}}})"
            body.append(
                f"\n  assert {{\n    condition     = {condition(rng, kind, ref)}\n"
                f"    error_message = {json.dumps(message)}\n  }}"
            )
        test.append(f'run "r{index}" {{\n' + "\n".join(body) + "\n}\n")
    where = rng.choice(["main.tftest.hcl", "tests/main.tftest.hcl"])
    files[where] = "\n".join(test)
    return files


def tofu_test(tofu, case_dir):
    """OpenTofu's "Test assertion failed" diagnostics: [file, line, column,
    detail], sorted; None when it printed no JSON."""
    with scratch_copy(case_dir) as work:
        init(tofu, work)
        done = subprocess.run(
            [tofu, "test", "-json", "-no-color"], cwd=work, capture_output=True, text=True,
            env=tofu_env(), timeout=TIMEOUT,
        )
    found, any_json = [], False
    for line in done.stdout.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        any_json = True
        d = message.get("diagnostic") if isinstance(message, dict) else None
        if message.get("type") == "diagnostic" and d and d.get("summary") == "Test assertion failed":
            place = d.get("range") or {}
            found.append([place.get("filename", ""), place.get("start", {}).get("line", 0),
                          place.get("start", {}).get("column", 0), d.get("detail", "")])
    return sorted(found) if any_json else None


def main():
    args = sys.argv[1:]
    count = int(take_option(args, "--count", "300"))
    seed = int(take_option(args, "--seed", "1"))
    out = take_option(args, "--out", "/tmp/tofu-lens-test-runs")
    if len(args) != 1:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("generate_test_runs")
    if tofu is None:
        return 0
    binary = os.path.abspath(args[0])
    rng = random.Random(seed)
    root = os.path.join(out, "cases")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    cache = AnswerCache(os.path.join(out, "oracle-cache.json"))
    cases = []
    for index in range(count):
        files = generate(rng)
        name = f"run{index:05}"
        write_case(os.path.join(root, name), files)
        cases.append((name, digest(files)))
    missing = [(name, key) for name, key in cases if key not in cache]
    print(f"{len(cases)} cases, {len(missing)} not in the oracle cache", flush=True)
    answers = in_parallel(lambda item: tofu_test(tofu, os.path.join(root, item[0])), missing, workers=2)
    for (_, key), answer in zip(missing, answers):
        cache.put(key, answer)
    cache.save()
    agree, failing, shown = 0, 0, 0
    for name, key in cases:
        theirs = cache.get(key)
        if theirs is None:
            continue
        found = tofu_lens_check(binary, cwd=os.path.join(root, name))
        ours = sorted(
            [os.path.normpath(d["file"]), d["range"]["start"]["line"], d["range"]["start"]["column"], d.get("detail", "")]
            for d in found
            if d.get("summary") == "Test assertion failed"
        )
        theirs = sorted([os.path.normpath(f), line, column, detail] for f, line, column, detail in theirs)
        failing += bool(theirs)
        if ours == theirs:
            agree += 1
        elif shown < 10:
            shown += 1
            print(f"{os.path.join(root, name)}:\n  OpenTofu:  {theirs}\n  tofu-lens: {ours}")
    answered = sum(cache.get(key) is not None for _, key in cases)
    print(f"OpenTofu's answers: {answered}/{len(cases)}; {failing} cases with a failing assertion")
    print(f"agreeing: {agree}/{answered} ({100 * agree / max(answered, 1):.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
