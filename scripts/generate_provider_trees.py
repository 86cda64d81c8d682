#!/usr/bin/env python3
"""Seeded generator of module trees for the provider checks across the tree
(issue 35: OpenTofu's `provider_validation.go`), judged by OpenTofu.

Each case is a root module calling one or two local children
(`./modules/X`), a child sometimes calling a grandchild. Every module may
have `required_providers` entries (local names `time`, `clock` for
hashicorp/time, `openstack`, sometimes twice the same source, sometimes
with `configuration_aliases`), provider blocks (empty or configuring
something, with an alias or not, with `for_each`), resources naming a
configuration (with an instance key or not); a child sometimes has a
`backend` or an `import` block, or is written as JSON. Calls pass
`providers` (right, misnamed, of another provider, keyed), and use
`count`, `for_each` or `depends_on`; the root sometimes has an override
file that adds `count` to a call or replaces its `providers`.

With TOFU_LENS_ORACLE_DIR set, every case is initialised by `tofu init
-json -backend=false` with an empty plugin directory: OpenTofu reports the
checks of building the configuration before it installs providers (and the
installation then fails; that error is dropped). Its diagnostics with the
summaries below (errors and warnings) are compared with `tofu-lens check`'s
by (file, line, summary), or with `--strict` also column and detail (module
paths cut to their last call, and the name of the caller left out: each
directory is its own root to tofu-lens). By design:

- OpenTofu stops on an error of loading any module of the tree before it
  validates providers; tofu-lens judges each directory as the root of its
  own tree. Such a case agrees when tofu-lens reports those errors too,
  and every diagnostic OpenTofu gave before stopping.

- What OpenTofu reports inside a child (a redundant empty provider block,
  a backend, an import block) tofu-lens reports on the call, the child's
  block related: tofu-lens's is compared at its related place.
- A local name in a `providers` entry that the child does not know takes
  the provider a sibling child knows it as; where two children of the
  caller know it as different providers, which one wins follows Go's
  random map order (rarely the other one). A disagreeing case is given to
  OpenTofu again, up to 20 times, and agrees when one run does.
- "Duplicate required provider": which of two entries of one provider is
  "previously required" follows Go's random map order (init and validate
  of the same case disagree); compared by file and summary.

usage: scripts/generate_provider_trees.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR] [--strict]
"""
import collections
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    Disagreements,
    in_parallel,
    init,
    row,
    scratch_copy,
    start_generated_run,
    streamed_diagnostics,
    tofu_lens_check,
    write_case,
)

SUMMARIES = {
    "Module is incompatible with count, for_each, enabled and depends_on",
    "Cannot override provider configuration",
    "Missing required provider configuration",
    "Reference to undefined provider",
    "Provider type mismatch",
    "Duplicate required provider",
    "Invalid module provider configuration",
    "Invalid resource provider configuration",
    "Provider configuration for_each matches resource",
    "Provider configuration for_each matches module",
    "Redundant empty provider block",
    "Backend configuration ignored",
    "Invalid import configuration",
}
# Reported by OpenTofu in the child, by tofu-lens on the call.
IN_CHILD = {"Redundant empty provider block", "Backend configuration ignored", "Invalid import configuration"}


def stops_the_tree(summary):
    """An error of loading a module (anything but the provider checks, and
    an `import` block in a child): OpenTofu stops the whole tree on it."""
    return summary not in SUMMARIES or summary == "Invalid import configuration"


# Which entry is "previously required" is Go's map order.
UNORDERED = {"Duplicate required provider"}

SOURCES = {"time": "hashicorp/time", "clock": "hashicorp/time", "openstack": "terraform-provider-openstack/openstack"}
RESOURCE_OF = {"hashicorp/time": "time_static", "terraform-provider-openstack/openstack": "openstack_networking_network_v2"}
ALIASES = ["a", "b"]
CHILD_NAMES = ["net", "app"]


