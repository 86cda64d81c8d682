#!/usr/bin/env python3
"""Seeded generator of modules whose mistakes lie across declarations,
judged by OpenTofu's `tofu validate -json`.

Issue 44's acceptance: a value is written in one declaration and misused
in another, so only a tool that lets values flow through the module, as
validate's graph walk does, sees the mistake. Each chain of a case is

    head  ->  link  ->  ...  ->  link  ->  sink

- the head gives a known value (or, from an input variable, an unknown
  value of the variable's declared type), written in a native file, a
  `.tofu` file that hides a `.tf` file of the same name, a JSON file, or
  in a base file that an override file redefines (the effective value is
  the override's);
- 1 to 4 links pass it on unchanged (`local.p`, `[local.p][0]`,
  `{ v = local.p }.v`, a conditional), each local value in a file of its
  own choosing;
- the sink misuses it: a local value, an output, an output's or a
  resource's precondition, a variable's validation, a module argument, a
  resource's or a module call's `count` or `for_each`, a resource's
  `lifecycle.enabled`, or a child module that gets
  the value through its call (validate gives a child's variables no
  value: silent in both); a local value's or an output's sink is written
  in a JSON file sometimes (a `"${...}"` template);
- in the provider series (`--provider-count`), the sink may also be an
  argument of a hashicorp/time or openstack resource (the schema's type,
  or the provider's own validator), or a call of the time provider's
  function `rfc3339_parse` (a value it rejects, a wrong argument type, an
  attribute its result does not have).

Every chain takes its value from the pool's mistake or from the pool's
near miss (the value that passes) with even odds, so the near-miss twins
must stay silent in both tools. A case holds one to three chains.

Every case directory is judged where it is: a local child's module
manifest (`.terraform/modules/modules.json`, what `tofu init` writes for
a local source) is written beside it, and the provider series links
`.terraform/providers` to one directory `tofu init -plugin-dir` filled
once with both providers (TOFU_LENS_PROVIDER_PLUGINS names the plugin
directory, as for the Rust tests). OpenTofu's errors and tofu-lens's (one `check --format json`
over all cases) are compared by (file, line, summary);
"Invalid value for input variable" by summary alone (OpenTofu places it
on the child's variable, tofu-lens on the argument, by design). OpenTofu's
answers are cached in OUT/oracle-cache.json by the case's text.

usage: scripts/generate_flow_cases.py TOFU_LENS_BINARY [--count N] [--provider-count N] [--seed S] [--out DIR]
"""
import collections
import json
import os
import random
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    AnswerCache,
    digest,
    init,
    oracle_or_say,
    take_option,
    validate_json,
    where_and_what,
    write_case,
)
from generate_evaluation_cases import comparable, ours_by_case  # noqa: E402

