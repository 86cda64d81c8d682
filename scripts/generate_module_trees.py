#!/usr/bin/env python3
"""Seeded generator of module trees for the module-tree rules, judged by OpenTofu.

Each case is a root module calling one to three local children (`./modules/X`,
sometimes a sibling through `../`), a child sometimes calling a grandchild.
Children declare variables (typed, with and without defaults, sensitive),
outputs (constant, or depending on a variable directly, through a local
value or through a resource), and sometimes an override file that gives a
variable a default.
Callers pass arguments that are right, misspelt, undeclared, missing,
of the wrong type (literals and constructors), meta-arguments (`count`,
`for_each`, `depends_on`), escaping blocks `_`, nested blocks; they read
`module.X.OUTPUT` (existing or not, keyed for repeated calls), also in
arguments and a local value, which may close a cycle through a call; the root
sometimes has an override file for a call, and a JSON caller (`.tfvars` files
have their own generator, `generate_tfvars.py`).

With TOFU_LENS_ORACLE_DIR set, every case is initialised (`tofu init
-backend=false`, offline: local modules only) and checked by `tofu validate
-json`, and by `tofu-lens check`; errors are compared by (file, line,
summary), or with `--strict` also column and detail. Two differences are by
design and compared accordingly:

- "Invalid value for input variable": OpenTofu places it on the child's
  variable, tofu-lens on the caller's argument (the detail names the
  variable): compared by summary and detail alone.
- "Missing required argument ... was not set" (a call with an escaping
  block): OpenTofu gives no place, tofu-lens the call's `{`: likewise.
- OpenTofu stops building the graph at the first module call whose
  arguments fail, in Go's random map order; tofu-lens reports every call.
  Those errors also stop the walk of every module of the tree, where
  tofu-lens judges each directory on its own. A case agrees when
  OpenTofu's errors are tofu-lens's with the argument errors of the other
  calls, the cycles and the walk's errors left out.
- A cycle (through a called module's input and output, or not): OpenTofu
  names its objects in no fixed order and gives it no place, so cycles are
  compared by their sorted names; and it stops the whole tree's walk,
  where tofu-lens still walks the directories without one.

usage: scripts/generate_module_trees.py TOFU_LENS_BINARY [--count N] [--seed S] [--keep DIR] [--strict]
"""
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    Disagreements,
    cycle_summary,
    has_place_or_none,
    in_parallel,
    init,
    row,
    scratch_copy,
    start_generated_run,
    tofu_lens_check,
    validate_json,
    write_case,
)

VARIABLE_NAMES = ["name", "size", "tags", "enabled", "zones", "settings", "cidr"]
OUTPUT_NAMES = ["id", "arn", "names", "config"]
CHILD_NAMES = ["net", "app", "db"]

# (type, good literals, bad literals)
TYPES = [
    ("string", ['"a"', "1", "true"], ['["a"]', "{ a = 1 }"]),
    ("number", ["3", '"4"'], ['"many"', "[1]", "true"]),
    ("bool", ["true", '"false"'], ['"yes"', "1", "[true]"]),
    ("list(string)", ['["a", "b"]', "[]", "[1, 2]"], ['"a"', "{ a = 1 }", "[[1]]"]),
    ("map(number)", ["{ a = 1 }", '{ b = "2" }'], ['{ a = "x" }', '["a"]', "1"]),
    ("object({ size = number, tags = optional(map(string), {}) })", ['{ size = 1 }', '{ size = "2", tags = { a = "b" } }'], ['{ size = "big" }', '{ tags = {} }', '"x"']),
    ("any", ['"a"', "[1]", "{ a = 1 }"], []),
]


def typo(rng, name):
    choice = rng.random()
    if choice < 0.4 and len(name) > 2:
        i = rng.randrange(len(name) - 1)
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if choice < 0.7:
        return name + rng.choice(["s", "x"])
    return rng.choice(["nope", "other_thing", "zz"])