class Module:
    """One module's provider facts, chosen before it is written."""

    def __init__(self, rng, names_from):
        self.required = {}  # local name -> (source, [alias])
        for name in names_from:
            if rng.random() < 0.45:
                aliases = [a for a in ALIASES if rng.random() < 0.3]
                self.required[name] = (SOURCES[name], aliases)
        self.configs = []  # (name, alias or None, configured, for_each)
        for name in names_from:
            if rng.random() < 0.3:
                alias = rng.choice([None, None] + ALIASES)
                configured = rng.random() < 0.5
                for_each = alias is not None and rng.random() < 0.3
                self.configs.append((name, alias, configured, for_each))
        seen = set()
        self.configs = [c for c in self.configs if (c[0], c[1]) not in seen and not seen.add((c[0], c[1]))]
        self.resources = []  # (type, name, provider reference or None, for_each)
        for i in range(rng.randrange(0, 3)):
            local = rng.choice(list(names_from))
            source = self.required.get(local, (SOURCES.get(local, "hashicorp/" + local), []))[0]
            ref = None
            if rng.random() < 0.6:
                ref = local + rng.choice(["", "." + rng.choice(ALIASES)])
                # A key without an alias is a loading error: rarely.
                if rng.random() < (0.3 if "." in ref else 0.03):
                    ref += rng.choice(['["x"]', "[each.key]"])
            for_each = ref is not None and ref.endswith("[each.key]") or rng.random() < 0.15
            self.resources.append((RESOURCE_OF.get(source, "time_static"), f"r{i}", ref, for_each))
        self.backend = rng.random() < 0.06
        self.import_block = rng.random() < 0.03

    def names(self):
        keys = [(n, None) for n in self.required] + [(n, a) for n, (_, aliases) in self.required.items() for a in aliases]
        keys += [(n, a) for n, a, _, _ in self.configs]
        return sorted(set(keys), key=lambda k: (k[0], k[1] or ""))


def key_text(name, alias):
    return name if alias is None else f"{name}.{alias}"


def terraform_block(module):
    if not module.required and not module.backend:
        return ""
    lines = ["terraform {"]
    if module.required:
        lines.append("  required_providers {")
        for name, (source, aliases) in module.required.items():
            lines.append(f"    {name} = {{")
            lines.append(f'      source = "{source}"')
            if aliases:
                lines.append("      configuration_aliases = [" + ", ".join(f"{name}.{a}" for a in aliases) + "]")
            lines.append("    }")
        lines.append("  }")
    if module.backend:
        lines.append('  backend "local" {}')
    lines.append("}")
    return "\n".join(lines) + "\n\n"


def native(module, calls):
    text = terraform_block(module)
    text += 'locals {\n  regions = toset(["x", "y"])\n}\n\n'
    for name, alias, configured, for_each in module.configs:
        body = []
        if alias:
            body.append(f'  alias = "{alias}"')
        if for_each:
            body.append("  for_each = local.regions")
        if configured:
            body.append('  region = "one"')
        text += f'provider "{name}" {{\n' + "".join(line + "\n" for line in body) + "}\n\n"
    for type_name, name, ref, for_each in module.resources:
        body = []
        if for_each:
            body.append("  for_each = local.regions")
        if ref:
            body.append(f"  provider = {ref}")
        text += f'resource "{type_name}" "{name}" {{\n' + "".join(line + "\n" for line in body) + "}\n\n"
    if module.import_block and module.resources:
        type_name, name, _, for_each = module.resources[0]
        if not for_each:
            text += f'import {{\n  to = {type_name}.{name}\n  id = "x"\n}}\n\n'
    for call in calls:
        text += call
    return text


