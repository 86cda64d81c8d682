#!/usr/bin/env python3
"""Seeded generator of root modules whose mistakes only the known values of
`tofu plan` expose, judged by `tofu plan -json` (issue 45).

tofu-lens's `plan-variable-validations` and `plan-values` rules report, in
a directory holding an automatic values file, what plan reports from the
values it knows before it contacts a provider. Each case is such a
directory (only those: without a values file tofu-lens judges as validate
does, which the other generators cover):

- 1 to 6 typed input variables (string, number, bool, list(string),
  list(number), map(string), an object with optional attributes), declared
  in `variables.tf`, `main.tf` or `variables.tf.json`, sometimes
  sensitive;
- their values: a default only, a default that an override file
  (`override.tf`, `variables_override.tf`, `override.tf.json`) changes, or
  `terraform.tfvars`, `terraform.tfvars.json`, `a.auto.tfvars`,
  `x.auto.tfvars.json`, `z.auto.tfvars`, a later file replacing an earlier
  one's value (now and then a value of the wrong type, which plan reports
  before going on with the rest);
- 0 to 3 local values passing a variable's value on (native, JSON, or
  redefined by an override file), into sinks: the variables' own
  `validation` rules (one to three, in order), rules reading another
  variable, a single `terraform_data` resource's preconditions, an
  output's precondition, `check` assertions, a resource's `count`, and
  built-in calls that fail only with the value (`cidrsubnet` out of range,
  `element` of an empty list, an index out of range, `tonumber` of a word,
  `regex` without a match, …) in local values, outputs, a resource's
  `input`, conditions and validation rules;
- module arguments: the value (itself, an expression giving the same
  value, or now and then a constant of its type, written in the call or
  in a root local value) passed to a call of a local module
  (`modules/mN/`, `count = 2` now and then, the call now and then in
  `modules.tf.json` or `main.tf.json`) whose variable, declared in the
  child's `variables.tf`, `main.tf` or `variables.tf.json`, has 1 to 3
  `validation` rules from the same conditions over `var.NAME` (plan
  reports the first that fails as "Invalid value for variable" on the
  argument); now and then a rule reads a child local value holding a
  constant (`locals { limit = 10 }`), and a second argument (from another
  variable or a constant) has a rule reading the first variable (`var.b
  <= var.a`, or a condition over `var.a`); a local value whose call fails
  is passed too (an untyped variable, `!= null`), mostly beside a second
  argument with rules of its own. A constant that fails is known to
  `tofu validate`, whose errors stop plan before it evaluates anything
  else: the cases show it;
- plan's stopping rules: a sink that reads a variable whose validation
  failed, or a local value whose call fails, is evaluated by neither tool.

Every sink's operation is drawn with its mistake or its near miss (the
value that passes), so about half the sinks must stay silent in both
tools. What plan judges only with instances (`count.index`, `each`),
postconditions and data sources are not generated (tofu-lens does not
judge them yet). A message now and then shows a sensitive value (a
sensitive variable's, or a sensitive value passed to a module: plan
then hides the message and reports "Error message refers to sensitive
values"), or its near miss through `nonsensitive()`.

With TOFU_LENS_ORACLE_DIR set, each case is copied to a temporary
directory where OpenTofu runs `tofu init -input=false` and `tofu plan
-json -input=false -refresh=false` (the built-in `terraform` provider
only: no network); its answers are cached in OUT/oracle-cache.json by the
case's text. tofu-lens runs once, `check --format json` over all cases.
Their errors and warnings are compared per case by (file, line, severity,
summary), and also with the start column and with the range's end (the
file relative to the case: `main.tf`, `modules/m0/variables.tf`; each
tool's diagnostics as a set, so that the identical diagnostic plan gives
once per instance of a call with `count = 2` counts once, as tofu-lens
gives it); "Invalid value for input variable" by severity and summary
alone (OpenTofu places it on the declaration, tofu-lens on the value: by
design). Details are tallied apart. Printed: the agreement by what a
case holds (its sinks, mistakes and near misses), then each diagnostic
one tool alone gives, by summary and place (the blocks around its line
and the attribute, as `resource.lifecycle.precondition.condition`), with
the smallest case that shows it and both tools' answers. The classes of
disagreeing cases by all they differ in are written to OUT/classes.txt,
every disagreeing case with both answers to OUT/mismatches.txt, and
`--keep DIR` copies those cases there. Defaults: 1,000 cases, seed 45,
OUT /tmp/tofu-lens-plan-cases.

`--command-line` also gives some variables their value the way a user
names it (a later source winning, as in plan): `--var-file prod.tfvars`,
`--var-file named.tfvars.json` (JSON syntax) or `--var-file
vars/common.tfvars` (after `--var-file vars/base.tfvars`,
which holds earlier values), `--var NAME=VALUE` (its text as OpenTofu
reads it for the type), or a `TF_VAR_NAME` environment variable (lowest:
no automatic file sets that variable), now and then a value of the wrong
type, a value for an undeclared variable in a named file (a warning) or
on the command line (an error plan stops at); they are written to the
case's `plan.args` (as the fixtures' are), passed to `tofu plan` as
`-var-file`/`-var` and its environment, and each such case is checked
with `tofu-lens check` alone with the same arguments.

`--judged-only` leaves out what tofu-lens does not judge yet though plan
reports it: calls that fail in a validation rule or a `check` assertion
(plan reports the call's error) and in a resource's arguments; what is
left measures the rules within their module documentation.

`--time` makes some resources (a precondition's, a `count`'s) the
hashicorp/time provider's `time_static`, its arguments valid; OpenTofu
installs it with `tofu init -plugin-dir TOFU_LENS_PROVIDER_PLUGINS`.
`--instances` repeats some of the resources with preconditions or a
failing argument (`count = 2`, `for_each = toset(["a", "b"])`), their
first rule now and then reading the instance's key (in its message, or
a condition only the second instance fails): plan judges each instance.
`--postconditions` makes some of those rules postconditions (now and
then over `self.input`), and some resources read an earlier resource
with rules (`triggers_replace = terraform_data.r0.id`): plan does not
plan a resource that reads one whose plan failed.
`--call-instances` repeats some module calls (`count = 2`, `for_each =
toset(["a", "b"])`) with an argument reading the instance's key, whose
rule only the second instance fails. `--enabled` gives some resources
with rules a `lifecycle.enabled` from a bool or string variable (now and
then negated, or through `nonsensitive()`).

usage: scripts/generate_plan_cases.py TOFU_LENS_BINARY [--count N] [--seed S] [--out DIR] [--keep DIR] [--judged-only] [--command-line] [--time] [--instances] [--postconditions] [--call-instances] [--enabled]
"""
import collections
import contextlib
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
    Disagreements,
    digest,
    has_place_or_none,
    in_parallel,
    init,
    oracle_or_say,
    scratch_copy,
    streamed_diagnostics,
    take_flag,
    take_option,
    tofu_env,
    tofu_lens_check,
    write_case,
)
from generate_flow_cases import hcl  # noqa: E402

