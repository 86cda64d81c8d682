#!/usr/bin/env python3
"""The proof of the refactorings that keep the state (issue 46, parts 2, 4
and 5), judged by OpenTofu itself.

usage: scripts/prove_refactorings.py TOFU_LENS_BINARY [--count N] [--seed S] [--kinds K,K]

The modules are those of scripts/prove_renames.py (`terraform_data`
resources with `count`, `for_each`, JSON, override files, an earlier
`moved.tf`, a child module). Each case picks one block, in the root or the
child, and one refactoring of it:

- move: "Move to new file …" or "Move to `FILE`" (another file);
- remove: "Remove … from the configuration, keep its objects";
- import: "Generate an `import` block for …" (the resource's `input` is
  dropped first: `terraform_data` imports only its id, so a resource with
  an input would change on import);
- count / for_each: "Repeat … with `count = 1`" / "… `for_each` …";
- extract / extract-two: "Extract into module …" of the block, or of it
  and the resource after it;
- extract-locals: the same of a `locals` block written just before the
  resource (a value, and one reading it that the resource's
  `triggers_replace` and an output of the module read) and the resource;
- extract-provider: "Extract into module …" of a root resource that names
  an aliased configuration (`provider "terraform" { alias = "x" }`,
  `provider = terraform.x`), which the call then passes;

`--kinds` draws only the kinds it lists (all by default).
- count-to-for_each: "Convert … to `for_each = toset(…)`" on a resource
  `count = length(local.fleet)` over 1–4 names, sorted or not, with outputs
  reading one instance or all of them.

For each case, in a scratch copy: `tofu init`, `tofu apply -auto-approve`
(local state). For an import, the instance is then taken out of the state
with `tofu state rm`, and the id the state had is written into the
generated block's `id = ""` (as the user fills it). `tofu-lens serve` is
asked for code actions at the block's label exactly as an editor asks
(`only: ["refactor"]`, with file creation and disabled actions supported),
the chosen action's edit is applied, and then: `tofu validate` must be
clean; `tofu plan` must add, change and destroy nothing (moves, forgets
and the one import are expected, and make `-detailed-exitcode` exit 2);
after `tofu apply` the next `tofu plan -detailed-exitcode` must exit 0.

An action offered disabled is counted as refused with its reason; one not
offered at all (a resource already repeated has no "Repeat") is counted
apart. Needs TOFU_LENS_ORACLE_DIR (see scripts/differential.py).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402
import prove_renames  # noqa: E402

USAGE = __doc__.split("\n\n")[1]
KINDS = [
    "move-new",
    "move-existing",
    "remove",
    "import",
    "count",
    "for_each",
    "count-to-for_each",
    "extract",
    "extract-two",
    "extract-locals",
    "extract-provider",
]


def generate(rng, kinds=KINDS):
    """A case's files, the chosen block (file, label) and the kind."""
    files, (file, label, _) = prove_renames.generate(rng)
    kind = rng.choice(kinds)
    if kind == "extract-provider" and file == "main.tf" and f'resource "terraform_data" "{label}" {{' in files[file]:
        header = f'resource "terraform_data" "{label}" {{\n'
        aliased = 'provider "terraform" {\n  alias = "x"\n}\n\n'
        files[file] = aliased + files[file].replace(header, header + "  provider = terraform.x\n", 1)
    if kind == "count-to-for_each":
        # A resource over a list: its elements become the keys.
        names = rng.sample(["x", "y", "z", "w"], rng.randint(1, 4))
        if rng.random() < 0.5:
            names.sort()
        fleet = 'locals {\n  fleet = [%s]\n}\n\n' % ", ".join(f'"{n}"' for n in names)
        fleet += 'resource "terraform_data" "fleet" {\n  count = length(local.fleet)\n'
        fleet += rng.choice(['  input = local.fleet[count.index]\n', '  input = "${local.fleet[count.index]}-v"\n', ""])
        fleet += "}\n\n"
        if rng.random() < 0.5:
            fleet += 'output "fleet_first" {\n  value = terraform_data.fleet[%d].id\n}\n\n' % rng.randrange(len(names))
        if rng.random() < 0.5:
            fleet += 'output "fleet_all" {\n  value = terraform_data.fleet[*].id\n}\n\n'
        files["fleet.tf"] = fleet
        file, label = "fleet.tf", "fleet"
    if rng.random() < 0.5:
        # Another file of the root to move blocks into.
        files["locals.tf"] = '# Names.\nlocals {\n  tag = "refactored"\n}\n'
    if kind == "extract-locals" and not file.endswith(".json") and f'resource "terraform_data" "{label}" {{' in files[file]:
        header = f'resource "terraform_data" "{label}" {{\n'
        local_values = f'locals {{\n  {label}_tag  = "tag-{label}"\n  {label}_name = upper(local.{label}_tag)\n}}\n\n'
        text = files[file].replace(header, local_values + header + f"  triggers_replace = local.{label}_name\n", 1)
        text += f'output "{label}_name" {{\n  value = local.{label}_name\n}}\n'
        files[file] = text
    if kind == "import" and file.endswith(".json"):
        files[file]["resource"]["terraform_data"][label].pop("input", None)
    elif kind == "import":
        text = files[file]
        block = re.search(r'(resource "terraform_data" "%s" \{\n)(.*?)(\n\}\n)' % re.escape(label), text, re.S)
        if block:
            body = "\n".join(line for line in block.group(2).split("\n") if not line.strip().startswith("input"))
            files[file] = text[: block.start()] + block.group(1) + body + block.group(3) + text[block.end():]
            override = files.get("override.tf", "")
            files["override.tf"] = re.sub(
                r'resource "terraform_data" "%s" \{\n.*?\n\}\n' % re.escape(label), "", override, flags=re.S
            )
            if not files["override.tf"].strip():
                del files["override.tf"]
    return files, (file, label, kind)