# Operations on a value: (name, mistake value, near-miss value, sink
# expression over {r}, the sinks it suits). Values are Python values,
# written as HCL or JSON.
VALUE_SINKS = ("local", "output", "module argument", "precondition", "validation", "child")
OPERATIONS = [
    ("invalid index", ["a", "b"], ["a", "b", "c", "d", "e", "f"], "{r}[5]", VALUE_SINKS),
    ("missing attribute", {"a": 1}, {"a": 1, "b": 2}, "{r}.b", VALUE_SINKS),
    ("attribute of null", None, {"a": "x"}, "{r}.a", VALUE_SINKS),
    ("function argument type", ["x"], "x", "upper({r})", VALUE_SINKS),
    ("function argument null", None, [], "length({r})", VALUE_SINKS),
    ("operand", "abc", "12", "{r} + 1", VALUE_SINKS),
    ("function error", 300, 3, 'cidrsubnet("10.0.0.0/8", 8, {r})', VALUE_SINKS),
    ("conversion", "two", "2", "tonumber({r})", VALUE_SINKS),
    ("condition type", "maybe", True, "{r} ? 1 : 2", VALUE_SINKS),
    ("for over a number", 1, [1], "[for x in {r} : x]", VALUE_SINKS),
    ("element of empty", [], ["a"], "element({r}, 0)", VALUE_SINKS),
    ("splat of a string", "s", [{"id": 1}], "{r}[*].id", VALUE_SINKS),
    ("template of a list", ["a"], "a", '"x-${{{r}}}"', VALUE_SINKS),
    ("key of a tuple", ["a"], {"k": "a"}, '{r}["k"]', VALUE_SINKS),
    ("condition result", "maybe", True, "{r}", ("precondition", "output precondition")),
    ("condition false", False, True, "{r}", ("output precondition",)),
    ("count string", "two", 2, "{r}", ("count", "module count")),
    ("count negative", -1, 1, "{r}", ("count", "module count")),
    ("count fraction", 1.5, 2, "{r}", ("count", "module count")),
    ("count null", None, 0, "{r}", ("count", "module count")),
    ("for_each list", ["a", "b"], {"a": "x"}, "{r}", ("for_each", "module for_each")),
    ("for_each string", "a", {"a": "x", "b": "y"}, "{r}", ("for_each", "module for_each")),
    ("for_each null", None, {}, "{r}", ("for_each", "module for_each")),
    ("for_each set of null", [None], ["a"], "toset({r})", ("for_each", "module for_each")),
    ("enabled not a bool", "maybe", True, "{r}", ("enabled",)),
    ("enabled null", None, False, "{r}", ("enabled",)),
]
# Typed input variables as heads: (name, type, operation with {r}, the
# mistake's type, the near miss's type). Validate gives a root variable an
# unknown value of its declared type.
TYPED = [
    ("list given to upper", "upper({r})", "list(string)", "string"),
    ("attribute of a list", "{r}.name", "list(string)", "object({ name = string })"),
    ("object attribute not declared", "{r}.nope", "object({ name = string })", "map(string)"),
    ("number given to keys", "keys({r})", "number", "map(string)"),
    ("bool given to length", "length({r})", "bool", "list(string)"),
    ("string index of a number", "{r}[0]", "number", "list(number)"),
    ("for over a bool", "[for x in {r} : x]", "bool", "set(string)"),
]
# hashicorp/time resources, an argument each, judged by the schema (type)
# or by the provider's own validator.
PROVIDER = [
    ("argument type", "time_offset", "offset_days", ["x"], 3, ""),
    ("argument type", "time_static", "rfc3339", {"a": 1}, "2024-01-01T00:00:00Z", ""),
    ("argument type", "time_sleep", "create_duration", ["1s"], "1s", ""),
    ("provider validator", "time_rotating", "rotation_days", 0, 2, ""),
    ("provider validator", "time_static", "rfc3339", "yesterday", "2024-01-01T00:00:00Z", ""),
    ("provider validator", "time_sleep", "create_duration", "1 second", "1s", ""),
    ("map argument type", "time_static", "triggers", ["a"], {"a": "b"}, ""),
    ("argument type", "openstack_networking_network_v2", "mtu", ["a"], 1500, ""),
    (
        "provider validator",
        "openstack_networking_secgroup_rule_v2",
        "direction",
        "sideways",
        "ingress",
        '  ethertype         = "IPv4"\n  security_group_id = "x"\n',
    ),
]
# Provider-defined functions of hashicorp/time on a chain's value: (name,
# mistake value, near-miss value, the call over {r}).
PROVIDER_FUNCTIONS = [
    ("value the provider rejects", "yesterday", "2024-01-01T00:00:00Z", "provider::time::rfc3339_parse({r})"),
    ("argument type", ["x"], "2024-01-01T00:00:00Z", "provider::time::rfc3339_parse({r})"),
    ("attribute of the result", "yeer", "year", 'provider::time::rfc3339_parse("2024-01-01T00:00:00Z").{r}'),
]
REQUIRED = {
    "time": '    time = {\n      source  = "hashicorp/time"\n      version = "0.14.2"\n    }\n',
    "openstack": (
        '    openstack = {\n      source  = "terraform-provider-openstack/openstack"\n'
        '      version = "3.4.0"\n    }\n'
    ),
}
LINKS = ["{p}", "({p})", "[{p}][0]", "{{ v = {p} }}.v", "true ? {p} : {p}"]
FILES = ["main.tf", "locals.tf", "values.tf", "more.tofu", "outputs.tf"]
CHILD = 'variable "a" {\n  default = null\n}\n\nvariable "n" {\n  type    = number\n  default = 0\n}\n'