# The variables' types as written (HCL, and the same text in JSON).
TYPES = {
    "string": "string",
    "number": "number",
    "bool": "bool",
    "list": "list(string)",
    "numbers": "list(number)",
    "map": "map(string)",
    "object": "object({ name = string, size = optional(number, 3), tags = optional(map(string), {}) })",
}
# Conditions over a value {r} of each type: (name, condition, mistake
# value, near-miss value); the mistake makes the condition false.
CONDITIONS = {
    "string": [
        ("contains", 'contains(["dev", "prod"], {r})', "staging", "prod"),
        ("length", "length({r}) <= 8", "much-too-long-name", "short"),
        ("can cidrhost", "can(cidrhost({r}, 0))", "10.0.0.0/33", "10.0.0.0/16"),
        ("startswith", 'startswith({r}, "us-")', "eu-west-1", "us-east-1"),
        ("can regex", 'can(regex("^[a-z0-9-]+$", {r}))', "Has Space", "has-dash"),
    ],
    "number": [
        ("range", "{r} >= 1 && {r} <= 10", 12, 7),
        ("even", "{r} % 2 == 0", 3, 4),
        ("whole", "floor({r}) == {r}", 2.5, 2),
    ],
    "bool": [("true", "{r}", False, True), ("not", "!{r}", True, False)],
    "list": [
        ("non-empty", "length({r}) > 0", [], ["a"]),
        ("one letter each", "alltrue([for z in {r} : length(z) == 1])", ["a", "bc"], ["a", "b"]),
        ("distinct", "length(distinct({r})) == length({r})", ["a", "a"], ["a", "b"]),
    ],
    "numbers": [
        ("sum", "sum(concat([0], {r})) < 10", [5, 6], [1, 2]),
        ("all positive", "alltrue([for n in {r} : n > 0])", [1, -1], [1, 2]),
    ],
    "map": [
        ("has key", 'contains(keys({r}), "owner")', {"team": "x"}, {"owner": "x"}),
        ("no empty value", 'alltrue([for k, v in {r} : v != ""])', {"a": ""}, {"a": "b"}),
    ],
    "object": [
        ("optional default", "{r}.size >= 8", {"name": "data"}, {"name": "data", "size": 8}),
        ("attribute", '{r}.name != ""', {"name": ""}, {"name": "data"}),
        ("lookup in a default", 'lookup({r}.tags, "env", "") != ""', {"name": "d"}, {"name": "d", "tags": {"env": "prod"}}),
    ],
}
# Expressions over {r} that fail only with the mistake value.
FAILURES = {
    "number": [
        ("cidrsubnet out of range", 'cidrsubnet("10.0.0.0/16", 8, {r})', 300, 3),
        ("element at a negative index", 'element(["a", "b"], {r})', -1, 1),
        ("index out of range", '["a", "b", "c"][{r}]', 5, 1),
    ],
    "string": [
        ("tonumber of a word", "tonumber({r})", "two", "2"),
        ("regex without a match", 'regex("^([a-z]+)-([0-9]+)$", {r})', "web", "web-1"),
        ("cidrhost of no prefix", "cidrhost({r}, 1)", "10.0.0.0/33", "10.0.0.0/24"),
        ("operand", "{r} + 1", "abc", "12"),
        ("base64decode", "base64decode({r})", "not base64!", "aGk="),
        ("jsondecode", "jsondecode({r})", "{", "{}"),
    ],
    "bool": [("conditional into a failing call", 'tonumber({r} ? "1" : "one")', False, True)],
    "list": [
        ("element of an empty list", "element({r}, 0)", [], ["a"]),
        ("index out of range", "{r}[2]", ["a"], ["a", "b", "c"]),
        ("index of a missing item", 'index({r}, "b")', ["a"], ["a", "b"]),
        ("one of two", "one({r})", ["a", "b"], ["a"]),
    ],
    "numbers": [("max of nothing", "max({r}...)", [], [1]), ("sum of nothing", "sum({r})", [], [1, 2])],
    "map": [
        ("missing key", '{r}["owner"]', {"team": "x"}, {"owner": "x"}),
        ("lookup without default", 'lookup({r}, "owner")', {"a": "b"}, {"owner": "x"}),
    ],
    "object": [
        ("missing map key", '{r}.tags["env"]', {"name": "d"}, {"name": "d", "tags": {"env": "prod"}}),
        ("cidrsubnet of an attribute", 'cidrsubnet("10.0.0.0/24", 4, {r}.size)', {"name": "d", "size": 20}, {"name": "d"}),
    ],
}
# `count` expressions over {r}: the mistake makes a negative or fractional
# count.
COUNTS = {
    "number": [("negative", "{r} - 3", 1, 5), ("fraction", "{r}", 1.5, 2)],
    "string": [("negative", "length({r}) - 4", "ab", "abcd")],
    "bool": [("negative", "{r} ? 1 : -1", False, True)],
    "list": [("negative", "length({r}) - 1", [], ["a"])],
    "numbers": [("fraction", "sum(concat([0], {r})) / 2", [1], [2])],
    "map": [("negative", "length({r}) - 1", {}, {"a": "b"})],
    "object": [("negative", "{r}.size - 5", {"name": "d"}, {"name": "d", "size": 6})],
}
# Values of the wrong type for each type (they do not convert).
WRONG = {
    "string": ["x", "y"],
    "number": "abc",
    "bool": "maybe",
    "list": "x",
    "numbers": ["a"],
    "map": ["a"],
    "object": {"size": 3},
}
# Links that pass a value on unchanged.
LINKS = ["{p}", "({p})", "[{p}][0]", "{{ v = {p} }}.v", "true ? {p} : {p}"]
# Expressions over {r} giving the same value of the same type, passed as a
# module's argument.
SAME = {
    "string": ['"${{{r}}}"', 'format("%s", {r})', 'join("", [{r}])'],
    "number": ["{r} + 0", "{r} * 1", "max({r}, {r})"],
    "bool": ["{r} ? true : false", "{r} == true"],
    "list": ["concat({r}, [])", "[for s in {r} : s]", "tolist({r})"],
    "numbers": ["concat({r}, [])", "[for n in {r} : n]"],
    "map": ["merge({r})", "{{ for k, v in {r} : k => v }}", "tomap({r})"],
    "object": ["merge({r}, {{}})", "{{ name = {r}.name, size = {r}.size, tags = {r}.tags }}"],
}
# A condition of CONDITIONS with its constant moved to a child module's
# local value {l}: (kind, name) -> (the local's stem, its value, condition).
# Any other condition {c} is read as `{l} ? {c} : true`, {l} being true.
CHILD_LOCALS = {
    ("string", "contains"): ("allowed", ["dev", "prod"], "contains({l}, {r})"),
    ("string", "length"): ("limit", 8, "length({r}) <= {l}"),
    ("string", "startswith"): ("prefix", "us-", "startswith({r}, {l})"),
    ("string", "can regex"): ("pattern", "^[a-z0-9-]+$", "can(regex({l}, {r}))"),
    ("number", "range"): ("limit", 10, "{r} >= 1 && {r} <= {l}"),
    ("number", "even"): ("step", 2, "{r} % {l} == 0"),
    ("list", "non-empty"): ("least", 0, "length({r}) > {l}"),
    ("numbers", "sum"): ("limit", 10, "sum(concat([0], {r})) < {l}"),
    ("map", "has key"): ("key", "owner", "contains(keys({r}), {l})"),
    ("object", "optional default"): ("limit", 8, "{r}.size >= {l}"),
}
# Rules of a child's second number variable {b} comparing it with the
# first {a}: (name, condition, whether it holds).
COMPARISONS = [
    ("not above the other", "var.{b} <= var.{a}", lambda a, b: b <= a),
    ("below the other", "var.{b} < var.{a}", lambda a, b: b < a),
    ("other not below", "var.{a} >= var.{b}", lambda a, b: a >= b),
]
# The automatic values files, in the order plan reads them (a later one's
# value wins).
AUTO = ["terraform.tfvars", "terraform.tfvars.json", "a.auto.tfvars", "x.auto.tfvars.json", "z.auto.tfvars"]
NAMES = ["region", "size", "zones", "tags", "enabled", "cidr", "owner", "disk", "ports", "env"]
NATIVE = ["main.tf", "main.tf", "resources.tf", "checks.tf", "outputs.tf"]
JSON_FILES = {
    "output": "outputs.tf.json", "resource": "main.tf.json", "check": "checks.tf.json", "locals": "locals.tf.json",
    "module": "modules.tf.json",
}