class Child:
    def __init__(self, rng, name):
        self.name = name
        self.variables = {}
        for var in rng.sample(VARIABLE_NAMES, rng.randint(1, 4)):
            ty = rng.choice(TYPES)
            self.variables[var] = {
                "type": ty,
                "required": rng.random() < 0.5,
                "sensitive": rng.random() < 0.15,
                "override_default": False,
            }
        if rng.random() < 0.35:
            self.variables[rng.choice(list(self.variables))]["type"] = TYPES[-1]
        self.outputs = rng.sample(OUTPUT_NAMES, rng.randint(1, 3))
        # An output may depend on a variable, directly, through a local
        # value or through a resource: a caller feeding it back (into a
        # variable of type `any`) closes a cycle through the module.
        self.output_values = {}
        plain = [v for v, d in self.variables.items() if not d["sensitive"]]
        untyped = [v for v in plain if self.variables[v]["type"][0] == "any"]
        for output in self.outputs:
            if plain and rng.random() < 0.45:
                var = rng.choice(untyped if untyped and rng.random() < 0.6 else plain)
                self.output_values[output] = (var, rng.choice(["direct", "local", "resource"]))
        self.override = None
        required = [v for v, d in self.variables.items() if d["required"]]
        if required and rng.random() < 0.2:
            var = rng.choice(required)
            self.variables[var]["override_default"] = True
            self.override = f'variable "{var}" {{\n  default = null\n}}\n'
        self.calls = []

    def is_required(self, var):
        d = self.variables[var]
        return d["required"] and not d["override_default"]

    def files(self):
        out = []
        for var, d in self.variables.items():
            lines = [f'variable "{var}" {{', f"  type = {d['type'][0]}"]
            if not d["required"]:
                lines.append("  default = null")
            if d["sensitive"]:
                lines.append("  sensitive = true")
            out.append("\n".join(lines) + "\n}\n")
        for output in self.outputs:
            var, style = self.output_values.get(output, (None, None))
            if style == "direct":
                value = f"var.{var}"
            elif style == "local":
                out.append(f"locals {{\n  via_{output} = var.{var}\n}}\n")
                value = f"local.via_{output}"
            elif style == "resource":
                out.append(f'resource "terraform_data" "via_{output}" {{\n  input = var.{var}\n}}\n')
                value = f"terraform_data.via_{output}.output"
            else:
                value = f'"{output}"'
            out.append(f'output "{output}" {{\n  value = {value}\n}}\n')
        files = {"main.tf": "\n".join(out)}
        if self.override:
            files["variables_override.tf"] = self.override
        return files


def argument_value(rng, var, d, bad_rate, feedback=False):
    ty = d["type"]
    if ty[2] and rng.random() < bad_rate:
        return rng.choice(ty[2])
    if rng.random() < 0.1:
        return "var.input"
    # A module output (filled in later, `FEEDBACK`), only where any value
    # fits: validate knows some outputs' values.
    if feedback and ty[0] == "any" and rng.random() < 0.7:
        return f"FEEDBACK_{var}"
    return rng.choice(ty[1])


