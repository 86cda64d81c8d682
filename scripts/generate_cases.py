#!/usr/bin/env python3
"""Seeded generator of small modules for differential runs against OpenTofu.

Each case is a directory of one to four files that mixes the rules of one
family: duplicates across .tf/.tofu/JSON, .tofu shadowing, overrides of every
block type in both syntaxes (with forbidden content and missing bases),
language blocks and version constraints, module sources and versions,
variable types and defaults. The same seed gives the same cases.

With TOFU_LENS_ORACLE_DIR set (a directory holding a `tofu` binary), every
case is checked by `tofu validate -json` and by tofu-lens, and the agreement
rate per family is printed with each disagreement class (family, where, and
the summaries on each side). `--keep DIR` writes the disagreeing cases there,
ready to become fixtures once resolved. With `--strict` errors are compared
by their whole range and detail too, as `differential.py --strict` does.

usage: scripts/generate_cases.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR] [--strict]
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402
from differential import (  # noqa: E402
    Disagreements,
    in_parallel,
    start_generated_run,
    tofu_lens_errors,
    validate,
    write_case,
)

NAMES = ["web", "db", "app", "net", "cache"]
TYPES = ["aws_instance", "aws_s3_bucket", "null_resource", "random_id"]


def q(text):
    return json.dumps(text)


def variable(rng, name, json_syntax=False):
    attrs = []
    kind = rng.choice(["string", "number", "bool", "list(string)", "map(number)", "object({a=string})", '"string"', "any", "notatype"])
    default = rng.choice(['"x"', "1", "true", '["a"]', '{a = 1}', "null", None])
    if json_syntax:
        body = {}
        if rng.random() < 0.7:
            body["type"] = kind.strip('"')
        if default is not None and rng.random() < 0.7:
            body["default"] = {"\"x\"": "x", "1": 1, "true": True, '["a"]': ["a"], "{a = 1}": {"a": 1}, "null": None}[default]
        return {"variable": {name: body}}
    if rng.random() < 0.8:
        attrs.append(f"  type = {kind}")
    if default is not None and rng.random() < 0.8:
        attrs.append(f"  default = {default}")
    if rng.random() < 0.2:
        sensitive = rng.choice(["true", "false", '"yes"'])
        attrs.append(f"  sensitive = {sensitive}")
    return f'variable "{name}" {{\n' + "\n".join(attrs) + "\n}\n"


def resource(rng, kind, type_name, name, json_syntax=False, extra=None):
    extra = extra or []
    if json_syntax:
        body = {"ami": "ami-1"} if type_name == "aws_instance" else {}
        for key, value in extra:
            body[key] = value
        return {kind: {type_name: {name: body}}}
    lines = [f'  {key} = {value}' for key, value in extra]
    return f'{kind} "{type_name}" "{name}" {{\n' + "\n".join(lines) + "\n}\n"


def gen_duplicates(rng):
    files = {}
    name = rng.choice(NAMES)
    kinds = rng.sample(["variable", "resource", "output", "module", "locals", "data"], 2)
    for i, kind in enumerate(kinds):
        for j in range(rng.choice([1, 2])):
            syntax = rng.choice(["tf", "tofu", "tf.json"])
            file = f"f{i}{j}.{syntax}"
            js = syntax.endswith("json")
            if kind == "variable":
                content = variable(rng, name, js)
            elif kind in ("resource", "data"):
                content = resource(rng, kind, rng.choice(TYPES[:2]), name, js)
            elif kind == "output":
                content = {"output": {name: {"value": 1}}} if js else f'output "{name}" {{\n  value = 1\n}}\n'
            elif kind == "module":
                content = {"module": {name: {"source": "./m"}}} if js else f'module "{name}" {{\n  source = "./m"\n}}\n'
            else:
                content = {"locals": {name: 1}} if js else f"locals {{\n  {name} = 1\n}}\n"
            files[file] = content
    return files


def gen_shadowing(rng):
    base = rng.choice(["main", "versions", "vars"])
    files = {f"{base}.tf": variable(rng, "a")}
    files[f"{base}.{rng.choice(['tofu', 'tofu.json'])}"] = variable(rng, rng.choice(["a", "b"]), False) if rng.random() < 0.5 else {"variable": {"b": {}}}
    if isinstance(files.get(f"{base}.tofu.json"), str):
        files[f"{base}.tofu.json"] = {"variable": {"b": {}}}
    if rng.random() < 0.5:
        files["other.tf"] = variable(rng, "a")
    return files


def gen_overrides(rng):
    files = {}
    kind = rng.choice(["resource", "data", "variable", "output", "module", "locals", "provider", "terraform", "check", "moved", "import", "language", "removed"])
    name = rng.choice(NAMES)
    base_syntax = rng.choice(["tf", "tf.json"])
    over_syntax = rng.choice(["tf", "tf.json"])
    over_name = rng.choice(["override", "z_override", "main_override"]) + "." + over_syntax
    has_base = rng.random() < 0.8
    js_over = over_syntax.endswith("json")
    if kind in ("resource", "data"):
        if has_base:
            files["main." + base_syntax] = resource(rng, kind, "aws_instance", name, base_syntax.endswith("json"), [("tags", "{}")] if not base_syntax.endswith("json") else [("tags", {})])
        extra = []
        if rng.random() < 0.4:
            extra.append(("depends_on", '["aws_instance.x"]' if not js_over else ["aws_instance.x"]))
        if rng.random() < 0.5:
            extra.append(("instance_type", '"t3.large"' if not js_over else "t3.large"))
        if rng.random() < 0.3:
            extra.append(("count", "2" if not js_over else 2))
        files[over_name] = resource(rng, kind, "aws_instance", name, js_over, extra)
    elif kind == "variable":
        if has_base:
            files["main." + base_syntax] = variable(rng, name, base_syntax.endswith("json"))
        files[over_name] = variable(rng, name, js_over)
    elif kind == "output":
        if has_base:
            files["main.tf"] = f'output "{name}" {{\n  value = 1\n}}\n'
        extra = rng.choice(['  value = 2\n', '  depends_on = []\n', '  description = ""\n', '  depends_on = [var.x]\n'])
        files[over_name] = {"output": {name: {"value": 2}}} if js_over else f'output "{name}" {{\n{extra}}}\n'
    elif kind == "module":
        if has_base:
            files["main.tf"] = f'module "{name}" {{\n  source = "./m"\n}}\n'
        extra = rng.choice(['  source = "./n"\n', '  version = "1.0.0"\n', '  providers = {}\n', '  count = 1\n'])
        files[over_name] = {"module": {name: {"source": "./n"}}} if js_over else f'module "{name}" {{\n{extra}}}\n'
    elif kind == "locals":
        if has_base:
            files["main.tf"] = f"locals {{\n  {name} = 1\n}}\n"
        files[over_name] = {"locals": {rng.choice([name, "other"]): 2}} if js_over else f"locals {{\n  {rng.choice([name, 'other'])} = 2\n}}\n"
    elif kind == "provider":
        alias = rng.choice([None, "east"])
        base_alias = f'  alias = "{alias}"\n' if alias else ""
        if has_base:
            files["main.tf"] = f'provider "aws" {{\n{base_alias}  region = "a"\n}}\n'
        over_alias = f'  alias = "{rng.choice([alias, "west"])}"\n' if alias else ""
        files[over_name] = f'provider "aws" {{\n{over_alias}  region = "b"\n}}\n' if not js_over else {"provider": {"aws": {"region": "b", **({"alias": alias} if alias else {})}}}
    elif kind == "terraform":
        files["main.tf"] = 'terraform {\n  required_providers {\n    aws = {\n      source = "hashicorp/aws"\n    }\n  }\n}\n'
        files[over_name] = rng.choice([
            'terraform {\n  required_providers {\n    aws = {\n      version = "~> 5.0"\n    }\n  }\n}\n',
            'terraform {\n  backend "s3" {\n  }\n}\n',
            'terraform {\n  required_version = ">= 1.0"\n}\n',
        ]) if not js_over else {"terraform": {"required_providers": {"aws": {"version": "~> 5.0"}}}}
    else:
        bodies = {
            "check": 'check "c" {\n  assert {\n    condition     = var.x == 1\n    error_message = "x"\n  }\n}\n',
            "moved": "moved {\n  from = aws_instance.a\n  to   = aws_instance.b\n}\n",
            "import": 'import {\n  to = aws_instance.a\n  id = "i-1"\n}\n',
            "language": "language {\n}\n",
            "removed": "removed {\n  from = aws_instance.a\n  lifecycle {\n    destroy = false\n  }\n}\n",
        }
        files["main.tf"] = 'variable "x" {}\n'
        files["override.tf"] = bodies[kind]
    return files


def gen_versions(rng):
    constraints = ['">= 1.0"', '"~> 1.11.0"', '">= 1.13"', '"1.12.6"', '"!= 1.12.6"', '"banana"', '""', "1", '"< 1.0, >= 2"', '"~> 1"', '">= 1.12.0-beta1"']
    files = {}
    where = rng.choice(["language", "tofu_required", "tf_required", "providers", "module_version"])
    c = rng.choice(constraints)
    if where == "language":
        edition = rng.choice(["", "  edition = tofu2024\n", '  edition = "tofu2024"\n', "  edition = TF2021\n", "  edition = tofu2099\n"])
        experiments = rng.choice(["", "  experiments = []\n", "  experiments = [foo]\n"])
        compat = f"  compatible_with {{\n    opentofu = {c}\n  }}\n" if rng.random() < 0.7 else ""
        files["main.tofu"] = f"language {{\n{edition}{experiments}{compat}}}\n"
    elif where == "tofu_required":
        files["versions.tofu"] = f"terraform {{\n  required_version = {c}\n}}\n"
    elif where == "tf_required":
        files["versions.tf"] = f"terraform {{\n  required_version = {c}\n}}\n"
    elif where == "providers":
        files["versions.tf"] = f'terraform {{\n  required_providers {{\n    aws = {{\n      source  = "hashicorp/aws"\n      version = {c}\n    }}\n  }}\n}}\n'
    else:
        files["main.tf"] = f'module "m" {{\n  source  = "hashicorp/consul/aws"\n  version = {c}\n}}\n'
    return files


def gen_module_sources(rng):
    source = rng.choice(['"./m"', '"../m"', '"m"', '"modules/net"', '"hashicorp/consul/aws"', '"git::https://example.com/x.git"', '"github.com/org/repo"', '"registry.opentofu.org/a/b/c"', '"a/b/c/d"', '""', "var.src", "local.src", '"./m//sub"', '"s3::https://s3.amazonaws.com/b/k.zip"'])
    version = rng.choice([None, '"1.0.0"', '">= 1"', "null", '"x.x.x"'])
    lines = [f"  source = {source}"]
    if version:
        lines.append(f"  version = {version}")
    files = {"main.tf": 'module "m" {\n' + "\n".join(lines) + "\n}\n"}
    if "var." in source:
        files["vars.tf"] = rng.choice(['variable "src" {}\n', 'variable "src" {\n  const = true\n  default = "./m"\n}\n'])
    if "local." in source:
        files["locals.tf"] = rng.choice(['locals {\n  src = "./m"\n}\n', 'locals {\n  src = var.x\n}\nvariable "x" {}\n'])
    return files


def gen_types(rng):
    files = {}
    for i in range(rng.choice([1, 2, 3])):
        files[f"v{i}.{rng.choice(['tf', 'tf', 'tf.json'])}"] = None
    out = {}
    for i, name in enumerate(files):
        out[name] = variable(rng, f"v{i}", name.endswith("json"))
    return out


FAMILIES = {
    "duplicates": gen_duplicates,
    "shadowing": gen_shadowing,
    "overrides": gen_overrides,
    "versions": gen_versions,
    "module-sources": gen_module_sources,
    "types": gen_types,
}


def main():
    defaults = [("--count", "6000"), ("--seed", "16"), ("--keep", None)]
    run = start_generated_run("generate_cases", __doc__, defaults, ["--strict"], "tofu-lens-cases")
    if isinstance(run, int):
        return run
    differential.STRICT = run.flags["--strict"]
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    cases = []
    for i in range(int(options["--count"])):
        family = rng.choice(sorted(FAMILIES))
        case_dir = os.path.join(root, f"{family}-{i:05d}")
        write_case(case_dir, FAMILIES[family](rng))
        cases.append((family, case_dir))
    ours = tofu_lens_errors(binary, [root])
    theirs = in_parallel(lambda case: validate(tofu, case[1]), cases)
    per_family = collections.defaultdict(lambda: [0, 0])
    disagreements = Disagreements(options["--keep"])
    for (family, case_dir), their_errors in zip(cases, theirs):
        if their_errors is None:
            continue
        our_errors = ours.get(case_dir, set())
        per_family[family][1] += 1
        if our_errors == their_errors:
            per_family[family][0] += 1
            continue
        disagreements.add(case_dir, our_errors, their_errors, label=family)
    total_agree = sum(a for a, _ in per_family.values())
    total = sum(n for _, n in per_family.values())
    print(f"cases: {total}, agreeing: {total_agree} ({100 * total_agree / max(total, 1):.1f} %)")
    for family in sorted(per_family):
        agree, n = per_family[family]
        print(f"  {family:15} {agree:5} / {n:5}  {100 * agree / max(n, 1):.1f} %")
    disagreements.print()
    return 0

if __name__ == "__main__":
    sys.exit(main())