def pool(kind):
    """Every value the operations of a type are drawn with."""
    values = []
    for table in (CONDITIONS, FAILURES, COUNTS):
        for _, _, bad, good in table[kind]:
            for value in (bad, good):
                if value not in values:
                    values.append(value)
    return values


def pick(rng, entries, value):
    """An operation of `entries` for `value`: mostly one for which the
    value is the mistake or the near miss, so that most sinks are one or
    the other."""
    fitting = [e for e in entries if value in (e[2], e[3]) and type(value) in (type(e[2]), type(e[3]))]
    if fitting and rng.random() < 0.85:
        return rng.choice(fitting)
    return rng.choice(entries)


def deep_merge(into, more):
    """Merges the JSON object `more` into `into`, object by object."""
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            deep_merge(into[key], value)
        else:
            into[key] = value


class Case:
    """A module being written: native files as lists of blocks, JSON files
    as objects, and what it holds (its kinds, for the tallies)."""

    def __init__(self, rng, judged_only=False, command_line=False, time=False, instances=False, postconditions=False,
                 call_instances=False, enabled=False):
        self.rng = rng
        self.enabled = enabled
        self.instances = instances
        self.call_instances = call_instances
        self.postconditions = postconditions
        # terraform_data resources with a precondition or postcondition,
        # which a later one may read (plan skips what reads one that
        # failed).
        self.checked_resources = []
        self.judged_only = judged_only
        self.command_line = command_line
        self.time = time
        # Command-line values: name -> (source, text), source one of
        # "prod.tfvars", "named.tfvars.json", "vars/common.tfvars", "var",
        # "env"; and earlier
        # values in vars/base.tfvars.
        self.given = {}
        self.undeclared_var = False
        self.blocks = collections.defaultdict(list)
        self.json = collections.defaultdict(dict)
        self.values = collections.defaultdict(dict)  # values file -> {name: value}
        self.kinds = []
        self.variables = []  # (name, kind, value, sensitive)
        self.counter = collections.Counter()

    def fresh(self, prefix):
        self.counter[prefix] += 1
        return f"{prefix}{self.counter[prefix] - 1}"

    def block(self, file, text):
        self.blocks[file].append(text)

    def plan_args(self):
        """The lines of `plan.args`: the named files in order, then the
        `-var`s, then the environment."""
        lines = []
        named = ["vars/base.tfvars", "prod.tfvars", "named.tfvars.json", "vars/common.tfvars"]
        for file in named:
            if file in self.values:
                lines.append(f"--var-file {file}")
        for name, (source, text) in self.given.items():
            if source == "var":
                lines.append(f"--var {name}={text}")
        if self.undeclared_var:
            lines.append("--var nowhere=1")
        for name, (source, text) in self.given.items():
            if source == "env":
                lines.append(f"TF_VAR_{name}={text}")
        return lines

    def files(self):
        files = {name: "\n".join(blocks) for name, blocks in self.blocks.items()}
        if self.command_line and self.plan_args():
            files["plan.args"] = "".join(line + "\n" for line in self.plan_args())
        for name, content in self.json.items():
            files[name] = content
        for name, values in self.values.items():
            if name.endswith(".json"):
                files[name] = values
            else:
                files[name] = "".join(f"{k} = {hcl(v)}\n" for k, v in values.items()) or "# defaults only\n"
        return files


def message(case, text, reference=None, sensitive=False):
    """An error message: a literal, sometimes showing a value; a sensitive
    value shown makes plan hide the message ("Error message refers to
    sensitive values"), or its near miss, shown through
    `nonsensitive()`."""
    if reference and case.rng.random() < (0.5 if sensitive else 0.3):
        if sensitive and case.rng.random() < 0.35:
            reference = f"nonsensitive({reference})"
            case.kinds.append("message: nonsensitive() of a sensitive value")
        elif sensitive:
            case.kinds.append("message: a sensitive value")
        return f"{text} (got ${{{reference}}})"
    return text


def condition_block(kind, condition, error_message, indent):
    pad = " " * indent
    return (
        f"{pad}{kind} {{\n{pad}  condition     = {condition}\n"
        f"{pad}  error_message = {json.dumps(error_message)}\n{pad}}}\n"
    )


def json_rule(condition, error_message):
    return {"condition": f"${{{condition}}}", "error_message": error_message}


def declare_variables(case):
    """The variables, their values and their own validation rules."""
    rng = case.rng
    names = rng.sample(NAMES, rng.randint(1, 6))
    in_json = rng.random() < 0.25
    for index, name in enumerate(names):
        kind = rng.choice(list(TYPES))
        values = pool(kind)
        # The value is one operation's mistake or near miss; the decoy
        # (what a default or an earlier file says) another pool value.
        _, _, bad, good = rng.choice(CONDITIONS[kind] + FAILURES[kind] + COUNTS[kind])
        final = rng.choice([bad, good])
        decoy = rng.choice(values)
        sensitive = rng.random() < 0.12
        case.variables.append((name, kind, final, sensitive))
        rules = own_rules(case, name, kind, final, sensitive)
        rules += cross_rules(case, name, index)
        where = rng.random()
        default = None
        has_default = False
        override = None
        if where < 0.25:
            # The default alone gives the value.
            case.kinds.append("value: default")
            has_default, default = True, final
        elif where < 0.37:
            # An override file changes the default.
            case.kinds.append("value: default changed by an override file")
            has_default, default = True, decoy
            override = final
        elif case.command_line and where < 0.62:
            given_on_command_line(case, name, kind, final, decoy, values)
            if rng.random() < 0.4:
                has_default, default = True, decoy
        else:
            files = sorted(rng.sample(AUTO, rng.randint(1, 3)), key=AUTO.index)
            if len(files) > 1:
                case.kinds.append("value: a later values file replaces an earlier one")
            else:
                case.kinds.append("value: one values file")
            for file in files[:-1]:
                case.values[file][name] = rng.choice(values)
            last = final
            if rng.random() < 0.03:
                case.kinds.append("value of the wrong type")
                last = WRONG[kind]
            case.values[files[-1]][name] = last
            if rng.random() < 0.4:
                has_default, default = True, decoy
        write_variable(case, name, kind, sensitive, has_default, default, rules, in_json)
        if override is not None:
            file = rng.choice(["override.tf", "variables_override.tf", "override.tf.json"])
            if file.endswith(".json"):
                deep_merge(case.json[file], {"variable": {name: {"default": override}}})
            else:
                case.block(file, f'variable "{name}" {{\n  default = {hcl(override)}\n}}\n')
    if case.command_line and case.given:
        if rng.random() < 0.04:
            case.kinds.append("command line: a value for an undeclared variable")
            case.undeclared_var = True
        if rng.random() < 0.05:
            case.kinds.append("named file: a value for an undeclared variable")
            case.values[rng.choice(["prod.tfvars", "named.tfvars.json"])]["nowhere"] = "x"
    if not any(file in case.values for file in AUTO) and not case.plan_args():
        case.values[rng.choice(AUTO)] = {}