def hcl(value):
    """A Python value written as an HCL expression."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(hcl(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k} = {hcl(v)}" for k, v in value.items()) + " }"


class Module:
    """A module being written: native files as lists of blocks, JSON files
    as objects."""

    def __init__(self):
        self.blocks = collections.defaultdict(list)
        self.json_locals = {}
        self.json_sinks = {}
        self.child = None
        self.providers = set()

    def local(self, name, expression, file):
        self.blocks[file].append(f"locals {{\n  {name} = {expression}\n}}\n")

    def block(self, text, file):
        self.blocks[file].append(text)

    def files(self):
        files = {name: "\n".join(blocks) for name, blocks in self.blocks.items()}
        if self.json_locals:
            files["values.tf.json"] = {"locals": self.json_locals}
        if self.json_sinks:
            files["sinks.tf.json"] = self.json_sinks
        if self.child is not None:
            files["child/main.tf"] = self.child
        if self.providers:
            entries = "".join(REQUIRED[name] for name in sorted(self.providers))
            files["versions.tf"] = f"terraform {{\n  required_providers {{\n{entries}  }}\n}}\n"
        return files


def head(module, rng, chain, value, kinds):
    """Writes the chain's head with `value`; returns the reference to it."""
    name = f"{chain}_h"
    placement = rng.random()
    if placement < 0.15 and not isinstance(value, float):
        kinds.append("head in JSON")
        module.json_locals[name] = value
    elif placement < 0.3:
        # A base file and an override file that redefines the value; the
        # base holds the other pool's value.
        kinds.append("head overridden")
        other = rng.choice([["z"], {"z": 1}, "z", 7, None])
        module.local(name, hcl(other), rng.choice(["main.tf", "locals.tf"]))
        module.local(name, hcl(value), rng.choice(["override.tf", "values_override.tf"]))
    elif placement < 0.4:
        # values.tofu hides values.tf, which says something else.
        kinds.append("head in a .tofu file hiding a .tf file")
        module.local(name, hcl(value), "shadow.tofu")
        module.local(name, hcl(["hidden"]), "shadow.tf")
    else:
        module.local(name, hcl(value), rng.choice(FILES))
    return f"local.{name}"


def links(module, rng, chain, reference):
    """1 to 4 local values that pass `reference` on; the last reference."""
    for index in range(rng.randint(1, 4)):
        name = f"{chain}_l{index}"
        module.local(name, rng.choice(LINKS).format(p=reference), rng.choice(FILES))
        reference = f"local.{name}"
    return reference


def sink(module, rng, chain, where, expression, kinds):
    """Writes the sink `where` with `expression` (which reads the chain)."""
    kinds.append(f"sink: {where}")
    file = rng.choice(FILES)
    if where in ("local", "output") and rng.random() < 0.15:
        # Written in JSON: a template string, as OpenTofu reads it.
        kinds.append("sink in JSON")
        if where == "local":
            module.json_sinks.setdefault("locals", {})[f"{chain}_s"] = f"${{{expression}}}"
        else:
            module.json_sinks.setdefault("output", {})[chain] = {"value": f"${{{expression}}}"}
    elif where == "local":
        module.local(f"{chain}_s", expression, file)
    elif where == "output":
        module.block(f'output "{chain}" {{\n  value = {expression}\n}}\n', file)
    elif where == "output precondition":
        module.block(
            f'output "{chain}" {{\n  value = 1\n\n  precondition {{\n    condition     = {expression}\n'
            f'    error_message = "no"\n  }}\n}}\n',
            file,
        )
    elif where == "precondition":
        condition = expression if expression.endswith(("}", ")")) and "?" not in expression else f"{expression} != null"
        module.block(
            f'resource "terraform_data" "{chain}" {{\n  lifecycle {{\n    precondition {{\n'
            f'      condition     = {condition}\n      error_message = "no"\n    }}\n  }}\n}}\n',
            file,
        )
    elif where == "validation":
        module.block(
            f'variable "{chain}" {{\n  type    = string\n  default = "x"\n\n  validation {{\n'
            f'    condition     = var.{chain} != "" && {expression} != null\n    error_message = "no"\n'
            f"  }}\n}}\n",
            file,
        )
    elif where == "enabled":
        module.block(
            f'resource "terraform_data" "{chain}" {{\n  lifecycle {{\n    enabled = {expression}\n  }}\n}}\n', file
        )
    elif where in ("count", "for_each"):
        module.block(f'resource "terraform_data" "{chain}" {{\n  {where} = {expression}\n}}\n', file)
    else:
        ensure_child(module)
        if where == "module argument":
            body = f"  a      = {expression}"
        elif where == "module count":
            body = f"  count  = {expression}"
        elif where == "module for_each":
            body = f"  for_each = {expression}"
        else:  # child: the value goes in, the child misuses it
            body = f"  a      = {expression}"
        module.block(f'module "{chain}" {{\n  source = "./child"\n{body}\n}}\n', file)


