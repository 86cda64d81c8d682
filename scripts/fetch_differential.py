#!/usr/bin/env python3
"""The differential of issue 47: `tofu-lens check --fetch-providers` on a
module nothing was installed for, against OpenTofu 1.12.6's `tofu validate
-json` after `tofu init`, both fetching hashicorp/time from the same HTTPS
registry on loopback (tofu-fetch's test registry, `examples/test_registry`:
the real provider built through the Go module proxy, zipped as a release
is, its checksums signed with the test OpenPGP key, a test CA trusted
through SSL_CERT_FILE), found through a CLI configuration `host` block.

Per generated module it compares
- the diagnostics (file, line, severity, summary; what only says that
  `init` was not run is left out), and
- what was fetched: the version `tofu init` wrote into the lock file and
  the one `tofu-lens schemas` says the schema is from, and the lock file's
  hashes and those tofu-lens's cache records for that package (as sets).

The registry serves 0.13.1, 0.14.2, 0.15.0-beta1 and 1.0.0 (one binary),
so the version choice is compared too: the modules' constraints are drawn
from "0.14.2", "~> 0.14", "~> 0.13.0", ">= 0.13", "0.15.0-beta1" and none
(the implied provider). Mistakes are put where users put them: a resource
body of main.tf, another file, a `.tf.json` file, an override file, a
child module (its own file, calling no provider block); some modules carry
the lock file `tofu init` wrote (tofu-lens then fetches what it pins).

    scripts/fetch_differential.py [N] [SEED]

Environment: TOFU_LENS_ORACLE_DIR (OpenTofu's `tofu`),
TOFU_LENS_PROVIDER_PLUGINS (the time provider laid out for `tofu init
-plugin-dir`, as CI builds it), TOFU_LENS (default target/debug/tofu-lens),
TEST_REGISTRY (default target/debug/examples/test_registry), SCRATCH
(default /tmp/tofu-lens-fetch-differential).
"""

import json
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import NOISE, in_parallel, oracle_or_say, row  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CA = os.path.join(REPO, "crates/tofu-fetch/tests/data/ca.pem")
VERSIONS = ["0.13.1", "0.14.2", "0.15.0-beta1", "1.0.0"]
CONSTRAINTS = [None, "0.14.2", "~> 0.14", "~> 0.13.0", ">= 0.13", "0.15.0-beta1"]
ADDRESS = "registry.opentofu.org/hashicorp/time"
# tofu-lens's own warnings, which OpenTofu does not give: an override's
# argument the schema does not have is dropped without a word by OpenTofu
# (diagnostics.md §7), said by tofu-lens.
OWN_CODES = ("override-argument-ignored",)

# Valid bodies of each type (time 0.14.2), and mistakes in them.
BODIES = {
    "time_static": {"triggers": '{ a = "b" }'},
    "time_sleep": {"create_duration": '"30s"'},
    "time_rotating": {"rotation_days": "7"},
    "time_offset": {"offset_days": "1"},
}
MISTAKES = [
    "none", "none", "misspelt", "unknown_argument", "wrong_type", "block_for_argument",
    "invalid_type", "validator", "missing_one_of",
]
VALIDATOR = {
    "time_sleep": ("create_duration", '"10x"'),
    "time_static": ("rfc3339", '"yesterday"'),
    "time_rotating": ("rfc3339", '"not a time"'),
    "time_offset": ("base_rfc3339", '"soon"'),
}


def body_lines(attributes, extra=()):
    width = max([len(name) for name in attributes] + [0])
    lines = [f"  {name.ljust(width)} = {value}" for name, value in attributes.items()]
    return lines + list(extra)


def resource(rng, name):
    """A resource block's lines, with at most one mistake: (kind, lines)."""
    type_name = rng.choice(sorted(BODIES))
    attributes = dict(BODIES[type_name])
    kind = rng.choice(MISTAKES)
    extra = []
    if kind == "misspelt":
        key = next(iter(attributes))
        attributes[key[:-1] + "z"] = attributes.pop(key)
        if type_name == "time_rotating":
            attributes["rotation_months"] = "1"
    elif kind == "unknown_argument":
        attributes["colour"] = '"blue"'
    elif kind == "wrong_type":
        if type_name == "time_static":
            attributes["triggers"] = '"not a map"'
        else:
            kind = "none"
    elif kind == "block_for_argument":
        extra = ["  triggers {", "  }"]
        attributes.pop("triggers", None)
    elif kind == "invalid_type":
        type_name = type_name.replace("time_", "time_x")
    elif kind == "validator":
        key, value = VALIDATOR[type_name]
        attributes[key] = value
    elif kind == "missing_one_of":
        if type_name == "time_rotating":
            attributes = {}
        else:
            kind = "none"
    return kind, [f'resource "{type_name}" "{name}" {{'] + body_lines(attributes, extra) + ["}"]