def raw_text(kind, value):
    """A value as a `-var` or `TF_VAR_` gives it: the text itself for a
    primitive type, an expression for the others."""
    if kind in ("string", "number", "bool") and not isinstance(value, (list, dict)):
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    return hcl(value)


def given_on_command_line(case, name, kind, final, decoy, values):
    """The variable's value from the command line: a named file, a
    `-var`, or a `TF_VAR_` (the lowest: then no automatic file sets it);
    sometimes an automatic file or vars/base.tfvars gives an earlier
    value that the command line replaces."""
    rng = case.rng
    source = rng.choice(["prod.tfvars", "named.tfvars.json", "vars/common.tfvars", "var", "env"])
    value = final
    if rng.random() < 0.03:
        case.kinds.append("command line: a value of the wrong type")
        value = WRONG[kind]
    in_file = source.endswith((".tfvars", ".tfvars.json"))
    case.kinds.append(f"value: {source if in_file else source + ' value'}")
    if in_file:
        case.values[source][name] = value
    else:
        case.given[name] = (source, raw_text(kind, value))
    if source != "env" and rng.random() < 0.35:
        case.kinds.append("value: a command-line value replaces an earlier one")
        earlier = rng.choice(["vars/base.tfvars", rng.choice(AUTO)])
        case.values[earlier][name] = rng.choice(values)


def own_rules(case, name, kind, value, sensitive):
    """0 to 3 validation rules on the variable itself."""
    rng = case.rng
    rules = []
    seen = set()
    for _ in range(rng.choices([0, 1, 2, 3], [3, 4, 2, 1])[0]):
        reference = f"var.{name}"
        if rng.random() < 0.2 and not case.judged_only:
            label, expression, bad, good = pick(rng, FAILURES[kind], value)
            condition = f"{expression.format(r=reference)} != null"
            case.kinds.append(f"validation calling a function: {verdict(label, value, bad, good)}")
        else:
            label, expression, bad, good = pick(rng, CONDITIONS[kind], value)
            condition = expression.format(r=reference)
            case.kinds.append(f"validation: {verdict(label, value, bad, good)}")
        if condition in seen:
            continue
        seen.add(condition)
        shown = reference if kind in ("string", "number") else None
        rules.append((condition, message(case, f"{name}: {label}.", shown, sensitive)))
    return rules


def cross_rules(case, name, index):
    """A rule reading an earlier variable (directly or through a local
    value) beside the variable itself, now and then."""
    rng = case.rng
    if index == 0 or rng.random() > 0.25:
        return []
    other, kind, value, _ = rng.choice(case.variables[:index])
    reference = chain(case, f"var.{other}", allow_override=False)
    label, expression, bad, good = pick(rng, CONDITIONS[kind], value)
    case.kinds.append(f"validation reading another variable: {verdict(label, value, bad, good)}")
    return [(f"var.{name} != null && {expression.format(r=reference)}", f"{name}: {other} {label}.")]


def verdict(label, value, bad, good):
    if value == bad:
        return f"{label}, mistake"
    if value == good:
        return f"{label}, near miss"
    return f"{label}, another value"


def write_variable(case, name, kind, sensitive, has_default, default, rules, in_json):
    rng = case.rng
    if in_json:
        body = {"type": TYPES[kind]}
        if has_default:
            body["default"] = default
        if sensitive:
            body["sensitive"] = True
        if rules:
            body["validation"] = [json_rule(c, m) for c, m in rules]
        deep_merge(case.json["variables.tf.json"], {"variable": {name: body}})
        case.kinds.append("variable in JSON")
        return
    lines = [f'variable "{name}" {{', f"  type = {TYPES[kind]}"]
    if has_default:
        lines.append(f"  default = {hcl(default)}")
    if sensitive:
        lines.append("  sensitive = true")
    text = "\n".join(lines) + "\n"
    for condition, error_message in rules:
        text += "\n" + condition_block("validation", condition, error_message, 2)
    case.block(rng.choice(["variables.tf", "variables.tf", "main.tf"]), text + "}\n")


def chain(case, reference, allow_override=True):
    """0 to 3 local values passing `reference` on; the last reference."""
    rng = case.rng
    for _ in range(rng.choices([0, 1, 2, 3], [3, 3, 2, 1])[0]):
        name = case.fresh("l")
        expression = rng.choice(LINKS).format(p=reference)
        place = rng.random()
        if place < 0.2:
            case.kinds.append("local value in JSON")
            deep_merge(case.json["locals.tf.json"], {"locals": {name: f"${{{expression}}}"}})
        elif place < 0.3 and allow_override:
            case.kinds.append("local value redefined by an override file")
            case.block(rng.choice(["locals.tf", "main.tf"]), f'locals {{\n  {name} = "base"\n}}\n')
            case.block(rng.choice(["override.tf", "locals_override.tf"]), f"locals {{\n  {name} = {expression}\n}}\n")
        else:
            case.block(rng.choice(["locals.tf", "main.tf"]), f"locals {{\n  {name} = {expression}\n}}\n")
        reference = f"local.{name}"
    return reference


def argument_value(case, kind, value, sensitive, reference, what, constant=0.15):
    """What a module call passes for a value of `kind`: `reference` (the
    value, `sensitive` or not), an expression over it giving the same
    value, or (with probability `constant`; always without a reference) a
    constant, itself or through a root local value holding it (which `tofu
    validate` already knows). Its text, the constant as a JSON value when
    it is written as one (else None), its value and whether it is
    sensitive."""
    rng = case.rng
    how = rng.random()
    if reference is None or how < constant:
        _, _, bad, good = rng.choice(CONDITIONS[kind])
        value = rng.choice([bad, good])
        if rng.random() < 0.3:
            local = case.fresh("v")
            case.block(rng.choice(["locals.tf", "main.tf"]), f"locals {{\n  {local} = {hcl(value)}\n}}\n")
            case.kinds.append(f"{what}: a root local value holding a constant")
            return f"local.{local}", None, value, False
        case.kinds.append(f"{what}: a constant")
        return hcl(value), value, value, False
    if how < constant + 0.2:
        case.kinds.append(f"{what}: an expression over the value")
        return rng.choice(SAME[kind]).format(r=reference), None, value, sensitive
    case.kinds.append(f"{what}: the value")
    return reference, None, value, sensitive


def child_local(case, directory, name, constant):
    """A local value of the child module holding a constant."""
    rng = case.rng
    if rng.random() < 0.3:
        deep_merge(case.json[f"{directory}/locals.tf.json"], {"locals": {name: constant}})
    else:
        file = f"{directory}/{rng.choice(['main.tf', 'locals.tf'])}"
        case.block(file, f"locals {{\n  {name} = {hcl(constant)}\n}}\n")