def call_block(rng, call, child, source, wrong, json_syntax=False, feedback=False):
    """A module block calling `child`; `wrong` is how likely a mistake is;
    with `feedback`, an argument may read a module output (`FEEDBACK`)."""
    args = []
    for var in child.variables:
        if child.is_required(var):
            if rng.random() < 1 - wrong * 0.3:
                args.append((var, argument_value(rng, var, child.variables[var], wrong, feedback)))
        elif rng.random() < 0.5:
            args.append((var, argument_value(rng, var, child.variables[var], wrong, feedback)))
    args = [(name, value.replace("FEEDBACK_", f"FEEDBACK@{call}_")) for name, value in args]
    if rng.random() < wrong:
        name = typo(rng, rng.choice(list(child.variables)))
        # A name written twice is a syntax error that stops `tofu init`.
        if all(name != written for written, _ in args):
            args.append((name, '"x"'))
    repetition = None
    roll = rng.random()
    if roll < 0.15:
        repetition = "count"
    elif roll < 0.3:
        repetition = "for_each"
    if json_syntax:
        body = {"source": source}
        if repetition == "count":
            body["count"] = 2
        for name, value in args:
            body[name] = json_value(value)
        return body, repetition
    lines = [f'module "{call}" {{', f'  source = "{source}"']
    if repetition == "count":
        lines.append("  count  = 2")
    elif repetition == "for_each":
        lines.append('  for_each = toset(["a", "b"])')
    if rng.random() < 0.1:
        lines.append("  depends_on = [terraform_data.r]")
    escape = []
    for name, value in args:
        if rng.random() < 0.08:
            escape.append(f"    {name} = {value}")
        else:
            lines.append(f"  {name} = {value}")
    if escape:
        lines.append("  _ {")
        lines.extend(escape)
        lines.append("  }")
    if rng.random() < wrong * 0.15:
        lines.append("  nested {\n  }")
    if rng.random() < 0.05:
        lines.append("  lifecycle {\n  }")
    lines.append("}")
    return "\n".join(lines) + "\n", repetition


def json_value(value):
    """The JSON form of the few literals the generator writes: object
    constructors become JSON objects; a reference a template."""
    try:
        return json.loads(re.sub(r"(\w+) = ", r'"\1": ', value))
    except json.JSONDecodeError:
        return "${" + value + "}"


def output_reference(rng, call, child, repetition, wrong):
    output = rng.choice(child.outputs)
    if rng.random() < wrong:
        output = typo(rng, output)
    key = {"count": "[0]", "for_each": '["a"]', None: ""}[repetition]
    return f"module.{call}{key}.{output}"


def case(rng):
    wrong = rng.choice([0.0, 0.2, 0.5])
    files = {}
    children = {}
    n = rng.randint(1, 3)
    for name in rng.sample(CHILD_NAMES, n):
        children[name] = Child(rng, name)
    # A child sometimes calls another (a grandchild, or a sibling).
    names = list(children)
    if len(names) > 1 and rng.random() < 0.3:
        caller, callee = rng.sample(names, 2)
        children[caller].calls.append(callee)
    root = ['variable "input" {\n  type = any\n  default = null\n}\n', 'resource "terraform_data" "r" {}\n']
    json_caller = rng.random() < 0.1
    json_blocks = {}
    reps = {}
    feedback = rng.random() < 0.5
    for name, child in children.items():
        source = f"./modules/{name}"
        if json_caller and rng.random() < 0.5:
            body, rep = call_block(rng, name, child, source, wrong, json_syntax=True, feedback=feedback)
            json_blocks[name] = body
        else:
            block, rep = call_block(rng, name, child, source, wrong, feedback=feedback)
            root.append(block)
        reps[name] = rep
    if feedback and rng.random() < 0.4:
        root.append("locals {\n  feed = FEEDBACK\n}\n")
    outputs = []
    for i in range(rng.randint(0, 3)):
        name = rng.choice(names)
        outputs.append(f'output "o{i}" {{\n  value = {output_reference(rng, name, children[name], reps[name], wrong)}\n}}\n')
    root.extend(outputs)
    files["main.tf"] = "\n".join(root)
    if json_blocks:
        files["calls.tf.json"] = json.dumps({"module": json_blocks}, indent=2) + "\n"
    overridden = [n for n in names if n not in json_blocks]
    if overridden and rng.random() < 0.2:
        name = rng.choice(overridden)
        child = children[name]
        var = rng.choice(list(child.variables))
        lines = [f'module "{name}" {{']
        if rng.random() < 0.5:
            lines.append(f"  {var} = {argument_value(rng, var, child.variables[var], wrong)}")
        else:
            lines.append(f'  {typo(rng, var)} = "x"')
        files["override.tf"] = "\n".join(lines) + "\n}\n"
    has_feed = "feed = FEEDBACK" in files["main.tf"]

    dependent = [(n, o) for n in names for o in children[n].output_values]

    def feed(match):
        # (Not the local value's own: that is another rule.)
        if has_feed and match.group(1) and rng.random() < 0.3:
            return "local.feed"
        # The argument's own call, through an output depending on it: a
        # cycle of one call.
        call, var = match.group(1), match.group(2)
        own = [o for o, (v, _) in children[call].output_values.items() if v == var] if call in children else []
        own = own if call in reps else []
        if own and rng.random() < 0.4:
            key = {"count": "[0]", "for_each": '["a"]', None: ""}[reps[call]]
            return f"module.{call}{key}.{rng.choice(own)}"
        if dependent and rng.random() < 0.7:
            name, output = rng.choice(dependent)
            key = {"count": "[0]", "for_each": '["a"]', None: ""}[reps[name]]
            return f"module.{name}{key}.{output}"
        name = rng.choice(names)
        return output_reference(rng, name, children[name], reps[name], 0.0)

    for file in list(files):
        # Inside a JSON string, the reference's quotes are escaped.
        fill = (lambda match: json.dumps(feed(match))[1:-1]) if file.endswith(".json") else feed
        files[file] = re.sub(r"\bFEEDBACK(?:@([a-z]+)_([a-z]+))?", fill, files[file])
    for name, child in children.items():
        child_files = child.files()
        for callee in child.calls:
            block, _ = call_block(rng, callee, children[callee], f"../{callee}", wrong)
            child_files["main.tf"] += "\n" + block
        for file, text in child_files.items():
            files[f"modules/{name}/{file}"] = text
    return files


