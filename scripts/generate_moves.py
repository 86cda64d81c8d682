#!/usr/bin/env python3
"""Seeded root modules with `moved` blocks, judged by `tofu plan -json`
against `tofu-lens check` (issue 46, `plan-move-statement`).

usage: scripts/generate_moves.py TOFU_LENS_BINARY [--count N] [--seed S]

Each case declares 0-4 `terraform_data` resources (some with a `count`
of 0-3) and 0-2 calls of a local empty module, in `main.tf` or
`main.tf.json`, and 1-5 `moved` blocks in `moves.tf` or `moves.tf.json`
whose endpoints come from a small pool of names, declared or not, whole
or with a whole-number or string key (escaped in JSON), so that renames,
renames that left the old block, moves to themselves, chains and
conflicting moves all occur (resources move to resources, calls to
calls, as OpenTofu requires while loading). OpenTofu runs `init` and
`plan -json -input=false -refresh=false` (the built-in provider only:
no network) on a copy of each case; tofu-lens runs `check --format json`
over all of them. Both are compared on (file, line, column, severity,
summary, detail).

A case now and then closes a chain of renames back on itself (2-3
statements, whole objects or instances), so that cycles occur, which
OpenTofu reports only when nothing else was found and without a place:
"Cyclic dependency in move statements" is compared on severity, summary
and detail alone (tofu-lens puts it on the first statement it lists).
Needs TOFU_LENS_ORACLE_DIR (see scripts/differential.py).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402

USAGE = __doc__.split("\n\n")[1]
RESOURCES = ["a", "b", "c", "d", "e"]
CALLS = ["net", "app", "db"]
CYCLE = "Cyclic dependency in move statements"


def endpoint(rng, kind):
    if kind == "resource":
        name = f"terraform_data.{rng.choice(RESOURCES)}"
    else:
        name = f"module.{rng.choice(CALLS)}"
    draw = rng.random()
    if draw < 0.25:
        name += f"[{rng.randrange(0, 4)}]"
    elif draw < 0.32:
        name += f'["{rng.choice("xy")}"]'
    return name


def generate(rng):
    files = {"modules/empty/main.tf": "# An empty module.\n"}
    json_config = rng.random() < 0.3
    resources = {}
    for name in rng.sample(RESOURCES, rng.randrange(0, 5)):
        resources[name] = rng.randrange(0, 4) if rng.random() < 0.3 else None
    calls = rng.sample(CALLS, rng.randrange(0, 3))
    if json_config:
        body = {}
        if resources:
            body["resource"] = {"terraform_data": {
                name: ({"count": count} if count is not None else {}) for name, count in resources.items()
            }}
        if calls:
            body["module"] = {name: {"source": "./modules/empty"} for name in calls}
        files["main.tf.json"] = body or {"locals": {}}
    else:
        text = ""
        for name, count in resources.items():
            inner = f"  count = {count}\n" if count is not None else ""
            text += f'resource "terraform_data" "{name}" {{\n{inner}}}\n\n'
        for name in calls:
            text += f'module "{name}" {{\n  source = "./modules/empty"\n}}\n\n'
        files["main.tf"] = text or "# Nothing declared.\n"
    statements = []
    for _ in range(rng.randrange(1, 6)):
        kind = "resource" if rng.random() < 0.7 else "module"
        source = endpoint(rng, kind)
        target = source if rng.random() < 0.1 else endpoint(rng, kind)
        statements.append((source, target))
    if rng.random() < 0.25:
        # A chain of renames that comes back to where it started.
        kind = "resource" if rng.random() < 0.7 else "module"
        ring = []
        while len(ring) < rng.choice([2, 3]):
            name = endpoint(rng, kind)
            if name not in ring:
                ring.append(name)
        chain = [(ring[i], ring[(i + 1) % len(ring)]) for i in range(len(ring))]
        if rng.random() < 0.3:
            chain.pop()
        statements[rng.randrange(len(statements) + 1):0] = chain
    if rng.random() < 0.3:
        files["moves.tf.json"] = {"moved": [{"from": f, "to": t} for f, t in statements]}
    else:
        files["moves.tf"] = "".join(f"moved {{\n  from = {f}\n  to   = {t}\n}}\n\n" for f, t in statements)
    return files


def unplaced_cycle(r):
    """A cycle as compared: OpenTofu gives it no place."""
    return r._replace(file="", line=0, column=0) if r.summary == CYCLE else r


def plan(tofu, case_dir):
    with differential.scratch_copy(case_dir) as work:
        differential.init(tofu, work)
        done = differential.run_tofu(
            tofu, ["plan", "-json", "-input=false", "-refresh=false", "-no-color"], work
        )
        return [differential.row(d) for d in differential.streamed_diagnostics(done.stdout)
                if differential.has_place_or_none(d)]


def main():
    run = differential.start_generated_run(
        "generate_moves.py", USAGE, [("--count", "300"), ("--seed", "1")], prefix="tofu-lens-moves"
    )
    if isinstance(run, int):
        return run
    names = []
    for index in range(int(run.options["--count"])):
        name = f"case{index:05}"
        differential.write_case(os.path.join(run.root, name), generate(run.rng))
        names.append(name)
    theirs = differential.in_parallel(lambda name: plan(run.tofu, os.path.join(run.root, name)), names)
    ours_by_case = {}
    for d in differential.tofu_lens_check(run.binary, names, cwd=run.root):
        r = differential.row(d)
        case, _, file = r.file.partition("/")
        ours_by_case.setdefault(case, set()).add(unplaced_cycle(r._replace(file=file)))
    agree = holding = 0
    summaries = {}
    disagreements = differential.Disagreements()
    for name, found in zip(names, theirs):
        theirs_set = {unplaced_cycle(r) for r in found if r.severity in ("error", "warning")}
        ours_set = ours_by_case.get(name, set())
        holding += bool(theirs_set)
        for r in theirs_set:
            summaries[r.summary] = summaries.get(r.summary, 0) + 1
        if ours_set == theirs_set:
            agree += 1
        else:
            disagreements.add(os.path.join(run.root, name), ours_set, theirs_set, summary=lambda r: r.summary)
    n = len(names)
    print(f"{n} cases in {run.root}; OpenTofu reports something in {holding}")
    for summary, count in sorted(summaries.items(), key=lambda item: -item[1]):
        print(f"  {count:6} {summary}")
    print(f"agreeing on file, line, column, severity, summary and detail: {agree}/{n}"
          f" ({100.0 * agree / max(n, 1):.2f} %)")
    disagreements.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