def child_rules(case, directory, argument, kind, value, shown, sensitive=False):
    """1 to 3 validation rules of the child's variable `argument` given
    `value`, drawn from CONDITIONS; now and then one reads a child local
    value holding a constant."""
    rng = case.rng
    rules, seen = [], set()
    reads = f"var.{argument}"
    for _ in range(rng.choices([1, 2, 3], [5, 3, 2])[0]):
        label, template, bad, good = pick(rng, CONDITIONS[kind], value)
        if rng.random() < 0.2:
            stem, constant, form = CHILD_LOCALS.get((kind, label), ("strict", True, None))
            local = case.fresh(stem)
            child_local(case, directory, local, constant)
            if form:
                condition = form.format(r=reads, l=f"local.{local}")
            else:
                condition = f"local.{local} ? {template.format(r=reads)} : true"
            what = "module argument's rule reading a child local"
        else:
            condition = template.format(r=reads)
            what = "module argument's rule"
        if condition in seen:
            continue
        seen.add(condition)
        case.kinds.append(f"{what}: {verdict(label, value, bad, good)}")
        rules.append((condition, message(case, f"{argument}: {label}.", shown, sensitive)))
    return rules


def module_argument(case, kind, value, sensitive, reference, failing=False):
    """A sink passing the value to a call of a local module
    (`modules/mN`, its own directory) as an argument, whose variable's 1
    to 3 validation rules judge it; the call now and then with `count =
    2` or in JSON, the child's variables now and then in JSON. Now and
    then a second argument, from another variable or a constant, whose
    variable's rule reads the first variable (a comparison of two
    numbers, or a condition of CONDITIONS over the first). `failing`:
    `reference` is a local value whose call fails with the mistake (with
    another value it may be null: `one([])`), passed to an untyped
    variable whose rule is `!= null`, mostly beside a second argument
    with rules of its own."""
    rng = case.rng
    call = case.fresh("m")
    directory = f"modules/{call}"
    argument = rng.choice(NAMES)
    if failing:
        text, literal = reference, None
        variables = [(argument, None, [(f"var.{argument} != null", f"{argument}: given.")])]
    else:
        text, literal, value, sensitive = argument_value(case, kind, value, sensitive, reference, "module argument")
        if sensitive:
            case.kinds.append("module argument: a sensitive value")
        shown = f"var.{argument}" if kind in ("string", "number") else None
        variables = [(argument, kind, child_rules(case, directory, argument, kind, value, shown, sensitive))]
    arguments = [(argument, text, literal)]
    if rng.random() < (0.6 if failing else 0.25):
        other = rng.choice([n for n in NAMES if n != argument])
        compare = not failing and kind == "number" and rng.random() < 0.7
        candidates = [v for v in case.variables if v[1] == "number"] if compare else case.variables
        source = rng.choice(candidates) if candidates and rng.random() < 0.75 else None
        if source is None:
            other_kind = "number" if compare else rng.choice(list(TYPES))
            other_text, other_literal, other_value, _ = argument_value(
                case, other_kind, None, False, None, "second module argument"
            )
        else:
            other_kind = source[1]
            other_text, other_literal, other_value, _ = argument_value(
                case, other_kind, source[2], source[3], chain(case, f"var.{source[0]}"), "second module argument"
            )
        rules = []
        if failing or rng.random() < 0.3:
            rules = child_rules(case, directory, other, other_kind, other_value, None)
        if compare:
            label, template, holds = rng.choice(COMPARISONS)
            case.kinds.append(
                f"module argument's rule comparing two arguments: {label}, "
                f"{'near miss' if holds(value, other_value) else 'mistake'}"
            )
            rules.append((template.format(a=argument, b=other), f"{other}: {label}."))
        elif not failing:
            label, template, bad, good = pick(rng, CONDITIONS[kind], value)
            case.kinds.append(f"module argument's rule reading another argument: {verdict(label, value, bad, good)}")
            condition = f"var.{other} != null && {template.format(r=f'var.{argument}')}"
            rules.append((condition, f"{other}: {argument} {label}."))
        variables.append((other, other_kind, rules))
        arguments.append((other, other_text, other_literal))
        rng.shuffle(variables)
        rng.shuffle(arguments)
    file = rng.choice(["variables.tf", "variables.tf", "main.tf", "variables.tf.json"])
    count = rng.random() < 0.25
    each = False
    # Repeated with known keys: an argument reading the instance's key,
    # whose rule only the second instance fails.
    if case.call_instances and rng.random() < 0.3:
        count, each = (True, False) if rng.random() < 0.5 else (False, True)
        slot = "slot" if "slot" not in [name for name, _, _ in variables] else "slot2"
        if count:
            variables.append((slot, "number", [(f"var.{slot} < 1", f"{slot} ${{var.{slot}}} is not the first.")]))
            arguments.append((slot, "count.index", None))
        else:
            variables.append((slot, "string", [(f'var.{slot} == "a"', f"{slot} ${{var.{slot}}} is not a.")]))
            arguments.append((slot, "each.key", None))
        case.kinds.append(f"module call with {'count' if count else 'for_each'} and an argument reading its key")
    if file.endswith(".json"):
        case.kinds.append("module's variables in JSON")
    for name, kind, rules in variables:
        typed = {"type": TYPES[kind]} if kind else {}
        if file.endswith(".json"):
            body = dict(typed, validation=[json_rule(c, m) for c, m in rules])
            deep_merge(case.json[f"{directory}/{file}"], {"variable": {name: body}})
        else:
            body = "".join(f"  type = {t}\n" for t in typed.values())
            body += "".join("\n" + condition_block("validation", c, m, 2) for c, m in rules)
            case.block(f"{directory}/{file}", f'variable "{name}" {{\n{body}}}\n')
    if count:
        case.kinds.append("module call with count = 2")
    if rng.random() < 0.2:
        case.kinds.append("module call in JSON")
        body = {"source": f"./{directory}"}
        if count:
            body["count"] = 2
        if each:
            body["for_each"] = '${toset(["a", "b"])}'
        for name, text, literal in arguments:
            body[name] = literal if literal is not None else f"${{{text}}}"
        deep_merge(case.json[rng.choice([JSON_FILES["module"], JSON_FILES["resource"]])], {"module": {call: body}})
    else:
        lines = [f'module "{call}" {{', f'  source = "./{directory}"'] + ["  count  = 2"] * count
        lines += ['  for_each = toset(["a", "b"])'] * each
        lines += [f"  {name} = {text}" for name, text, _ in arguments]
        case.block(rng.choice(["main.tf", "modules.tf"]), "\n".join(lines) + "\n}\n")