def json_resource(rng, name):
    """A resource in a .tf.json file, a mistake or none: (kind, object)."""
    type_name = rng.choice(sorted(BODIES))
    body = {"time_sleep": {"create_duration": "30s"}, "time_static": {},
            "time_rotating": {"rotation_days": 7}, "time_offset": {"offset_days": 1}}[type_name]
    kind = rng.choice(["none", "unknown_argument", "validator"])
    if kind == "unknown_argument":
        body["colour"] = "blue"
    elif kind == "validator":
        key, value = VALIDATOR[type_name]
        body[key] = json.loads(value)
    return kind, {"resource": {type_name: {name: body}}}


def required(constraint):
    if constraint is None:
        return ""
    return (
        "terraform {\n  required_providers {\n    time = {\n"
        f'      source  = "hashicorp/time"\n      version = "{constraint}"\n'
        "    }\n  }\n}\n\n"
    )


def case_files(rng):
    """One module's files (path -> text) and the kinds of its mistakes."""
    constraint = rng.choice(CONSTRAINTS)
    files = {}
    kinds = []
    main = [required(constraint).rstrip("\n")]
    for index in range(rng.randint(1, 3)):
        kind, lines = resource(rng, f"r{index}")
        kinds.append(kind)
        main += [""] + lines
    where = rng.choice(["main", "other", "json", "override", "child", "child"])
    if where == "other":
        kind, lines = resource(rng, "other")
        kinds.append("other/" + kind)
        files["other.tf"] = "\n".join(lines) + "\n"
    elif where == "json":
        kind, value = json_resource(rng, "j")
        kinds.append("json/" + kind)
        files["extra.tf.json"] = json.dumps(value, indent=2) + "\n"
    elif where == "override":
        # An override of the first resource: a misspelt or valid argument.
        first = main[2] if len(main) > 2 else ""
        parts = first.split('"')
        if len(parts) >= 4:
            type_name, name = parts[1], parts[3]
            argument = rng.choice(["colour = \"red\"", "triggers = { c = \"d\" }"])
            if type_name not in BODIES:
                argument = "colour = \"red\""
            kinds.append("override/" + argument.split()[0])
            files["override.tf"] = f'resource "{type_name}" "{name}" {{\n  {argument}\n}}\n'
    elif where == "child":
        kind, lines = resource(rng, "child")
        kinds.append("child/" + kind)
        child_constraint = constraint if rng.random() < 0.5 else None
        files["modules/child/main.tf"] = required(child_constraint) + "\n".join(lines) + "\n"
        main += ["", 'module "child" {', '  source = "./modules/child"', "}"]
    files["main.tf"] = "\n".join(line for line in main if line is not None).lstrip("\n") + "\n"
    return constraint, kinds, files


def write(directory, files):
    for name, text in files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as out:
            out.write(text)


def start_registry(registry, executable):
    args = [registry]
    for version in VERSIONS:
        args += ["--release", f"time={version}:{executable}"]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    base = process.stdout.readline().strip()
    if not base.startswith("https://"):
        sys.exit(f"fetch_differential: the test registry did not start ({base!r})")
    return process, base


def lock_entry(directory):
    """(version, hashes) of the time provider in `directory`'s lock file."""
    path = os.path.join(directory, ".terraform.lock.hcl")
    if not os.path.isfile(path):
        return None, set()
    text = open(path).read()
    version = None
    hashes = set()
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("version"):
            version = line.split('"')[1]
        elif line.startswith('"h1:') or line.startswith('"zh:'):
            hashes.add(line.strip('",'))
    return version, hashes