def as_json(module):
    """A module without calls as a JSON file."""
    doc = {}
    if module.required or module.backend:
        terraform = {}
        if module.required:
            terraform["required_providers"] = {
                name: ({"source": source, "configuration_aliases": [f"{name}.{a}" for a in aliases]} if aliases else {"source": source})
                for name, (source, aliases) in module.required.items()
            }
        if module.backend:
            terraform["backend"] = {"local": {}}
        doc["terraform"] = terraform
    providers = collections.defaultdict(list)
    for name, alias, configured, for_each in module.configs:
        body = {}
        if alias:
            body["alias"] = alias
        if for_each:
            body["for_each"] = '${toset(["x", "y"])}'
        if configured:
            body["region"] = "one"
        providers[name].append(body)
    if providers:
        doc["provider"] = {name: bodies if len(bodies) > 1 else bodies[0] for name, bodies in providers.items()}
    resources = collections.defaultdict(dict)
    for type_name, name, ref, for_each in module.resources:
        body = {}
        if for_each:
            body["for_each"] = '${toset(["x", "y"])}'
        if ref:
            body["provider"] = ref
        resources[type_name][name] = body
    if resources:
        doc["resource"] = resources
    return json.dumps(doc, indent=2) + "\n"


def call_block(rng, name, source, caller, child):
    """A module call passing some of the caller's configurations to some of
    the child's names; sometimes repeated."""
    lines = [f'module "{name}" {{', f'  source = "{source}"']
    repetition = rng.random()
    if repetition < 0.15:
        lines.append("  count = 2")
    elif repetition < 0.3:
        lines.append("  for_each = local.regions")
    elif repetition < 0.37:
        lines.append("  depends_on = [terraform_data.first]")
    if rng.random() < 0.6:
        child_keys = child.names() or [("time", None)]
        parent_keys = caller.names() or [("time", None)]
        entries = {}
        for _ in range(rng.randrange(1, 3)):
            left = rng.choice(child_keys + [("clock", None), ("time", "a")])
            right = rng.choice(parent_keys + [("openstack", None)])
            left_text = key_text(*left)
            right_text = key_text(*right)
            if rng.random() < 0.1:
                left_text += '["x"]'
            if rng.random() < (0.3 if right[1] else 0.03):
                right_text += rng.choice(['["x"]', "[each.key]"])
            entries.setdefault(left_text, right_text)
        lines.append("  providers = {")
        lines.extend(f"    {left} = {right}" for left, right in entries.items())
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n\n"


def case(rng):
    files = {}
    root = Module(rng, SOURCES)
    calls = []
    for child_name in rng.sample(CHILD_NAMES, rng.randrange(1, 3)):
        child = Module(rng, SOURCES)
        child_calls = []
        if rng.random() < 0.35:
            leaf = Module(rng, SOURCES)
            files[f"modules/{child_name}/leaf/main.tf"] = native(leaf, [])
            child_calls.append(call_block(rng, "leaf", "./leaf", child, leaf).replace("  depends_on = [terraform_data.first]\n", ""))
        if not child_calls and rng.random() < 0.15:
            files[f"modules/{child_name}/main.tf.json"] = as_json(child)
        else:
            files[f"modules/{child_name}/main.tf"] = native(child, child_calls)
        calls.append(call_block(rng, child_name, f"./modules/{child_name}", root, child))
    files["main.tf"] = native(root, calls) + 'resource "terraform_data" "first" {}\n'
    if rng.random() < 0.1:
        name = rng.choice([c.split('"')[1] for c in calls])
        body = rng.choice(["  count = 2\n", "  providers = {}\n", "  providers = {\n    time = time\n  }\n"])
        files["override.tf"] = f'module "{name}" {{\n{body}}}\n'
    return files


STRICT = False


def from_its_caller(detail):
    """A detail as the directory calling the module it is about would
    word it: tofu-lens judges each directory as the root of its tree, so a
    grandchild is `module.leaf` there and `module.app.module.leaf` from the
    root, and its caller "the root module" there and `module.app` here."""
    detail = re.sub(r"(?:module\.[\w-]+\.)+(module\.[\w-]+)", r"\1", detail)
    detail = re.sub(r"-target=(?:module\.[\w-]+\.)+", "-target=", detail)
    return re.sub(r"\bmodule\.[\w-]+\b(?=( doesn't pass|, so| represents| or other|\.$))|the root module", "CALLER", detail)