def sink(case):
    """One sink reading a variable's value through 0 to 3 local values."""
    rng = case.rng
    name, kind, value, sensitive = rng.choice(case.variables)
    reference = chain(case, f"var.{name}")
    # A sensitive value may not decide `count`: not generated.
    where = rng.choice(
        ["precondition", "precondition", "output precondition", "check", "check", "local", "output",
         "failing local read", "module argument", "module argument"]
        + ["resource input"] * (not case.judged_only) + ["count"] * (not sensitive)
    )
    if where == "module argument":
        case.kinds.append(f"sink: {where}")
        module_argument(case, kind, value, sensitive, reference)
        return
    if where == "failing local read":
        # A local value whose call fails with the mistake, read by a sink:
        # plan evaluates nothing that depends on it.
        label, expression, bad, good = pick(rng, FAILURES[kind], value)
        local = case.fresh("f")
        case.block(rng.choice(["locals.tf", "main.tf"]), f"locals {{\n  {local} = {expression.format(r=reference)}\n}}\n")
        case.kinds.append(f"failing local: {verdict(label, value, bad, good)}")
        reference = chain(case, f"local.{local}")
        where = rng.choice(
            ["precondition", "output precondition", "check", "output", "module argument"]
            + ["resource input"] * (not case.judged_only) + ["count"] * (not sensitive)
        )
        case.kinds.append(f"sink reading a failing local: {where}")
        if where == "module argument":
            module_argument(case, kind, value, sensitive, reference, failing=True)
            return
        expression, condition, count = reference, f"{reference} != null", f"{reference} == null ? 0 : 1"
        failing_local = True
    else:
        failing_local = False
        case.kinds.append(f"sink: {where}")
        if where == "count":
            label, template, bad, good = pick(rng, COUNTS[kind], value)
            count = template.format(r=reference)
            case.kinds.append(f"count: {verdict(label, value, bad, good)}")
        elif where in ("local", "output", "resource input") or (
            rng.random() < 0.25 and not (case.judged_only and where == "check")
        ):
            label, template, bad, good = pick(rng, FAILURES[kind], value)
            expression = template.format(r=reference)
            condition = f"{expression} != null"
            case.kinds.append(f"call in {where}: {verdict(label, value, bad, good)}")
        else:
            label, template, bad, good = pick(rng, CONDITIONS[kind], value)
            condition = template.format(r=reference)
            case.kinds.append(f"condition in {where}: {verdict(label, value, bad, good)}")
    shown = reference if kind in ("string", "number") and not failing_local else None
    in_json = rng.random() < 0.2
    if in_json:
        case.kinds.append(f"{where} in JSON")
    if where in ("precondition", "resource input"):
        resource = case.fresh("r")
        rules = []
        if where == "precondition":
            rules = [(condition, message(case, f"{resource}: precondition.", shown, sensitive))]
            if rng.random() < 0.3:
                other = rng.choice(case.variables)
                label, template, _, _ = pick(rng, CONDITIONS[other[1]], other[2])
                rules.insert(rng.randrange(2), (template.format(r=f"var.{other[0]}"), f"{resource}: second precondition."))
        argument = expression if where == "resource input" else rng.choice([reference, "1"])
        # Repeated with known keys: plan judges each instance, the
        # message and condition now and then reading the instance's key.
        repeat = None
        if case.instances and rng.random() < 0.4:
            repeat = rng.choice(["count", "for_each"])
            key, first = ("count.index", "0") if repeat == "count" else ("each.key", '"a"')
            case.kinds.append(f"{where} of a resource with {repeat}")
            if rules and rng.random() < 0.5:
                (c, m), rest = rules[0], rules[1:]
                if rng.random() < 0.5:
                    m = f"{m} (instance ${{{key}}})"
                    case.kinds.append("message reading the instance's key")
                if rng.random() < 0.4:
                    c = f"{key} == {first} || ({c})"
                    case.kinds.append("condition reading the instance's key")
                rules = [(c, m)] + rest
        # Postconditions: the rules checked after plan plans the object,
        # now and then over `self.input` (known: the configured value).
        kind_of_rules = "precondition"
        over_self = False
        if where == "precondition" and case.postconditions and rng.random() < 0.4:
            kind_of_rules = "postcondition"
            case.kinds.append("postcondition")
            over_self = argument == reference and rules and rng.random() < 0.5
        # Now and then reading an earlier checked resource (plan does not
        # plan a resource that reads one whose plan failed).
        earlier = None
        if case.postconditions and case.checked_resources and rng.random() < 0.7 and not repeat:
            earlier = rng.choice(case.checked_resources)
            case.kinds.append("resource reading an earlier checked resource")
        # `lifecycle.enabled` from a variable: false leaves no instance to
        # judge; null, sensitive or no bool is plan's error.
        enabled = None
        if case.enabled and rules and not repeat and rng.random() < 0.35:
            choices = [v for v in case.variables if v[1] in ("bool", "string")]
            if choices:
                name, kind, _, secret = rng.choice(choices)
                enabled = f"var.{name}"
                if kind == "bool" and rng.random() < 0.3:
                    enabled = f"!var.{name}"
                if secret and rng.random() < 0.5:
                    enabled = f"nonsensitive({enabled})"
                case.kinds.append(f"enabled from a {'sensitive ' if secret and 'nonsensitive' not in enabled else ''}{kind}")
        # A resource of the hashicorp/time provider, its arguments valid.
        timed = where == "precondition" and case.time and rng.random() < 0.4
        if timed:
            case.kinds.append("precondition on time_static")
        elif over_self:
            # terraform_data's `input`, known in the planned object.
            (c, m), rest = rules[0], rules[1:]
            rules = [(c.replace(reference, "self.input"), m.replace(reference, "self.input"))] + rest
            case.kinds.append("postcondition reading self.input")
        rtype = "time_static" if timed else "terraform_data"
        if in_json:
            body = {"triggers": {"v": "1"}} if timed else {"input": f"${{{argument}}}"}
            if earlier:
                body["triggers_replace" if not timed else "triggers"] = (
                    f"${{{earlier}.id}}" if not timed else {"v": f"${{{earlier}.id}}"}
                )
            if repeat == "count":
                body["count"] = 2
            elif repeat:
                body["for_each"] = '${toset(["a", "b"])}'
            if rules:
                body["lifecycle"] = [{kind_of_rules: [json_rule(c, m) for c, m in rules]}]
                if enabled:
                    body["lifecycle"][0]["enabled"] = f"${{{enabled}}}"
            deep_merge(case.json[JSON_FILES["resource"]], {"resource": {rtype: {resource: body}}})
        else:
            given = '  triggers = { v = "1" }\n' if timed else f"  input = {argument}\n"
            if earlier:
                given = (
                    f'  triggers = {{ v = {earlier}.id }}\n' if timed
                    else f"{given}  triggers_replace = {earlier}.id\n"
                )
            text = f'resource "{rtype}" "{resource}" {{\n{given}'
            if repeat == "count":
                text = f'resource "{rtype}" "{resource}" {{\n  count = 2\n{given}'
            elif repeat:
                text = f'resource "{rtype}" "{resource}" {{\n  for_each = toset(["a", "b"])\n{given}'
            if rules:
                text += "\n  lifecycle {\n" + (f"    enabled = {enabled}\n" if enabled else "")
                text += "".join(condition_block(kind_of_rules, c, m, 4) for c, m in rules) + "  }\n"
            case.block(rng.choice(NATIVE), text + "}\n")
        if rules and not repeat and not enabled:
            case.checked_resources.append(f"{rtype}.{resource}")
    elif where == "count":
        resource = case.fresh("c")
        timed = case.time and rng.random() < 0.4
        if timed:
            case.kinds.append("count of time_static")
        rtype = "time_static" if timed else "terraform_data"
        if in_json:
            body = {"count": f"${{{count}}}"}
            deep_merge(case.json[JSON_FILES["resource"]], {"resource": {rtype: {resource: body}}})
        else:
            case.block(rng.choice(NATIVE), f'resource "{rtype}" "{resource}" {{\n  count = {count}\n}}\n')
    elif where in ("output", "output precondition"):
        output = case.fresh("o")
        value = expression if where == "output" else reference
        rules = [(condition, message(case, f"{output}: precondition.", shown, sensitive))] if where == "output precondition" else []
        if in_json:
            body = {"value": f"${{{value}}}"}
            if sensitive:
                body["sensitive"] = True
            if rules:
                body["precondition"] = [json_rule(c, m) for c, m in rules]
            deep_merge(case.json[JSON_FILES["output"]], {"output": {output: body}})
        else:
            text = f'output "{output}" {{\n  value = {value}\n'
            if sensitive:
                text += "  sensitive = true\n"
            text += "".join("\n" + condition_block("precondition", c, m, 2) for c, m in rules)
            case.block(rng.choice(["outputs.tf", "outputs.tf", "main.tf"]), text + "}\n")
    elif where == "check":
        check = case.fresh("k")
        rules = [(condition, message(case, f"{check}: assertion.", shown, sensitive))]
        if rng.random() < 0.3:
            other = rng.choice(case.variables)
            label, template, _, _ = pick(rng, CONDITIONS[other[1]], other[2])
            rules.append((template.format(r=f"var.{other[0]}"), f"{check}: second assertion."))
        if in_json:
            body = {"assert": [json_rule(c, m) for c, m in rules]}
            deep_merge(case.json[JSON_FILES["check"]], {"check": {check: body}})
        else:
            text = f'check "{check}" {{\n' + "\n".join(condition_block("assert", c, m, 2) for c, m in rules) + "}\n"
            case.block(rng.choice(["checks.tf", "main.tf"]), text)
    else:  # local
        local = case.fresh("s")
        if in_json:
            deep_merge(case.json[JSON_FILES["locals"]], {"locals": {local: f"${{{expression}}}"}})
        else:
            case.block(rng.choice(["locals.tf", "main.tf"]), f"locals {{\n  {local} = {expression}\n}}\n")


