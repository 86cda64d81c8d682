#!/usr/bin/env python3
"""Differential run: tofu-lens check against OpenTofu's own `tofu validate -json`.

For every module directory under the given roots, OpenTofu validates a temporary
copy of the directory (no `init`: module and provider installation errors are
dropped as noise), and its errors are compared with the errors of
`tofu-lens check --format json` by file, line and summary (with `--strict`:
by file, start and end positions, summary and detail). Prints each
disagreement and a summary; exits 0 (it is a report, not a test).

The reference lives outside the repository: TOFU_LENS_ORACLE_DIR names a
directory holding a `tofu` binary (for instance one built from OpenTofu's
v1.12.6 source with `go build ./cmd/tofu`). Without it this says so and stops.

usage: scripts/differential.py TOFU_LENS_BINARY ROOT... [--json OUT] [--strict]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

CONFIG_SUFFIXES = (".tf", ".tofu", ".tf.json", ".tofu.json")
# Errors that only say what `tofu init` would have installed.
NOISE = (
    "Module not installed",
    "Missing required provider",
    "Module source has changed",
    "Module version requirements have changed",
    "Failed to load plugin schemas",
    "missing or corrupted provider plugins",
    "Inconsistent dependency lock file",
)


# Set by --strict: compare ranges and details too.
STRICT = False


def where_and_what(r, d):
    """The (position, text) part of an error's key."""
    if not STRICT:
        return r["start"]["line"], d["summary"]
    span = f'{r["start"]["line"]}:{r["start"]["column"]}-{r["end"]["line"]}:{r["end"]["column"]}'
    return span, f'{d["summary"]} | {d.get("detail", "")}'


def oracle():
    directory = os.environ.get("TOFU_LENS_ORACLE_DIR")
    if not directory:
        return None
    binary = os.path.join(directory, "tofu")
    return binary if os.access(binary, os.X_OK) else None


def module_dirs(roots):
    dirs = set()
    for top in roots:
        for root, subdirs, files in os.walk(top):
            subdirs[:] = [d for d in subdirs if not d.startswith(".") and d != "node_modules"]
            if any(f.endswith(CONFIG_SUFFIXES) for f in files):
                dirs.add(os.path.normpath(root))
    return sorted(dirs)


def validate(tofu, directory, init=False):
    """OpenTofu's errors for one directory: {(file, line, summary)}.

    With `init`, the whole tree is copied and `tofu init` (offline: local
    modules only) runs first, so calls of local modules are judged too."""
    with tempfile.TemporaryDirectory() as tmp:
        rc = os.path.join(tmp, ".tofurc")
        open(rc, "w").close()
        env = dict(os.environ, TF_CLI_CONFIG_FILE=rc, TF_IN_AUTOMATION="1")
        work = os.path.join(tmp, "module")
        if init:
            shutil.copytree(directory, work)
            subprocess.run(
                [tofu, "init", "-input=false", "-no-color"],
                cwd=work, capture_output=True, text=True, env=env, timeout=120,
            )
        else:
            os.makedirs(work)
            for name in os.listdir(directory):
                path = os.path.join(directory, name)
                if os.path.isfile(path):
                    shutil.copy(path, work)
        out = subprocess.run(
            [tofu, "validate", "-json", "-no-color"],
            cwd=work, capture_output=True, text=True, env=env, timeout=120,
        ).stdout
    try:
        diagnostics = json.loads(out).get("diagnostics", [])
    except json.JSONDecodeError:
        return None
    errors = set()
    for d in diagnostics:
        if d.get("severity") != "error" or d.get("summary", "").startswith(NOISE):
            continue
        if any(noise in d.get("detail", "") for noise in ("tofu init", "terraform init")):
            continue
        r = d.get("range")
        if not r:
            errors.add((directory, 0, d["summary"]))
            continue
        errors.add((os.path.join(directory, r["filename"]), *where_and_what(r, d)))
    return errors


def cycle_summary(summary):
    """A `Cycle: …` summary with its names sorted: OpenTofu lists them in no
    fixed order."""
    return "Cycle: " + ", ".join(sorted(summary[len("Cycle: "):].split(", ")))


def take_option(args, key, default=None):
    """Removes `key VALUE` from args and returns VALUE (or the default)."""
    if key not in args:
        return default
    i = args.index(key)
    value = args[i + 1]
    del args[i : i + 2]
    return value


def oracle_or_say(tool):
    """The oracle's tofu binary, or None after saying why there is none."""
    tofu = oracle()
    if tofu is None:
        print(f"{tool}: TOFU_LENS_ORACLE_DIR is not set or holds no tofu binary; nothing to compare.")
    return tofu


def tofu_lens_errors(binary, roots):
    """tofu-lens's errors under the roots: {dir: {(file, line, summary)}}."""
    out = subprocess.run(
        [binary, "check", "--format", "json", *roots], capture_output=True, text=True
    ).stdout
    errors = {}
    for d in json.loads(out):
        if d["severity"] != "error":
            continue
        path = os.path.normpath(d["file"])
        key = where_and_what(d["range"], d) if d.get("range") else (0, d["summary"])
        errors.setdefault(os.path.dirname(path), set()).add((path, *key))
    return errors


def main():
    args = sys.argv[1:]
    global STRICT
    out_json = take_option(args, "--json")
    if "--strict" in args:
        args.remove("--strict")
        STRICT = True
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("differential")
    if tofu is None:
        return 0
    binary, roots = args[0], args[1:]
    ours = tofu_lens_errors(binary, roots)
    dirs = module_dirs(roots)
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        theirs = dict(zip(dirs, pool.map(lambda d: validate(tofu, d), dirs)))
    n_agree = n_common = 0
    report = []
    for directory in dirs:
        their_errors = theirs[directory]
        if their_errors is None:
            report.append({"dir": directory, "oracle": "no JSON output"})
            continue
        our_errors = ours.get(directory, set())
        common = our_errors & their_errors
        n_common += len(common)
        only_ours = sorted(our_errors - their_errors)
        only_theirs = sorted(their_errors - our_errors)
        if not only_ours and not only_theirs:
            n_agree += 1
            continue
        report.append({"dir": directory, "only_tofu_lens": only_ours, "only_opentofu": only_theirs})
        print(f"{directory}:")
        for e in only_ours:
            print(f"  only tofu-lens: {e[0]}:{e[1]}: {e[2]}")
        for e in only_theirs:
            print(f"  only OpenTofu:  {e[0]}:{e[1]}: {e[2]}")
    print(f"directories: {len(dirs)}, agreeing: {n_agree}, errors in common: {n_common}")
    if out_json:
        with open(out_json, "w") as f:
            json.dump(report, f, indent=1, default=list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