STRICT = False
TREE_SUMMARIES = {
    "Unsupported argument",
    "Missing required argument",
    "Unsupported block type",
    "Extraneous JSON object property",
    "Duplicate argument",
}
MOVED = "Invalid value for input variable"


def tail_paths(detail):
    """A detail with module addresses and paths cut to their last step: a
    child's own call is judged in the child's directory by tofu-lens, from
    the root by OpenTofu (`module.net.module.app.var.x` declared at
    `modules/app/main.tf` there, `module.app.var.x` at `../app/main.tf` here;
    an undeclared resource "in module.net" there, "in the root module" here)."""
    detail = re.sub(r"for (module\.[\w-]+\.)*(module\.[\w-]+\.var\.)", r"for \2", detail)
    detail = re.sub(r"defined at (?:[\w.-]+/)*([\w.-]+\.tf(?:\.json)?:)", r"defined at \1", detail)
    # "… definition in module.app." from the root, "in the root module." here.
    detail = re.sub(r"definition in (?:(?:module\.[\w-]+\.?)+|the root module\.)", "definition in MODULE.", detail)
    return re.sub(r"(?:[\w.-]+/)*([\w.-]+/[\w.-]+\.tf(?:\.json)?:)", r"\1", detail)


# Where tofu-lens put each place-less key, by case: to group it with its call.
PLACES = {}


def key(file, line, summary, column=0, detail=""):
    # OpenTofu names a cycle's objects in no fixed order, and gives it no
    # place: compared by the names alone.
    if summary.startswith("Cycle: "):
        return ("", 0, cycle_summary(summary), 0, "")[: 5 if STRICT else 3]
    detail = tail_paths(detail.split(" Did you mean")[0])
    # OpenTofu gives no place for these; tofu-lens gives the call's.
    if summary == MOVED or detail.endswith("but was not set."):
        return ("", 0, summary, 0, detail)
    if not STRICT:
        return (file, line, summary)
    return (file, line, summary, column, detail)


def theirs(tofu, case_dir):
    with scratch_copy(case_dir) as work:
        init(tofu, work, "-backend=false")
        diagnostics = validate_json(tofu, work)
    if diagnostics is None:
        return None
    found = set()
    for d in map(row, filter(has_place_or_none, diagnostics)):
        if d.severity == "error":
            found.add(key(d.file, d.line, d.summary, d.column, d.detail))
    return found