def main(argv):
    n_cases = int(argv[1]) if len(argv) > 1 else 500
    seed = int(argv[2]) if len(argv) > 2 else 47
    tofu = oracle_or_say("fetch_differential")
    if tofu is None:
        return 0
    plugins = os.environ.get("TOFU_LENS_PROVIDER_PLUGINS")
    if not plugins:
        print("fetch_differential: TOFU_LENS_PROVIDER_PLUGINS is not set; nothing to compare.")
        return 0
    platform = subprocess.run(["go", "env", "GOOS", "GOARCH"], capture_output=True, text=True).stdout.split()
    executable = os.path.join(
        plugins, "registry.opentofu.org/hashicorp/time/0.14.2", "_".join(platform),
        "terraform-provider-time_v0.14.2",
    )
    binary = os.environ.get("TOFU_LENS", os.path.join(REPO, "target/debug/tofu-lens"))
    registry = os.environ.get("TEST_REGISTRY", os.path.join(REPO, "target/debug/examples/test_registry"))
    scratch = os.environ.get("SCRATCH", "/tmp/tofu-lens-fetch-differential")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    process, base = start_registry(registry, executable)
    try:
        rc = os.path.join(scratch, "tofurc")
        with open(rc, "w") as out:
            out.write(
                f'host "registry.opentofu.org" {{\n  services = {{\n'
                f'    "providers.v1" = "{base}/v1/providers/"\n  }}\n}}\n'
            )
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        env = dict(
            os.environ, HOME=home, XDG_CACHE_HOME=os.path.join(home, "cache"),
            TF_CLI_CONFIG_FILE=rc, SSL_CERT_FILE=CA, TF_IN_AUTOMATION="1",
        )
        env.pop("TF_PLUGIN_CACHE_DIR", None)
        rng = random.Random(seed)
        cases = [(index, *case_files(rng), rng.random() < 0.3) for index in range(n_cases)]

        def run(case):
            index, constraint, kinds, files, with_lock = case
            a = os.path.join(scratch, "a", str(index))
            b = os.path.join(scratch, "b", str(index))
            write(a, files)
            write(b, files)
            init = subprocess.run([tofu, "init", "-input=false", "-no-color"], cwd=a, env=env,
                                  capture_output=True, text=True, timeout=300)
            if init.returncode != 0:
                theirs = [("init", 0, "error", init.stderr.strip().splitlines()[-1:] or [""])]
                theirs = [(r[0], r[1], r[2], str(r[3])) for r in theirs]
            else:
                out = subprocess.run([tofu, "validate", "-json", "-no-color"], cwd=a, env=env,
                                     capture_output=True, text=True, timeout=300).stdout
                theirs = [
                    row(d) for d in json.loads(out).get("diagnostics", [])
                    if not any(noise in d.get("summary", "") for noise in NOISE)
                ]
                theirs = [(r.file, r.line, r.severity, r.summary) for r in theirs]
            locked_version, locked_hashes = lock_entry(a)
            if with_lock and locked_version:
                shutil.copy(os.path.join(a, ".terraform.lock.hcl"), b)
            done = subprocess.run([binary, "check", "--fetch-providers", "--format", "json", "."],
                                  cwd=b, env=env, capture_output=True, text=True, timeout=300)
            ours = [row(d) for d in json.loads(done.stdout or "[]") if d.get("code") not in OWN_CODES]
            ours = [(r.file, r.line, r.severity, r.summary) for r in ours
                    if r.severity in ("error", "warning")]
            report = subprocess.run([binary, "schemas", "--format", "json", "."], cwd=b, env=env,
                                    capture_output=True, text=True, timeout=300)
            version = None
            for module in json.loads(report.stdout or '{"modules": []}')["modules"]:
                if module["dir"] in (".", "./"):
                    for provider in module["providers"]:
                        if provider["address"] == ADDRESS:
                            version = provider.get("version")
            record_hashes = set()
            if version:
                record = os.path.join(
                    home, "cache/tofu-lens/packages/registry.opentofu.org/hashicorp/time",
                    f"terraform-provider-time_{version}_{'_'.join(platform)}.json",
                )
                if os.path.isfile(record):
                    record_hashes = set(json.load(open(record))["hashes"])
            problems = []
            if sorted(set(theirs)) != sorted(set(ours)):
                problems.append(f"diagnostics\n    tofu:      {sorted(set(theirs))}\n    tofu-lens: {sorted(set(ours))}")
            if locked_version != version:
                problems.append(f"version: tofu init {locked_version}, tofu-lens {version}")
            elif locked_hashes != record_hashes:
                problems.append(f"hashes: lock file {sorted(locked_hashes)}, tofu-lens {sorted(record_hashes)}")
            if not problems:
                shutil.rmtree(a, ignore_errors=True)
                shutil.rmtree(b, ignore_errors=True)
            return index, constraint, kinds, files, problems, len(theirs)

        results = in_parallel(run, cases, workers=2)
    finally:
        if os.environ.get("KEEP_REGISTRY"):
            print(f"the registry stays at {base} (pid {process.pid})")
        else:
            process.kill()
    agree = [r for r in results if not r[4]]
    n_errors = sum(r[5] for r in results)
    by_constraint = {}
    for _, constraint, _, _, problems, _ in results:
        total, good = by_constraint.get(constraint, (0, 0))
        by_constraint[constraint] = (total + 1, good + (not problems))
    print(f"{len(agree)} of {len(results)} modules agree "
          f"({100.0 * len(agree) / max(len(results), 1):.2f} %); {n_errors} diagnostics from tofu validate")
    for constraint, (total, good) in sorted(by_constraint.items(), key=lambda item: str(item[0])):
        print(f"  version constraint {constraint!r}: {good}/{total}")
    for index, constraint, kinds, files, problems, _ in results:
        if problems:
            print(f"\nDIFF module {index} (constraint {constraint!r}, {kinds})")
            for name, text in sorted(files.items()):
                print(f"  -- {name}")
                for line in text.splitlines():
                    print("    | " + line)
            for problem in problems:
                print("  " + problem)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