def ensure_child(module):
    if module.child is None:
        module.child = CHILD


def value_chain(module, rng, chain, kinds):
    """A chain from a known value to a sink."""
    name, bad, good, operation, sinks = rng.choice(OPERATIONS)
    mistake = rng.random() < 0.5
    kinds.append(f"{name}: {'mistake' if mistake else 'near miss'}")
    reference = links(module, rng, chain, head(module, rng, chain, bad if mistake else good, kinds))
    where = rng.choice(sinks)
    if where == "child":
        # The child misuses its variable; the caller gives the value.
        ensure_child(module)
        module.child += f"\nlocals {{\n  {chain}_seen = {operation.format(r='var.a')}\n}}\n"
        expression = reference
    else:
        expression = operation.format(r=reference)
    sink(module, rng, chain, where, expression, kinds)


def typed_chain(module, rng, chain, kinds):
    """A chain from a typed input variable to a local value or an output."""
    name, operation, bad, good = rng.choice(TYPED)
    mistake = rng.random() < 0.5
    kinds.append(f"typed variable, {name}: {'mistake' if mistake else 'near miss'}")
    module.block(f'variable "{chain}" {{\n  type = {bad if mistake else good}\n}}\n', rng.choice(["variables.tf", "main.tf"]))
    reference = links(module, rng, chain, f"var.{chain}")
    sink(module, rng, chain, rng.choice(["local", "output"]), operation.format(r=reference), kinds)


def provider_chain(module, rng, chain, kinds):
    """A chain from a known value to an argument of a time or openstack
    resource."""
    name, resource, argument, bad, good, rest = rng.choice(PROVIDER)
    mistake = rng.random() < 0.5
    kinds.append(f"provider {name} ({resource}.{argument}): {'mistake' if mistake else 'near miss'}")
    reference = links(module, rng, chain, head(module, rng, chain, bad if mistake else good, kinds))
    module.providers.add(resource.split("_")[0])
    module.block(f'resource "{resource}" "{chain}" {{\n  {argument} = {reference}\n{rest}}}\n', rng.choice(FILES))


def function_chain(module, rng, chain, kinds):
    """A chain from a known value to a call of a provider-defined function,
    in a local value or an output (in a child module sometimes)."""
    name, bad, good, call = rng.choice(PROVIDER_FUNCTIONS)
    mistake = rng.random() < 0.5
    kinds.append(f"provider function, {name}: {'mistake' if mistake else 'near miss'}")
    module.providers.add("time")
    if name == "attribute of the result":
        expression = call.format(r=bad if mistake else good)
    else:
        expression = call.format(r=links(module, rng, chain, head(module, rng, chain, bad if mistake else good, kinds)))
    sink(module, rng, chain, rng.choice(["local", "output"]), expression, kinds)


def case(rng, providers=False):
    """One module: its files by name, and the kinds of what it holds."""
    module = Module()
    kinds = []
    for index in range(rng.randint(1, 3)):
        chain = f"c{index}"
        draw = rng.random()
        if providers and draw < 0.45:
            provider_chain(module, rng, chain, kinds)
        elif providers and draw < 0.6:
            function_chain(module, rng, chain, kinds)
        elif draw < 0.8:
            value_chain(module, rng, chain, kinds)
        else:
            typed_chain(module, rng, chain, kinds)
    return module.files(), kinds, module.child is not None, module.providers


def prepare(case_dir, child, providers, template):
    """What `tofu init` would have left: the local child's manifest and
    the installed providers."""
    terraform = os.path.join(case_dir, ".terraform")
    os.makedirs(terraform, exist_ok=True)
    if child:
        manifest = {"Modules": [{"Key": "", "Source": "", "Dir": "."}]}
        for name in sorted(os.listdir(case_dir)):
            if name.endswith((".tf", ".tofu")):
                with open(os.path.join(case_dir, name)) as f:
                    for line in f:
                        if line.startswith('module "'):
                            key = line.split('"')[1]
                            manifest["Modules"].append({"Key": key, "Source": "./child", "Dir": "child"})
        os.makedirs(os.path.join(terraform, "modules"), exist_ok=True)
        with open(os.path.join(terraform, "modules", "modules.json"), "w") as f:
            json.dump(manifest, f)
    if providers:
        os.symlink(os.path.join(template, ".terraform", "providers"), os.path.join(terraform, "providers"))
        shutil.copy(os.path.join(template, ".terraform.lock.hcl"), case_dir)