def key(file, line, summary, column, detail):
    if summary in UNORDERED:
        return (file, 0, summary)
    if not STRICT:
        return (file, line, summary)
    return (file, line, summary, column, from_its_caller(detail))


def theirs(tofu, plugins, case_dir):
    with scratch_copy(case_dir) as work:
        out = init(tofu, work, "-json", "-backend=false", f"-plugin-dir={plugins}")
    found = set()
    stopped = set()
    for d in map(row, streamed_diagnostics(out.stdout)):
        if d.summary in SUMMARIES:
            found.add(key(d.file, d.line, d.summary, d.column, d.detail))
        if stops_the_tree(d.summary) and d.severity == "error" and d.file:
            stopped.add((d.file, d.line, d.summary))
    return found, stopped


def ours(binary, case_dir):
    """tofu-lens's diagnostics with the summaries compared, and its errors
    (file, line, summary)."""
    found = set()
    errors = set()
    for d in tofu_lens_check(binary, cwd=case_dir):
        place = row(d["related"][0] if d["summary"] in IN_CHILD and d.get("related") else d)
        file = os.path.normpath(place.file)
        if d["severity"] == "error":
            errors.add((file, place.line, d["summary"]))
        if d["summary"] not in SUMMARIES:
            continue
        found.add(key(file, place.line, d["summary"], place.column, d["detail"]))
    return found, errors


# What a sibling's provider for a local name decides.
ORDERED_BY_CHANCE = {"Provider type mismatch", "Reference to undefined provider"}
# How often a case is given to OpenTofu again when it disagrees there.
RETRIES = 20


def again(tofu, plugins, case_dir, our):
    """Whether another run of OpenTofu on the case agrees: which sibling's
    provider a local name in a `providers` entry takes follows Go's random
    map order (see `calls::child_type`), skewed by Go's small maps."""
    their, stopped = theirs(tofu, plugins, case_dir)
    return not stopped and their == our


def main():
    defaults = [("--count", "1000"), ("--seed", "35"), ("--keep", None)]
    run = start_generated_run("generate_provider_trees", __doc__, defaults, ["--strict"], "tofu-lens-provider-trees")
    if isinstance(run, int):
        return run
    global STRICT
    STRICT = run.flags["--strict"]
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    plugins = os.path.join(root, "no-plugins")
    os.makedirs(plugins)
    cases = []
    for i in range(int(options["--count"])):
        case_dir = os.path.join(root, f"tree-{i:05d}")
        write_case(case_dir, case(rng))
        cases.append(case_dir)

    def judge(case_dir):
        return case_dir, theirs(tofu, plugins, case_dir), ours(binary, case_dir)

    results = in_parallel(judge, cases)
    agree = reported = stopped_cases = random_order = 0
    disagreements = Disagreements(options["--keep"])
    by_summary = collections.Counter()
    for case_dir, (their, stopped), (our, our_errors) in results:
        reported += len(their)
        by_summary.update(e[2] for e in their)
        if stopped:
            # OpenTofu stopped on an error of loading the tree (which
            # tofu-lens must report too) before it validated providers;
            # tofu-lens judges the directories without one on their own.
            if stopped <= our_errors and their <= our:
                agree += 1
                stopped_cases += 1
                continue
        elif their == our:
            agree += 1
            continue
        random_class = {e[2] for e in their ^ our} <= ORDERED_BY_CHANCE
        if random_class and any(again(tofu, plugins, case_dir, our) for _ in range(RETRIES)):
            agree += 1
            random_order += 1
            continue
        disagreements.add(case_dir, our, their, example=os.path.basename(case_dir))
    total = len(results)
    print(f"cases: {total}, agreeing: {agree} ({100 * agree / max(total, 1):.2f} %; {stopped_cases} where OpenTofu stopped on a loading error, {random_order} in one of OpenTofu's random orders), OpenTofu diagnostics in all: {reported}")
    for summary, n in by_summary.most_common():
        print(f"{n:6} {summary}")
    disagreements.print()
    shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