def generate(rng, judged_only=False, command_line=False, time=False, instances=False, postconditions=False,
             call_instances=False, enabled=False):
    """One case: its files by name, and the kinds of what it holds."""
    case = Case(rng, judged_only, command_line, time, instances, postconditions, call_instances, enabled)
    declare_variables(case)
    for _ in range(rng.randint(1, 4)):
        sink(case)
    return case.files(), case.kinds


# Comparing.

MOVED = "Invalid value for input variable"
# Compared by severity and summary: OpenTofu places the first on the
# declaration (tofu-lens on the value) and gives the second no place.
PLACED_BY_DESIGN = {MOVED, "Value for undeclared variable"}
# The error of a validation rule whose message shows a sensitive value:
# OpenTofu places a child's on the child's message, tofu-lens on the
# caller's argument (its analysis holds no file of the child); compared
# by severity and summary (a condition's warning of the same summary by
# its place).
SENSITIVE_MESSAGE = "Error message refers to sensitive values"


def plan(tofu, case_dir):
    """OpenTofu's diagnostics for the case: [file, line, column, end line,
    end column, severity, summary, detail], sorted; None when plan printed
    no JSON."""
    args, environment = given_arguments(case_dir, "-var-file=", "-var=")
    with scratch_copy(case_dir) as work:
        init(tofu, work, *plugin_dir(case_dir))
        done = subprocess.run(
            [tofu, "plan", "-json", "-input=false", "-refresh=false", "-no-color", *args],
            cwd=work, capture_output=True, text=True, env=dict(tofu_env(), **environment), timeout=TIMEOUT,
        )
    if not any(line.startswith("{") for line in done.stdout.splitlines()):
        return None
    return sorted(entry(d) for d in streamed_diagnostics(done.stdout) if has_place_or_none(d))


def plugin_dir(case_dir):
    """`tofu init`'s `-plugin-dir` for a case using the hashicorp/time
    provider (TOFU_LENS_PROVIDER_PLUGINS, as `.ci/run` lays it out)."""
    plugins = os.environ.get("TOFU_LENS_PROVIDER_PLUGINS")
    if not plugins:
        return []
    for folder, _, names in os.walk(case_dir):
        for name in names:
            with open(os.path.join(folder, name)) as f:
                if "time_static" in f.read():
                    return [f"-plugin-dir={plugins}"]
    return []


def given_arguments(case_dir, var_file, var):
    """The case's `plan.args` as command-line arguments (`var_file` and
    `var` their prefixes) and `TF_VAR_` environment variables."""
    args, environment = [], {}
    path = os.path.join(case_dir, "plan.args")
    if not os.path.exists(path):
        return args, environment
    with open(path) as f:
        for line in f.read().splitlines():
            if line.startswith("--var-file "):
                args.append(var_file + line[len("--var-file ") :])
            elif line.startswith("--var "):
                args.append(var + line[len("--var ") :])
            elif line.startswith("TF_VAR_"):
                key, _, value = line.partition("=")
                environment[key] = value
    return args, environment


def entry(d):
    """A diagnostic of either tool as stored: OpenTofu's `range.filename`
    or tofu-lens's `file`, both relative to the case (`main.tf`,
    `modules/m0/variables.tf`)."""
    place = d.get("range") or {}
    file = d.get("file") or place.get("filename", "")
    start, end = place.get("start", {}), place.get("end", {})
    return [
        os.path.normpath(file) if file else "", start.get("line", 0), start.get("column", 0), end.get("line", 0),
        end.get("column", 0), d.get("severity", ""), d.get("summary", ""), d.get("detail", ""),
    ]


def keys(entries, how):
    """The set of comparable keys: `loose` (file, line, severity,
    summary), `column` (and the start column), `range` (and the end),
    `detail` (loose and the detail)."""
    found = set()
    for file, line, column, end_line, end_column, severity, summary, detail in entries:
        if summary in PLACED_BY_DESIGN or (summary == SENSITIVE_MESSAGE and severity == "error"):
            found.add(("*", 0, severity, summary))
            continue
        key = (file, line, severity, summary)
        if how == "column":
            key += (column,)
        elif how == "range":
            key += (column, end_line, end_column)
        elif how == "detail":
            key += (" ".join(detail.split()),)
        found.add(key)
    return found


def place(case_dir, file, line):
    """What a diagnostic's line is in the case: the enclosing blocks'
    types (variable, resource, output, check, locals, module; validation,
    lifecycle, precondition, assert) and the attribute, as
    `resource.lifecycle.precondition.condition`; `variable` alone for a
    variable's header."""
    if file == "*":
        return "a values file"
    try:
        with open(os.path.join(case_dir, file)) as f:
            lines = f.read().splitlines()
        text = lines[line - 1]
    except (OSError, IndexError):
        return "?"
    names = []
    if file.endswith(".json"):
        key = text.strip().split('"')
        attribute = key[1] if len(key) > 1 else ""
        depth = len(text) - len(text.lstrip())
        for above in reversed(lines[: line - 1]):
            indent = len(above) - len(above.lstrip())
            if indent < depth and above.rstrip().endswith(("{", "[")):
                depth = indent
                parts = above.strip().split('"')
                if len(parts) > 1 and parts[1] in (
                    "variable", "resource", "output", "check", "locals", "module", "validation", "lifecycle",
                    "precondition", "assert",
                ):
                    names.append(parts[1])
        if names and names[-1] == "variable" and len(names) == 1 and depth == 0 and attribute not in ("condition", "error_message"):
            return "variable"
    else:
        if not text.startswith(" "):
            return text.split(" ")[0]
        attribute = text.split("=")[0].strip()
        depth = len(text) - len(text.lstrip())
        for above in reversed(lines[: line - 1]):
            indent = len(above) - len(above.lstrip())
            if indent < depth and above.rstrip().endswith("{"):
                depth = indent
                names.append(above.split()[0])
    if names and names[0] == "locals":
        return "locals"
    return ".".join([*reversed(names), attribute])