class Server(prove_renames.Server):
    """An editor that can create files and shows disabled actions."""

    def __init__(self, binary, root):
        self.process = subprocess.Popen(
            [binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        capabilities = {
            "textDocument": {"codeAction": {"disabledSupport": True}},
            "workspace": {"workspaceEdit": {"documentChanges": True, "resourceOperations": ["create"]}},
            "window": {"workDoneProgress": True},
        }
        self.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": capabilities})
        self.notify("initialized", {})

    def wait_for_indexing(self):
        """Reads until the indexing progress ends: every module of the
        workspace is known (a user does not act within milliseconds)."""
        while True:
            message = self.read()
            if message is None:
                return
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif message.get("method") == "$/progress" and message["params"]["value"].get("kind") == "end":
                return


def apply_workspace_edit(edit):
    """Applies `changes` or `documentChanges` (text edits and file
    creations) of an LSP WorkspaceEdit."""
    prove_renames.apply_edits(None, {"changes": edit.get("changes", {})})
    for change in edit.get("documentChanges", []):
        if change.get("kind") == "create":
            path = change["uri"].removeprefix("file://")
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
            continue
        prove_renames.apply_edits(None, {"changes": {change["textDocument"]["uri"]: change["edits"]}})


def wanted(kind, title):
    return {
        "move-new": title.startswith("Move") and " to new file " in title,
        "move-existing": title.startswith("Move") and " to new file " not in title,
        "remove": title.startswith("Remove "),
        "import": title.startswith("Generate an `import` block"),
        "count": title.startswith("Repeat ") and "`count = 1`" in title,
        "for_each": title.startswith("Repeat ") and "`for_each" in title,
        "count-to-for_each": title.startswith("Convert "),
        "extract": title.startswith("Extract "),
        "extract-two": title.startswith("Extract "),
        "extract-locals": title.startswith("Extract "),
        "extract-provider": title.startswith("Extract "),
    }[kind]


def state_instances(tofu, root):
    """The ids of the state's resource instances, by full address."""
    shown = differential.run_tofu(tofu, ["show", "-json"], root)
    found = {}

    def walk(module):
        for resource in module.get("resources", []):
            found[resource["address"]] = resource["values"]["id"]
        for child in module.get("child_modules", []):
            walk(child)

    walk(json.loads(shown.stdout).get("values", {}).get("root_module", {}))
    return found


def summary_of(planned):
    for line in planned.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("type") == "change_summary":
            return message.get("changes", {})
    return None


def prove(tofu, binary, case_dir, choice):
    """'proven', ('refused', why), ('not offered', why) or ('failed', why)."""
    file, label, kind = choice
    work = tempfile.mkdtemp(prefix="tofu-lens-refactor-")
    root = os.path.join(work, "module")
    shutil.copytree(case_dir, root)
    try:
        differential.init(differential.oracle() or tofu, root)
        applied = differential.run_tofu(tofu, ["apply", "-auto-approve", "-input=false", "-no-color"], root)
        if applied.returncode != 0:
            return ("failed", "the original does not apply: " + applied.stderr[-300:])
        path = os.path.join(root, file)
        with open(path) as f:
            text = f.read()
        position = prove_renames.label_position(text, label, file.endswith(".json"))
        if position is None:
            return ("failed", f"no label {label} in {file}")
        server = Server(binary, root)
        uri = "file://" + path
        language = "json" if file.endswith(".json") else "opentofu"
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
        server.wait_for_indexing()
        place = {"line": position[0], "character": position[1]}
        end = place
        if kind == "extract-locals" and f"locals {{\n  {label}_tag" in text:
            # From the `locals` block before the resource to its label.
            at = text.find(f"locals {{\n  {label}_tag")
            place = {"line": text.count("\n", 0, at), "character": 0}
        if kind == "extract-two":
            # The selection reaches into the next block of the file.
            at = text.find("\nresource ", text.find(f'"{label}"'))
            if at >= 0:
                end = {"line": text.count("\n", 0, at) + 1, "character": 3}
        answer = server.request("textDocument/codeAction", {
            "textDocument": {"uri": uri},
            "range": {"start": place, "end": end},
            "context": {"diagnostics": [], "only": ["refactor"]},
        })
        server.close()
        if answer is None or answer.get("error"):
            return ("failed", f"the server answered {answer}")
        actions = [action for action in answer.get("result") or [] if wanted(kind, action["title"])]
        if not actions:
            titles = [action["title"] for action in answer.get("result") or []]
            return ("not offered", f"{kind}: offered {titles}")
        action = actions[0]
        if action.get("disabled"):
            return ("refused", f"{action['title']}: {action['disabled']['reason']}")
        expect_import = None
        if kind == "import":
            instance = re.search(r"`([^`]+)`$", action["title"]).group(1)
            ids = state_instances(tofu, root)
            if instance not in ids:
                return ("failed", f"no instance {instance} in the state: {sorted(ids)}")
            removed = differential.run_tofu(tofu, ["state", "rm", instance], root)
            if removed.returncode != 0:
                return ("failed", "state rm: " + removed.stderr[-300:])
            expect_import = ids[instance]
        apply_workspace_edit(action.get("edit") or {})
        if expect_import is not None:
            for name in os.listdir(root):
                target_file = os.path.join(root, name)
                if name.endswith((".tf", ".tofu")):
                    with open(target_file) as f:
                        written = f.read()
                    if 'id = ""' in written:
                        with open(target_file, "w") as f:
                            f.write(written.replace('id = ""', f'id = "{expect_import}"'))
        differential.init(tofu, root)
        validated = differential.run_tofu(tofu, ["validate", "-no-color"], root)
        if validated.returncode != 0:
            return ("failed", "validate: " + (validated.stdout + validated.stderr)[-400:])
        planned = differential.run_tofu(tofu, ["plan", "-json", "-input=false"], root)
        summary = summary_of(planned)
        if summary is None:
            return ("failed", "plan: " + planned.stdout[-600:])
        changed = {k: v for k, v in summary.items() if k in ("add", "change", "remove") and v}
        if changed:
            return ("failed", f"plan would {changed}")
        if kind == "import" and summary.get("import") != 1:
            return ("failed", f"plan imports {summary.get('import')}")
        if kind == "remove" and not summary.get("forget"):
            return ("failed", f"plan forgets nothing: {summary}")
        applied = differential.run_tofu(tofu, ["apply", "-auto-approve", "-input=false", "-no-color"], root)
        if applied.returncode != 0:
            return ("failed", "the refactored module does not apply: " + applied.stderr[-300:])
        again = differential.run_tofu(tofu, ["plan", "-detailed-exitcode", "-input=false", "-no-color"], root)
        if again.returncode != 0:
            return ("failed", f"plan after apply exits {again.returncode}: " + again.stdout[-600:])
        return "proven"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    run = differential.start_generated_run(
        "prove_refactorings.py",
        USAGE,
        [("--count", "100"), ("--seed", "46"), ("--kinds", ",".join(KINDS))],
        prefix="tofu-lens-refactorings",
    )
    if isinstance(run, int):
        return run
    kinds = [kind for kind in run.options["--kinds"].split(",") if kind in KINDS]
    if not kinds:
        print(f"--kinds: none of {KINDS}")
        return 2
    cases = []
    for index in range(int(run.options["--count"])):
        name = f"case{index:05}"
        files, choice = generate(run.rng, kinds)
        differential.write_case(os.path.join(run.root, name), files)
        cases.append((name, choice))
    outcomes = differential.in_parallel(
        lambda case: prove(run.tofu, run.binary, os.path.join(run.root, case[0]), case[1]), cases
    )
    by_kind = {}
    for (_, (_, _, kind)), outcome in zip(cases, outcomes):
        label = outcome if isinstance(outcome, str) else outcome[0]
        by_kind.setdefault(kind, {}).setdefault(label, 0)
        by_kind[kind][label] += 1
    proven = sum(outcome == "proven" for outcome in outcomes)
    apart = [(c, o) for c, o in zip(cases, outcomes) if isinstance(o, tuple)]
    failed = sum(o[0] == "failed" for _, o in apart)
    print(f"{len(cases)} refactorings in {run.root}: {proven} proven (validate clean, plan without changes), "
          f"{failed} failed")
    for kind in KINDS:
        print(f"  {kind}: {by_kind.get(kind, {})}")
    for (name, choice), (what, why) in apart:
        print(f"  {name} {choice} {what}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
