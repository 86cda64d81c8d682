#!/usr/bin/env python3
"""The proof of "rename with `moved`" (issue 46, part 1): renames that keep
the state, judged by OpenTofu itself.

usage: scripts/prove_renames.py TOFU_LENS_BINARY [--count N] [--seed S]

Each case is a root module of `terraform_data` resources (some with
`count = 2` or `for_each` over two keys, some written in `main.tf.json`,
some with an `input` an override file changes), outputs and resources
reading them, now and then a `moved.tf` holding an earlier rename, and
now and then a call of a local child module with resources of its own
(itself called under `count` sometimes). One resource or module call is
chosen, in the root or in the child, and renamed to a fresh name (after
which `tofu init` runs again: a renamed call is a new module to install).

For each case, in a scratch copy: `tofu init`, `tofu apply -auto-approve`
(local state), then `tofu-lens serve` is asked, as an editor asks it, to
rename the chosen block at its name label (`textDocument/rename`); the
WorkspaceEdit it answers is applied to the files, and then `tofu
validate` must be clean, `tofu plan` must add, change and destroy nothing
(every object moves; moves alone make `-detailed-exitcode` exit 2), and
after `tofu apply` of the renamed module `tofu plan -detailed-exitcode`
must exit 0. A rename
the server refuses is counted apart with its message. Printed: the
number of renames proven, refused and failed, with each failure's case
kept in a temporary directory. Needs TOFU_LENS_ORACLE_DIR (see
scripts/differential.py).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402

USAGE = __doc__.split("\n\n")[1]
NAMES = ["web", "db", "cache", "queue", "logs"]


def generate(rng):
    """A case's files and the rename to make: (file, label, new name)."""
    files = {}
    resources = rng.sample(NAMES, rng.randint(1, 4))
    shape = {name: rng.choice([None, None, "count", "for_each"]) for name in resources}
    json_names = [name for name in resources if rng.random() < 0.2]
    native = ""
    body = {}
    for index, name in enumerate(resources):
        meta = {"count": "  count = 2\n", "for_each": '  for_each = toset(["a", "b"])\n', None: ""}[shape[name]]
        earlier = resources[index - 1] if index else None
        if earlier and shape[earlier] is None and rng.random() < 0.5:
            value = f"terraform_data.{earlier}.id"
        else:
            value = f'"{name}"'
        if name in json_names:
            block = {"input": "${" + value + "}" if not value.startswith('"') else value.strip('"')}
            if shape[name] == "count":
                block["count"] = 2
            elif shape[name] == "for_each":
                block["for_each"] = '${toset(["a", "b"])}'
            body.setdefault("resource", {}).setdefault("terraform_data", {})[name] = block
        else:
            native += f'resource "terraform_data" "{name}" {{\n{meta}  input = {value}\n}}\n\n'
    singles = [name for name in resources if shape[name] is None]
    for name in singles:
        if rng.random() < 0.5:
            native += f'output "{name}_id" {{\n  value = terraform_data.{name}.id\n}}\n\n'
    overridden = [name for name in resources if name not in json_names and rng.random() < 0.2]
    if overridden:
        files["override.tf"] = "".join(
            f'resource "terraform_data" "{name}" {{\n  input = "changed-{name}"\n}}\n\n' for name in overridden
        )
    calls = []
    if rng.random() < 0.4:
        calls.append("app")
        child = "".join(f'resource "terraform_data" "{n}" {{\n  input = "{n}"\n}}\n\n' for n in ["one", "two"])
        child += 'output "one" {\n  value = terraform_data.one.id\n}\n'
        files["modules/child/main.tf"] = child
        meta = "  count  = 2\n" if rng.random() < 0.3 else ""
        native += f'module "app" {{\n  source = "./modules/child"\n{meta}}}\n\n'
    if rng.random() < 0.3 and singles:
        old = rng.choice(singles)
        files["moved.tf"] = f"moved {{\n  from = terraform_data.old_{old}\n  to   = terraform_data.{old}\n}}\n"
    files["main.tf"] = native or "# Resources in JSON.\n"
    if body:
        files["main.tf.json"] = body
    choices = [("main.tf.json" if name in json_names else "main.tf", name) for name in resources]
    choices += [("main.tf", call) for call in calls]
    if calls:
        choices.append(("modules/child/main.tf", rng.choice(["one", "two"])))
    file, label = rng.choice(choices)
    new = rng.choice([n for n in NAMES + ["renamed", "primary"] if n not in resources + calls + ["one", "two"]])
    return files, (file, label, new)


def label_position(text, label, json_file):
    """(line, character) inside the label `label` of the block that declares
    it (the JSON key, or the last quoted label of a native block)."""
    needle = f'"{label}": {{' if json_file else f'"{label}" {{'
    at = text.find(needle)
    if at < 0:
        return None
    at += 1
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