def ours_by_case(binary, root, names):
    """tofu-lens's errors and warnings, per case name: one `check` over
    every case without command-line values, one for each case with them
    (in the case, with its arguments and environment)."""
    ours = {name: [] for name in names}
    plain = [name for name in names if not os.path.exists(os.path.join(root, name, "plan.args"))]
    given = [name for name in names if name not in set(plain)]
    found = []
    for start in range(0, len(plain), 1000):
        found.extend(tofu_lens_check(binary, [os.path.join(root, name) for name in plain[start : start + 1000]]))

    def one(name):
        case_dir = os.path.join(root, name)
        args, environment = given_arguments(case_dir, "", "")
        flags = []
        for arg, line in zip(args, open(os.path.join(case_dir, "plan.args")).read().splitlines()):
            flags += ["--var-file" if line.startswith("--var-file") else "--var", arg]
        clean = {k: v for k, v in os.environ.items() if not k.startswith("TF_VAR_")}
        return tofu_lens_check(binary, [*flags, "."], cwd=case_dir, env=dict(clean, **environment))

    for name, diagnostics in zip(given, in_parallel(one, given)):
        for d in diagnostics:
            d["file"] = os.path.join(root, name, d["file"])
        found.extend(diagnostics)
    for d in found:
        if d.get("severity") not in ("error", "warning"):
            continue
        relative = os.path.relpath(os.path.normpath(d["file"]), root)
        name, _, d["file"] = relative.partition(os.sep)
        ours.setdefault(name, []).append(entry(d))
    return {name: sorted(found) for name, found in ours.items()}


def coarse(kind):
    """A kind without its operation's name, for the tallies: `call in
    check: tonumber of a word, mistake` as `call in check: mistake`."""
    head, _, tail = kind.partition(": ")
    return f"{head}: {tail.rpartition(', ')[2]}" if ", " in tail else kind


def show(entries):
    return "\n".join(
        f"      {f}:{line}:{column}-{el}:{ec} {severity} {summary} | {' '.join(detail.split())[:160]}"
        for f, line, column, el, ec, severity, summary, detail in entries
    ) or "      (nothing)"


def main():
    args = sys.argv[1:]
    count = int(take_option(args, "--count", "1000"))
    seed = int(take_option(args, "--seed", "45"))
    out = take_option(args, "--out", "/tmp/tofu-lens-plan-cases")
    keep = take_option(args, "--keep")
    judged_only = take_flag(args, "--judged-only")
    command_line = take_flag(args, "--command-line")
    time = take_flag(args, "--time")
    instances = take_flag(args, "--instances")
    postconditions = take_flag(args, "--postconditions")
    call_instances = take_flag(args, "--call-instances")
    enabled = take_flag(args, "--enabled")
    if time and not os.environ.get("TOFU_LENS_PROVIDER_PLUGINS"):
        print("generate_plan_cases: --time needs TOFU_LENS_PROVIDER_PLUGINS (the hashicorp/time provider laid out for -plugin-dir)")
        return 2
    if len(args) != 1:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("generate_plan_cases")
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
        files, kinds = generate(rng, judged_only, command_line, time, instances, postconditions, call_instances, enabled)
        name = f"plan{index:05}"
        write_case(os.path.join(root, name), files)
        cases.append((name, digest(files), kinds))
    missing = [(name, key) for name, key, _ in cases if key not in cache]
    print(f"{len(cases)} cases, {len(missing)} not in the oracle cache", flush=True)
    done = 0
    for start in range(0, len(missing), 500):
        batch = missing[start : start + 500]
        answers = in_parallel(lambda item: plan(tofu, os.path.join(root, item[0])), batch, workers=2)
        for (_, key), answer in zip(batch, answers):
            cache.put(key, answer)
        cache.save()
        done += len(batch)
        print(f"  oracle: {done}/{len(missing)}", flush=True)
    ours = ours_by_case(binary, root, [name for name, _, _ in cases])

    agree = collections.Counter()
    by_kind, agree_by_kind = collections.Counter(), collections.Counter()
    disagreements = Disagreements(keep)
    # Each diagnostic one tool gives and the other does not, by side,
    # summary and place; its example the smallest case that shows it.
    single = collections.Counter()
    smallest = {}
    n_theirs = collections.Counter()
    report = []
    for name, key, kinds in cases:
        case_dir = os.path.join(root, name)
        theirs, mine = cache.get(key), ours.get(name, [])
        if theirs is None:
            report.append(f"{case_dir}: OpenTofu printed no JSON")
            continue
        for e in theirs:
            n_theirs[e[5]] += 1
        same = {how: keys(theirs, how) == keys(mine, how) for how in ("loose", "column", "range", "detail")}
        agree.update(how for how, ok in same.items() if ok)
        for kind in {coarse(kind) for kind in kinds}:
            by_kind[kind] += 1
            agree_by_kind[kind] += same["loose"]
        if not same["loose"]:
            label = lambda e, case_dir=case_dir: f"{e[3]} @ {place(case_dir, e[0], e[1])}"  # noqa: E731
            ours_keys, their_keys = keys(mine, "loose"), keys(theirs, "loose")
            disagreements.add(case_dir, ours_keys, their_keys, summary=label)
            size = sum(os.path.getsize(os.path.join(top, f)) for top, _, files in os.walk(case_dir) for f in files)
            for side, only in (("tofu-lens only", ours_keys - their_keys), ("OpenTofu only", their_keys - ours_keys)):
                for which in {f"{side}: {label(e)}" for e in only}:
                    single[which] += 1
                    if which not in smallest or size < smallest[which][0]:
                        smallest[which] = (size, name, key)
        if not all(same.values()):
            failed = ", ".join(how for how, ok in same.items() if not ok)
            report.append(f"{case_dir} (differ by: {failed})\n  kinds: {kinds}\n  OpenTofu:\n{show(theirs)}\n  tofu-lens:\n{show(mine)}")
    with open(os.path.join(out, "mismatches.txt"), "w") as f:
        f.write("\n\n".join(report) + "\n")
    print("agreement (file, line, severity, summary) by what a case holds:")
    for kind in sorted(by_kind):
        print(f"  {kind:60} {agree_by_kind[kind]:5}/{by_kind[kind]:5}")
    total = len(cases)
    with_answers = sum(cache.get(key) is not None for _, key, _ in cases)
    holding = sum(bool(cache.get(key)) for _, key, _ in cases)
    print(
        f"OpenTofu's answers: {with_answers}/{total}; {holding} cases hold a diagnostic; "
        f"{n_theirs['error']} errors and {n_theirs['warning']} warnings in all"
    )
    for how, text in (
        ("loose", "file, line, severity and summary"),
        ("column", "those and the start column"),
        ("range", "those and the range's end"),
        ("detail", "file, line, severity, summary and detail"),
    ):
        print(f"agreeing on {text}: {agree[how]}/{total} ({100 * agree[how] / total:.2f} %)")
    print("\ndiagnostics given by one tool only, by summary and place (cases; the smallest example):")
    for which, n in single.most_common():
        _, name, key = smallest[which]
        print(f"\n{n:6} {which}: e.g. {os.path.join(root, name)}")
        print(f"    OpenTofu:\n{show(cache.get(key))}\n    tofu-lens:\n{show(ours.get(name, []))}")
    with open(os.path.join(out, "classes.txt"), "w") as f:
        with contextlib.redirect_stdout(f):
            disagreements.print()
    print(f"\n{len(disagreements.counts)} classes of disagreeing cases (by all they differ in): {out}/classes.txt")
    print(f"every disagreeing case: {out}/mismatches.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