def ours(binary, case_dir):
    found = set()
    for d in map(row, tofu_lens_check(binary, cwd=case_dir)):
        if d.severity != "error":
            continue
        k = key(d.file, d.line, d.summary, d.column, d.detail)
        PLACES[(case_dir, k)] = (d.file, d.line)
        found.add(k)
    return found


def module_block_of(case_dir, file, line):
    """The module block (file, first line) holding `line` of `file`: the
    last `module "NAME" {` (native) or `    "NAME": {` (JSON) line before it."""
    try:
        with open(os.path.join(case_dir, file)) as f:
            lines = f.read().split("\n")
    except OSError:
        return (file, 0)
    start = 0
    for i, text in enumerate(lines[:line], start=1):
        native = text.startswith("module ")
        json_call = file.endswith(".json") and text.startswith('    "') and text.rstrip().endswith("{")
        if native or json_call:
            start = i
    return (file, start)


def is_cycle(error):
    return error[2].startswith("Cycle: ")


def agrees(case_dir, their, our):
    """Equal once tofu-lens's argument errors of the calls OpenTofu did not
    reach are left out (and the cycles and walk errors OpenTofu then never
    found); or, where OpenTofu found a cycle in the tree, once the walk
    errors tofu-lens finds in the directories without one are left out."""
    if any(is_cycle(e) for e in their):
        return their == {e for e in our if e[2] not in WALK}
    tree_theirs = {e for e in their if e[2] in TREE_SUMMARIES}
    tree_ours = {e for e in our if e[2] in TREE_SUMMARIES}
    if not tree_theirs:
        return False
    groups = collections.defaultdict(set)
    for e in tree_ours:
        file, line = PLACES.get((case_dir, e), (e[0], e[1]))
        groups[module_block_of(case_dir, file, line)].add(e)
    for group in groups.values():
        if group == tree_theirs:
            return their - tree_theirs == {e for e in our - tree_ours if e[2] not in WALK and not is_cycle(e)}
    return False


# What OpenTofu reports in the walk, after the graph is built.
WALK = {
    MOVED,
    "Unsupported attribute",
    "Reference to undeclared input variable",
    "Reference to undeclared resource",
    "Reference to undeclared local value",
    "Reference to undeclared module",
    "Self-referencing local value",
}


def main():
    defaults = [("--count", "1000"), ("--seed", "27"), ("--keep", None)]
    run = start_generated_run("generate_module_trees", __doc__, defaults, ["--strict"], "tofu-lens-trees")
    if isinstance(run, int):
        return run
    global STRICT
    STRICT = run.flags["--strict"]
    binary, tofu, options, rng, root = run.binary, run.tofu, run.options, run.rng, run.root
    cases = []
    for i in range(int(options["--count"])):
        case_dir = os.path.join(root, f"tree-{i:05d}")
        write_case(case_dir, case(rng))
        cases.append(case_dir)

    def judge(case_dir):
        return case_dir, theirs(tofu, case_dir), ours(binary, case_dir)

    results = in_parallel(judge, cases)
    total = agree = first_call = 0
    disagreements = Disagreements(options["--keep"])
    n_errors = 0
    for case_dir, their, our in results:
        if their is None:
            continue
        total += 1
        n_errors += len(their)
        if their == our:
            agree += 1
            continue
        if agrees(case_dir, their, our):
            agree += 1
            first_call += 1
            continue
        disagreements.add(case_dir, our, their)
    print(f"cases: {total}, agreeing: {agree} ({100 * agree / max(total, 1):.2f} %; {first_call} where OpenTofu stopped at its first failing call), OpenTofu errors in all: {n_errors}")
    disagreements.print()
    return 0

if __name__ == "__main__":
    sys.exit(main())