class Server:
    """`tofu-lens serve` over stdio, driven as an editor drives it."""

    def __init__(self, binary, root):
        self.process = subprocess.Popen(
            [binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        ident = self.next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        while True:
            message = self.read()
            if message is None:
                return None
            if message.get("id") == ident and "method" not in message:
                return message
            if "method" in message and "id" in message:
                # A request of the server's (configuration, progress): null.
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.process.stdout.read(length))

    def close(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def apply_edits(root, edit):
    """Applies an LSP WorkspaceEdit's `changes` (ASCII files: characters are
    bytes)."""
    for uri, edits in (edit or {}).get("changes", {}).items():
        path = uri.removeprefix("file://")
        with open(path) as f:
            lines = f.read().split("\n")
        offsets = []
        total = 0
        for line in lines:
            offsets.append(total)
            total += len(line) + 1
        text = "\n".join(lines)

        def offset(position):
            return offsets[position["line"]] + position["character"]

        for e in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
            start, end = offset(e["range"]["start"]), offset(e["range"]["end"])
            text = text[:start] + e["newText"] + text[end:]
        with open(path, "w") as f:
            f.write(text)


def prove(tofu, binary, case_dir, rename):
    """'proven', ('refused', message) or ('failed', why)."""
    file, label, new = rename
    work = tempfile.mkdtemp(prefix="tofu-lens-rename-")
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
        position = label_position(text, label, file.endswith(".json"))
        if position is None:
            return ("failed", f"no label {label} in {file}")
        server = Server(binary, root)
        uri = "file://" + path
        language = "json" if file.endswith(".json") else "opentofu"
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
        answer = server.request("textDocument/rename", {
            "textDocument": {"uri": uri},
            "position": {"line": position[0], "character": position[1]},
            "newName": new,
        })
        server.close()
        if answer is None:
            return ("failed", "the server closed")
        if answer.get("error"):
            return ("refused", answer["error"].get("message", ""))
        apply_edits(root, answer.get("result"))
        # A renamed module call is a new entry of the module manifest, as
        # after any rename: init again, as the user would.
        differential.init(tofu, root)
        validated = differential.run_tofu(tofu, ["validate", "-no-color"], root)
        if validated.returncode != 0:
            return ("failed", "validate: " + (validated.stdout + validated.stderr)[-400:])
        # Objects that move are changes to -detailed-exitcode (it exits 2):
        # the plan must add, change and destroy nothing, and once applied
        # the next plan must exit 0.
        planned = differential.run_tofu(tofu, ["plan", "-json", "-input=false"], root)
        summary = None
        for line in planned.stdout.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("type") == "change_summary":
                summary = message.get("changes", {})
        if summary is None:
            return ("failed", "plan: " + planned.stdout[-600:])
        changed = {k: v for k, v in summary.items() if k in ("add", "change", "remove", "import", "forget") and v}
        if changed:
            return ("failed", f"plan would {changed}")
        applied = differential.run_tofu(tofu, ["apply", "-auto-approve", "-input=false", "-no-color"], root)
        if applied.returncode != 0:
            return ("failed", "the renamed module does not apply: " + applied.stderr[-300:])
        again = differential.run_tofu(tofu, ["plan", "-detailed-exitcode", "-input=false", "-no-color"], root)
        if again.returncode != 0:
            return ("failed", f"plan after the move exits {again.returncode}: " + again.stdout[-600:])
        return "proven"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    run = differential.start_generated_run(
        "prove_renames.py", USAGE, [("--count", "100"), ("--seed", "46")], prefix="tofu-lens-renames"
    )
    if isinstance(run, int):
        return run
    cases = []
    for index in range(int(run.options["--count"])):
        name = f"case{index:05}"
        files, rename = generate(run.rng)
        differential.write_case(os.path.join(run.root, name), files)
        cases.append((name, rename))
    outcomes = differential.in_parallel(
        lambda case: prove(run.tofu, run.binary, os.path.join(run.root, case[0]), case[1]), cases
    )
    proven = sum(outcome == "proven" for outcome in outcomes)
    refused = [(c, o) for c, o in zip(cases, outcomes) if isinstance(o, tuple) and o[0] == "refused"]
    failed = [(c, o) for c, o in zip(cases, outcomes) if isinstance(o, tuple) and o[0] == "failed"]
    print(f"{len(cases)} renames in {run.root}: {proven} proven (validate clean, plan without changes), "
          f"{len(refused)} refused, {len(failed)} failed")
    for (name, rename), (_, why) in refused + failed:
        print(f"  {name} {rename}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
