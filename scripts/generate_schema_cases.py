#!/usr/bin/env python3
"""Generates resource bodies with mistakes against the schemas of the real
providers hashicorp/time 0.14.2 and terraform-provider-openstack 3.4.0
(the oracle's `tofu providers schema -json`), runs each module through
OpenTofu 1.12.6 `tofu validate -json` with those providers installed and
through `tofu-lens check --format json`, and counts the cases on which both
report the same diagnostics (file, line and summary).

A case is one resource (or data source) block, with at most one mistake:
none, an unsupported argument or block type (misspelt, or an argument
written as a block and the reverse), a missing required argument (also in
a nested block), too few or too many blocks, a second block where one is
allowed, a value of the wrong type, an invalid resource type or data
source, a `dynamic` block of an unknown type or with a mistake in its
content, a reference to an attribute the type does not have (also on an
instance of a resource with `count` or `for_each`, or without the instance
key, and into a nested block), a provider block of its own (an alias the
resource uses: OpenTofu validates only configurations something uses) with
an unsupported, misspelt or mistyped argument, an `ephemeral` block of the
type (neither provider has ephemeral resources), the two things
openstack 3.4.0 deprecates, and evaluation in nested blocks
(`nested_evaluation_error`: an unknown function, a failing call, an
invalid operand or an arity error in a static nested block, in a
`dynamic` block's content with a known `for_each`, in the `for_each`
itself, or the iterator's known value misused; `nested_evaluation_near_miss`:
`try`, the branch not taken, unknown arguments, an empty or unknown
`for_each` over a failing content, the iterator used right). Many cases share one module (each in its own lines, so
diagnostics are counted per case by line): OpenTofu validates every
resource on its own.

Required arguments are set to an unknown value (`var.unknown`, unknown in
`validate`), so the provider's own validators see nothing to judge in a
minimal body. The kinds `validator_mistake` and `validator_near_miss` set
values only a provider's own validator judges (`ValidateResourceConfig`:
time's durations, RFC 3339 timestamps and ranges; openstack's one-of and
range validators), wrong and right, on types chosen from `VALIDATED`
whatever their minimal body does.
The deprecation warnings also come from the provider's own validation
(`ValidateResourceConfig`), which `check` calls when it may run the provider.

    scripts/generate_schema_cases.py [N_CASES] [SEED]

Environment: as scripts/schema_oracle.py (TOFU_LENS_ORACLE_DIR,
TOFU_LENS_PROVIDER_ORACLE, TOFU_LENS, SCRATCH); the providers' schemas
are read from TOFU_LENS_PROVIDER_ORACLE's `schema-time.json` and
`schema-openstack.json`. Prints the agreement and every disagreeing case.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_oracle  # noqa: E402

TIME = "registry.opentofu.org/hashicorp/time"
OPENSTACK = "registry.opentofu.org/terraform-provider-openstack/openstack"
CASES_PER_MODULE = 25

HEADER = schema_oracle.TEMPLATE_MAIN + """
variable "unknown" {
}
"""


def load_schemas():
    """`tofu providers schema -json` of each provider, as kept in the
    directory TOFU_LENS_PROVIDER_ORACLE names (beside `plugins/`)."""
    schemas = {}
    for name in ("schema-time.json", "schema-openstack.json"):
        with open(os.path.join(os.environ.get("TOFU_LENS_PROVIDER_ORACLE", ""), name)) as f:
            schemas.update(json.load(f)["provider_schemas"])
    return schemas


def value(ty, depth=0):
    """A constant of type `ty` (cty's JSON type)."""
    if ty == "string" or ty == "dynamic":
        return '"v"'
    if ty == "number":
        return "1"
    if ty == "bool":
        return "true"
    kind, inner = ty
    if kind in ("list", "set"):
        return "[" + value(inner, depth + 1) + "]"
    if kind == "map":
        return "{ k = " + value(inner, depth + 1) + " }"
    if kind == "object":
        return "{ " + ", ".join(f"{k} = {value(v, depth + 1)}" for k, v in sorted(inner.items())) + " }"
    if kind == "tuple":
        return "[" + ", ".join(value(v, depth + 1) for v in inner) + "]"
    return '"v"'


def wrong_value(ty):
    """A constant that does not convert to `ty`, or None."""
    if ty == "string":
        return '["v"]'
    if ty == "number":
        return '"abc"'
    if ty == "bool":
        return '"maybe"'
    if ty == "dynamic":
        return None
    kind = ty[0]
    if kind in ("list", "set"):
        return '"v"'
    if kind == "map":
        return '["v"]'
    if kind == "object":
        return '"v"'
    return None


def misspell(name, rng):
    """A name one edit away (HCL suggests it), never another name."""
    i = rng.randrange(len(name))
    choice = rng.choice(("drop", "double", "swap"))
    if choice == "drop" and len(name) > 3:
        return name[:i] + name[i + 1:]
    if choice == "swap" and i + 1 < len(name):
        return name[:i] + name[i + 1] + name[i] + name[i + 2:]
    return name[:i] + name[i] + name[i:]


def settable(block):
    """Attributes a configuration may set (`id` is the SDK's own: it
    rejects a configured one)."""
    return {
        name: attr
        for name, attr in block.get("attributes", {}).items()
        if (attr.get("required") or attr.get("optional")) and name != "id"
    }


class Body:
    """A block body as lines, built from a schema block."""

    def __init__(self, block, indent):
        self.block = block
        self.indent = indent
        self.attrs = {}  # name -> written value
        self.blocks = []  # (type, Body or None for literal lines, dynamic)
        self.extra = []  # literal lines
        for name, attr in sorted(block.get("attributes", {}).items()):
            if attr.get("required"):
                self.attrs[name] = "var.unknown"
        for name, nested in sorted(block.get("block_types", {}).items()):
            for _ in range(nested.get("min_items", 0) or 0):
                self.blocks.append((name, Body(nested["block"], indent + 2), False))

    def lines(self):
        pad = " " * self.indent
        out = [f"{pad}{name} = {written}" for name, written in self.attrs.items()]
        out += [pad + line for line in self.extra]
        for name, body, dynamic in self.blocks:
            if dynamic:
                out.append(f'{pad}dynamic "{name}" {{')
                for_each = dynamic if isinstance(dynamic, str) else '["a"]'
                out.append(f"{pad}  for_each = {for_each}")
                out.append(f"{pad}  content {{")
                out += ["  " + line for line in body.lines()]
                out.append(f"{pad}  }}")
                out.append(f"{pad}}}")
            else:
                out.append(f"{pad}{name} {{")
                out += body.lines()
                out.append(f"{pad}}}")
        return out


def mutate(kind, body, rng, types):
    """Applies mistake `kind` to `body` (a resource's); False if it does not apply."""
    block = body.block
    attrs = settable(block)
    block_types = block.get("block_types", {})
    if kind == "none":
        return True
    if kind == "misspelt_argument":
        if not attrs:
            return False
        name = rng.choice(sorted(attrs))
        wrong = misspell(name, rng)
        if wrong in attrs or wrong in block_types:
            return False
        body.attrs.pop(name, None)
        body.attrs[wrong] = value(attrs[name]["type"]) if "type" in attrs[name] else '"v"'
        return True
    if kind == "unknown_argument":
        body.attrs["colour_of_sky"] = '"blue"'
        return True
    if kind == "missing_required":
        required = [name for name in body.attrs if block["attributes"].get(name, {}).get("required")]
        if not required:
            return False
        del body.attrs[rng.choice(required)]
        return True
    if kind == "wrong_type":
        candidates = [n for n, a in attrs.items() if "type" in a and wrong_value(a["type"])]
        if not candidates:
            return False
        name = rng.choice(sorted(candidates))
        body.attrs[name] = wrong_value(attrs[name]["type"])
        return True
    if kind == "right_type":
        # Bools and collections: strings and numbers meet the provider's
        # own value validators (one of, ranges), which are out of scope.
        candidates = [
            n for n, a in attrs.items()
            if "type" in a and (a["type"] == "bool" or isinstance(a["type"], list))
        ]
        if not candidates:
            return False
        name = rng.choice(sorted(candidates))
        body.attrs[name] = value(attrs[name]["type"])
        return True
    if kind == "misspelt_block":
        if not block_types:
            return False
        name = rng.choice(sorted(block_types))
        wrong = misspell(name, rng)
        if wrong in attrs or wrong in block_types:
            return False
        body.extra += [f"{wrong} {{", "}"]
        return True
    if kind == "argument_as_block":
        if not attrs:
            return False
        name = rng.choice(sorted(attrs))
        body.attrs.pop(name, None)
        body.extra += [f"{name} {{", "}"]
        return True
    if kind == "block_as_argument":
        singles = [n for n, b in block_types.items() if b["nesting_mode"] in ("single", "group")]
        if not singles:
            return False
        name = rng.choice(sorted(singles))
        body.blocks = [b for b in body.blocks if b[0] != name]
        body.attrs[name] = "{}"
        return True
    if kind == "too_many_blocks":
        limited = [n for n, b in block_types.items() if b.get("max_items") and b["nesting_mode"] in ("list", "set")]
        if not limited:
            return False
        name = rng.choice(sorted(limited))
        nested = block_types[name]
        body.blocks = [b for b in body.blocks if b[0] != name]
        for _ in range(nested["max_items"] + 1):
            body.blocks.append((name, Body(nested["block"], body.indent + 2), False))
        return True
    if kind == "too_few_blocks":
        needed = [n for n, b in block_types.items() if b.get("min_items")]
        if not needed:
            return False
        name = rng.choice(sorted(needed))
        body.blocks = [b for b in body.blocks if b[0] != name]
        return True
    if kind == "duplicate_single":
        singles = [n for n, b in block_types.items() if b["nesting_mode"] in ("single", "group")]
        if not singles:
            return False
        name = rng.choice(sorted(singles))
        body.blocks = [b for b in body.blocks if b[0] != name]
        for _ in range(2):
            body.blocks.append((name, Body(block_types[name]["block"], body.indent + 2), False))
        return True
    if kind == "nested_missing_required":
        with_required = [
            n for n, b in block_types.items()
            if any(a.get("required") for a in b["block"].get("attributes", {}).values())
            and not b.get("max_items") == 0
        ]
        if not with_required:
            return False
        name = rng.choice(sorted(with_required))
        nested = Body(block_types[name]["block"], body.indent + 2)
        required = sorted(nested.attrs)
        del nested.attrs[rng.choice(required)]
        body.blocks = [b for b in body.blocks if b[0] != name]
        body.blocks.append((name, nested, False))
        return True
    if kind == "nested_unknown_argument":
        if not block_types:
            return False
        name = rng.choice(sorted(block_types))
        nested = Body(block_types[name]["block"], body.indent + 2)
        nested.attrs["colour_of_sky"] = '"blue"'
        body.blocks = [b for b in body.blocks if b[0] != name]
        body.blocks.append((name, nested, False))
        return True
    if kind == "dynamic_unknown_type":
        body.blocks.append(("colour_of_sky", Body({}, body.indent + 2), True))
        return True
    if kind == "dynamic_content_mistake":
        collections = [n for n, b in block_types.items() if b["nesting_mode"] in ("list", "set")]
        if not collections:
            return False
        name = rng.choice(sorted(collections))
        nested = Body(block_types[name]["block"], body.indent + 4)
        nested.attrs["colour_of_sky"] = '"blue"'
        body.blocks = [b for b in body.blocks if b[0] != name]
        body.blocks.append((name, nested, True))
        return True
    if kind in ("nested_evaluation_error", "nested_evaluation_near_miss"):
        return nested_evaluation(kind, body, rng)
    return False


# Expressions validate reports when it evaluates them, and ones it does not
# (issue 33: arguments of nested blocks and of `dynamic` blocks' content).
EVALUATION_ERRORS = ['uppper("a")', 'cidrsubnet("10.0.0.0/8", 8, 300)', '1 + "a"', "length()"]
EVALUATION_NEAR_MISSES = ['try(uppper("a"), "b")', 'true ? "a" : 1 + "a"', "upper(var.unknown)"]


def nested_evaluation(kind, body, rng):
    """An evaluation error (or a near-miss) in a nested block: in a static
    block's argument, in a `dynamic` block's content (once per element of
    its for_each, the iterator known), or in its for_each."""
    block_types = body.block.get("block_types", {})
    candidates = sorted(n for n, b in block_types.items() if settable(b["block"]))
    if not candidates:
        return False
    name = rng.choice(candidates)
    nested_type = block_types[name]
    attrs = settable(nested_type["block"])
    strings = sorted(a for a, spec in attrs.items() if spec.get("type") == "string")
    attribute = rng.choice(sorted(attrs))
    dynamic_allowed = nested_type["nesting_mode"] in ("list", "set")
    form = rng.choice(("static", "dynamic", "for_each", "iterator")) if dynamic_allowed else "static"
    nested = Body(nested_type["block"], body.indent + (4 if form != "static" else 2))
    dynamic = False
    if kind == "nested_evaluation_error":
        if form == "static" or form == "dynamic":
            nested.attrs[attribute] = rng.choice(EVALUATION_ERRORS)
            dynamic = rng.choice(('["a"]', '["a", "b"]', "{ k = 1 }")) if form == "dynamic" else False
        elif form == "for_each":
            dynamic = rng.choice(('uppper("a")', '"a"', "null", "5"))
        else:
            nested.attrs[attribute] = f"{name}.value * 2"
            dynamic = rng.choice(('["a"]', '{ k = "v" }', 'toset(["s"])'))
    else:
        if form == "static":
            nested.attrs[attribute] = rng.choice(EVALUATION_NEAR_MISSES)
        elif form in ("dynamic", "for_each"):
            nested.attrs[attribute] = rng.choice(EVALUATION_ERRORS)
            dynamic = rng.choice(("var.unknown", "[]"))
        elif strings:
            nested.attrs[rng.choice(strings)] = f'"${{{name}.key}}-${{{name}.value}}"'
            dynamic = rng.choice(('["a"]', "{ k = 1 }", "[var.unknown]"))
        else:
            return False
    body.blocks = [b for b in body.blocks if b[0] != name]
    body.blocks.append((name, nested, dynamic))
    return True


# (provider, type, arguments): values a provider's own validator rejects.
VALIDATOR_MISTAKES = [
    (TIME, "time_sleep", {"create_duration": '"10x"'}),
    (TIME, "time_sleep", {"destroy_duration": '"5 minutes"'}),
    (TIME, "time_sleep", {"create_duration": '"-"', "destroy_duration": '"1s"'}),
    (TIME, "time_static", {"rfc3339": '"yesterday"'}),
    (TIME, "time_static", {"rfc3339": '"2020-13-01T00:00:00Z"'}),
    (TIME, "time_offset", {"base_rfc3339": '"2020-01-01"', "offset_days": "1"}),
    (TIME, "time_rotating", {"rotation_days": "-1"}),
    (TIME, "time_rotating", {"rotation_minutes": "0"}),
    (TIME, "time_rotating", {"rfc3339": '"noon"', "rotation_hours": "2"}),
    (OPENSTACK, "openstack_networking_secgroup_rule_v2", {"direction": '"sideways"', "ethertype": '"IPv4"'}),
    (OPENSTACK, "openstack_networking_secgroup_rule_v2", {"direction": '"ingress"', "ethertype": '"IPv5"'}),
    (OPENSTACK, "openstack_networking_subnet_v2", {"ip_version": "5"}),
    (OPENSTACK, "openstack_networking_port_v2", {"admin_state_up": "true", "mac_address": '"zz"'}),
]
# The same types with values the validators accept, or cannot judge.
VALIDATOR_NEAR_MISSES = [
    (TIME, "time_sleep", {"create_duration": '"30s"'}),
    (TIME, "time_sleep", {"create_duration": "var.unknown"}),
    (TIME, "time_sleep", {"create_duration": '"${var.unknown}s"'}),
    (TIME, "time_static", {"rfc3339": '"2020-01-01T00:00:00Z"'}),
    (TIME, "time_offset", {"offset_days": "1"}),
    (TIME, "time_rotating", {"rotation_days": "1"}),
    (TIME, "time_rotating", {"rotation_days": "var.unknown"}),
    (OPENSTACK, "openstack_networking_secgroup_rule_v2", {"direction": '"ingress"', "ethertype": '"IPv6"'}),
    (OPENSTACK, "openstack_networking_subnet_v2", {"ip_version": "6"}),
]


MISTAKES = [
    "none", "misspelt_argument", "unknown_argument", "missing_required", "wrong_type",
    "right_type", "misspelt_block", "argument_as_block", "block_as_argument",
    "too_many_blocks", "too_few_blocks", "duplicate_single", "nested_missing_required",
    "nested_unknown_argument", "dynamic_unknown_type", "dynamic_content_mistake",
    "invalid_type", "wrong_mode", "reference_unknown_attribute", "reference_valid",
    "reference_into_primitive",
    "validator_mistake", "validator_near_miss",
    # References to instances of a resource with `count` or `for_each`.
    "count_reference_unknown", "count_reference_valid", "count_missing_key",
    "for_each_reference_unknown", "for_each_reference_valid", "for_each_missing_key",
    # References into a nested block (a list of objects).
    "nested_block_reference_unknown", "nested_block_reference_valid",
    # The provider block the resource uses (an alias of its own).
    "provider_unknown_argument", "provider_misspelt_argument", "provider_wrong_type",
    "provider_valid",
    # The two deprecations of openstack 3.4.0 (warnings from the provider).
    "deprecated",
    # An ephemeral block of the type (neither provider has ephemeral resources).
    "ephemeral_type",
    # Evaluation in nested and `dynamic` blocks (issue 33).
    "nested_evaluation_error", "nested_evaluation_near_miss",
]

# What openstack 3.4.0 deprecates: a block type of one resource, and one
# data source (both warned of by the provider's own validation, which
# tofu-lens does not call: diagnostics.md section 7).
DEPRECATED = [
    ("resource", "openstack_objectstorage_container_v1",
     ["versioning_legacy {", '  type     = "versions"', '  location = "x"', "}"]),
    # Its minimal body needs one of `flavor_id` and `name` (its validators).
    ("data", "openstack_loadbalancer_flavor_v2", ["name = var.unknown"]),
]

# The local names the generated modules give the providers.
LOCAL_NAMES = {TIME: "time", OPENSTACK: "openstack"}


def rejected_minimal_bodies(schemas):
    """The types whose minimal body (required arguments unknown, required
    blocks present) the provider rejects by its own validators (at least
    one of, conflicts): left out, as those validators are (read once by
    `tofu validate` on one module holding every type)."""
    lines = HEADER.splitlines()
    at = {}
    for provider in (TIME, OPENSTACK):
        for mode, key in (("resource", "resource_schemas"), ("data", "data_source_schemas")):
            for type_name, schema in sorted(schemas[provider].get(key, {}).items()):
                lines.append("")
                start = len(lines) + 1
                lines.append(f'{mode} "{type_name}" "minimal" {{')
                lines += Body(schema["block"], 2).lines()
                lines.append("}")
                at[(mode, type_name)] = (start, len(lines))
    module_dir = os.path.join(schema_oracle.SCRATCH, "generated", "minimal")
    os.makedirs(module_dir, exist_ok=True)
    with open(os.path.join(module_dir, "main.tf"), "w") as out:
        out.write("\n".join(lines) + "\n")
    found = schema_oracle.oracle(schema_oracle.stage(module_dir, "generated-minimal"))
    rejected = set()
    for (mode, type_name), (start, end) in at.items():
        if any(d[0] == "main.tf" and start <= d[1] <= end for d in found):
            rejected.add((mode, type_name))
    return rejected


def case_text(index, rng, schemas, rejected):
    """One case: (kind, lines)."""
    provider = rng.choice((TIME, OPENSTACK, OPENSTACK))
    schema = schemas[provider]
    mode = "resource"
    pool = schema["resource_schemas"]
    if provider == OPENSTACK and rng.random() < 0.3:
        mode = "data"
        pool = schema["data_source_schemas"]
    candidates = sorted(name for name in pool if (mode, name) not in rejected)
    type_name = rng.choice(candidates)
    name = f"c{index}"
    kind = rng.choice(MISTAKES)
    if kind == "deprecated":
        mode, type_name, deprecated_lines = rng.choice(DEPRECATED)
        provider = OPENSTACK
        schema = schemas[provider]
        pool = schema["data_source_schemas" if mode == "data" else "resource_schemas"]
    body = Body(pool[type_name]["block"], 2)
    extra_lines = []
    before_lines = []
    if kind in ("validator_mistake", "validator_near_miss"):
        table = VALIDATOR_MISTAKES if kind == "validator_mistake" else VALIDATOR_NEAR_MISSES
        provider, type_name, arguments = rng.choice(table)
        body = Body(schemas[provider]["resource_schemas"][type_name]["block"], 2)
        body.attrs.update(arguments)
        lines = [f'resource "{type_name}" "{name}" {{'] + body.lines() + ["}"]
        return kind, lines
    if kind == "deprecated":
        body.extra += deprecated_lines
    elif kind.startswith(("count_", "for_each_", "nested_block_")):
        kind, extra_lines = instance_reference(kind, mode, type_name, name, body, pool, rng)
    elif kind.startswith("provider_"):
        kind, before_lines = provider_block(kind, provider, name, body, schema, rng)
    elif kind == "ephemeral_type":
        mode = "ephemeral"
    elif kind == "invalid_type":
        # The prefix kept: another prefix names a provider not installed.
        prefix, rest = type_name.split("_", 1)
        wrong = prefix + "_" + (misspell(rest, rng) if rng.random() < 0.7 else rest + "_nothing")
        if wrong in pool:
            kind = "none"
        else:
            type_name = wrong
    elif kind == "wrong_mode":
        other = "data" if mode == "resource" else "resource"
        if other == "data" and provider == TIME:
            mode = other
        elif other == "resource" and type_name not in schema["resource_schemas"]:
            mode = other
        elif other == "data" and type_name not in schema.get("data_source_schemas", {}):
            mode = other
        else:
            kind = "none"
    elif kind.startswith("reference_"):
        prefix = "data." if mode == "data" else ""
        attrs = sorted(pool[type_name]["block"].get("attributes", {}))
        if kind == "reference_unknown_attribute":
            step = "colour_of_sky"
        elif kind == "reference_valid":
            step = attrs[0] if attrs else "id"
        else:
            primitive = [
                a for a in attrs
                if pool[type_name]["block"]["attributes"][a].get("type") in ("string", "number", "bool")
            ]
            step = (primitive[0] + ".inner") if primitive else "id.inner"
        extra_lines = ["", f'output "{name}" {{', f"  value = {prefix}{type_name}.{name}.{step}", "}"]
    elif not mutate(kind, body, rng, pool):
        kind = "none"
    lines = before_lines + [f'{mode} "{type_name}" "{name}" {{'] + body.lines() + ["}"] + extra_lines
    return kind, lines


def instance_reference(kind, mode, type_name, name, body, pool, rng):
    """A resource with `count` or `for_each` and an output reading one of
    its instances (or the resource without an instance key), or an output
    reading an attribute of one of its nested blocks: (kind, output lines)."""
    prefix = "data." if mode == "data" else ""
    block = pool[type_name]["block"]
    attrs = sorted(block.get("attributes", {}))
    address = f"{prefix}{type_name}.{name}"
    if kind.startswith("nested_block_"):
        lists = sorted(
            n for n, b in block.get("block_types", {}).items()
            if b["nesting_mode"] == "list" and b.get("max_items") != 0
        )
        if not lists:
            return "none", []
        nested_name = rng.choice(lists)
        nested = block["block_types"][nested_name]["block"]
        nested_attrs = sorted(nested.get("attributes", {}))
        if kind.endswith("_valid") and nested_attrs:
            step = f"{nested_name}[0].{rng.choice(nested_attrs)}"
        else:
            kind = "nested_block_reference_unknown"
            step = f"{nested_name}[0].colour_of_sky"
        return kind, ["", f'output "{name}" {{', f"  value = {address}.{step}", "}"]
    if kind.startswith("count_"):
        body.attrs = {"count": "2", **body.attrs}
        key = "[1]"
    else:
        body.attrs = {"for_each": 'toset(["a"])', **body.attrs}
        key = '["a"]'
    attribute = rng.choice(attrs) if attrs else "id"
    if kind.endswith("_unknown"):
        step = f"{key}.colour_of_sky"
    elif kind.endswith("_valid"):
        step = f"{key}.{attribute}"
    else:
        step = f".{attribute}"
    return kind, ["", f'output "{name}" {{', f"  value = {address}{step}", "}"]


def provider_block(kind, provider, name, body, schema, rng):
    """A provider block of the case's own (alias `name`) with a mistake, and
    the resource using it: OpenTofu validates a provider configuration only
    when something uses it. (kind, provider block lines)."""
    local = LOCAL_NAMES[provider]
    attrs = settable(schema["provider"]["block"])
    lines = [f'provider "{local}" {{', f'  alias = "{name}"']
    if kind == "provider_misspelt_argument" and attrs:
        wrong = misspell(rng.choice(sorted(attrs)), rng)
        if wrong in attrs:
            return provider_block("provider_unknown_argument", provider, name, body, schema, rng)
        lines.append(f'  {wrong} = "v"')
    elif kind == "provider_wrong_type":
        candidates = [n for n, a in attrs.items() if "type" in a and wrong_value(a["type"])]
        if not candidates:
            return provider_block("provider_unknown_argument", provider, name, body, schema, rng)
        chosen = rng.choice(sorted(candidates))
        lines.append(f"  {chosen} = {wrong_value(attrs[chosen]['type'])}")
    elif kind == "provider_valid":
        pass
    else:
        kind = "provider_unknown_argument"
        lines.append('  colour_of_sky = "blue"')
    lines += ["}", ""]
    body.attrs = {"provider": f"{local}.{name}", **body.attrs}
    return kind, lines


def main(argv):
    n_cases = int(argv[1]) if len(argv) > 1 else 5000
    seed = int(argv[2]) if len(argv) > 2 else 34
    if schema_oracle.oracle_or_say("generate_schema_cases") is None:
        return 0
    rng = random.Random(seed)
    schemas = load_schemas()
    rejected = rejected_minimal_bodies(schemas)
    print(f"{len(rejected)} types left out: the provider rejects their minimal body")
    cases_dir = os.path.join(schema_oracle.SCRATCH, "generated")
    os.makedirs(cases_dir, exist_ok=True)
    n_agree = 0
    n_done = 0
    kinds = {}
    disagreements = []
    for module_index in range((n_cases + CASES_PER_MODULE - 1) // CASES_PER_MODULE):
        lines = HEADER.splitlines()
        spans = []
        for offset in range(CASES_PER_MODULE):
            index = module_index * CASES_PER_MODULE + offset
            if index >= n_cases:
                break
            kind, case_lines = case_text(index, rng, schemas, rejected)
            lines.append("")
            start = len(lines) + 1
            lines += case_lines
            spans.append((index, kind, start, len(lines), case_lines))
        module_dir = os.path.join(cases_dir, f"m{module_index}")
        os.makedirs(module_dir, exist_ok=True)
        with open(os.path.join(module_dir, "main.tf"), "w") as out:
            out.write("\n".join(lines) + "\n")
        theirs, ours = schema_oracle.compare(module_dir, f"generated-m{module_index}")
        for index, kind, start, end, case_lines in spans:
            def within(found):
                return sorted(
                    schema_oracle.key(d) for d in found if d[0] == "main.tf" and start <= d[1] <= end
                )
            mine, oracle = within(ours), within(theirs)
            n_done += 1
            total, agree = kinds.get(kind, (0, 0))
            if mine == oracle:
                n_agree += 1
                kinds[kind] = (total + 1, agree + 1)
            else:
                kinds[kind] = (total + 1, agree)
                disagreements.append((index, kind, case_lines, oracle, mine))
        outside = [d for d in theirs + ours if d[0] != "main.tf" or d[1] < spans[0][2]]
        if outside:
            disagreements.append((f"m{module_index}", "outside any case", [], outside, []))
    print(f"{n_agree} of {n_done} cases agree ({100.0 * n_agree / max(n_done, 1):.2f} %)")
    n_deprecated, n_deprecated_agree = kinds.get("deprecated", (0, 0))
    n_rest, n_rest_agree = n_done - n_deprecated, n_agree - n_deprecated_agree
    print(
        f"without the {n_deprecated} deprecation cases (the provider's own validation): "
        f"{n_rest_agree} of {n_rest} agree ({100.0 * n_rest_agree / max(n_rest, 1):.2f} %)"
    )
    for kind, (total, agree) in sorted(kinds.items()):
        print(f"  {kind}: {agree}/{total}")
    for index, kind, case_lines, oracle, mine in disagreements:
        print(f"\nDIFF case {index} ({kind})")
        for line in case_lines:
            print("    | " + line)
        print("  oracle:   " + repr(oracle))
        print("  tofu-lens:" + repr(mine))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