def provider_template(tofu, out):
    """One directory `tofu init -plugin-dir` filled with hashicorp/time."""
    plugins = os.environ.get("TOFU_LENS_PROVIDER_PLUGINS")
    if not plugins or not os.path.isdir(plugins):
        return None
    template = os.path.join(out, "template")
    if os.path.isdir(os.path.join(template, ".terraform", "providers")):
        return template
    module = Module()
    module.providers = set(REQUIRED)
    write_case(template, module.files())
    done = init(tofu, template, "-backend=false", f"-plugin-dir={plugins}")
    if done.returncode != 0:
        sys.exit(f"generate_flow_cases: tofu init -plugin-dir={plugins} failed:\n{done.stderr}")
    return template


def theirs(tofu, case_dir):
    """OpenTofu's errors in the case, where it is: [file, line, summary]."""
    diagnostics = validate_json(tofu, case_dir)
    if diagnostics is None:
        return None
    errors = set()
    for d in diagnostics:
        if d.get("severity") != "error":
            continue
        r = d.get("range")
        if not r:
            errors.add(("-", 0, d["summary"]))
        else:
            errors.add((r["filename"], *where_and_what(r, d)))
    return sorted(list(e) for e in errors)


def main():
    args = sys.argv[1:]
    count = int(take_option(args, "--count", "9000"))
    provider_count = int(take_option(args, "--provider-count", "1000"))
    seed = int(take_option(args, "--seed", "44"))
    out = take_option(args, "--out", "/tmp/tofu-lens-flow-cases")
    if len(args) != 1:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("generate_flow_cases")
    if tofu is None:
        return 0
    binary = os.path.abspath(args[0])
    os.makedirs(out, exist_ok=True)
    template = provider_template(tofu, out) if provider_count else None
    if provider_count and template is None:
        print("generate_flow_cases: no TOFU_LENS_PROVIDER_PLUGINS directory: the provider series is left out")
        provider_count = 0
    root = os.path.join(out, "cases")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    cache = AnswerCache(os.path.join(out, "oracle-cache.json"))
    cases = []
    series = [(random.Random(seed), count, "case", False), (random.Random(seed + 1), provider_count, "provider", True)]
    for rng, n, prefix, providers in series:
        for index in range(n):
            files, kinds, child, uses_providers = case(rng, providers)
            case_dir = os.path.join(root, f"{prefix}{index:05}")
            write_case(case_dir, files)
            prepare(case_dir, child, uses_providers, template)
            cases.append((case_dir, digest(files), kinds))
    missing = [(d, h) for d, h, _ in cases if h not in cache]
    print(f"{len(cases)} cases, {len(missing)} not in the oracle cache", flush=True)

    def run(item):
        case_dir, key = item
        return key, theirs(tofu, case_dir)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for n, (key, found) in enumerate(pool.map(run, missing), start=1):
            cache.put(key, found)
            if n % 500 == 0:
                cache.save()
                print(f"  oracle: {n}/{len(missing)}", flush=True)
    cache.save()
    ours = ours_by_case(binary, root, [case_dir for case_dir, _, _ in cases])
    n_agree = 0
    by_kind = collections.Counter()
    agree_by_kind = collections.Counter()
    report = []
    for case_dir, key, kinds in cases:
        their = comparable(cache.get(key))
        our = comparable(ours.get(os.path.normpath(case_dir), []))
        same = their is not None and their == our
        n_agree += same
        for kind in set(kinds):
            by_kind[kind] += 1
            agree_by_kind[kind] += same
        if not same:
            report.append(f"{case_dir}: {kinds}\n  OpenTofu:  {their}\n  tofu-lens: {our}")
    with open(os.path.join(out, "mismatches.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    for kind in sorted(by_kind):
        print(f"  {kind:60} {agree_by_kind[kind]:5}/{by_kind[kind]:5}")
    n_errors = sum(bool(cache.get(key)) for _, key, _ in cases)
    print(f"{n_errors} of {len(cases)} cases hold an error in OpenTofu's answer")
    print(
        f"agreeing on file, line and summary: {n_agree}/{len(cases)} ({100 * n_agree / len(cases):.2f} %); "
        f"mismatches in {out}/mismatches.txt"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
