#!/usr/bin/env python3
"""Runs module directories through OpenTofu's `tofu validate -json` with the
real providers installed (hashicorp/time and terraform-provider-openstack/
openstack from the oracle's plugin directory) and through `tofu-lens check
--format json`, and compares what each reports.

Each case directory is copied (its configuration files only) into a scratch
directory whose `.terraform` is a link to one directory initialised once
with both providers (`tofu init -plugin-dir`), so neither tool downloads
anything. tofu-lens reads the schemas from those installed packages, as a
user's `check` does, with a schema cache in the scratch area (the first
case runs each provider, the rest hit the cache).

    scripts/schema_oracle.py compare CASE_DIR...   # print where they differ
    scripts/schema_oracle.py oracle CASE_DIR       # what OpenTofu reports

Environment: TOFU (default /work/oracle/bin/tofu), PLUGINS (default
/work/oracle/plugins), TOFU_LENS (default target/debug/tofu-lens),
SCRATCH (default /tmp/tofu-lens-schema-oracle). OpenTofu's answers are
kept under SCRATCH/oracle-results, by the configuration's content
(ORACLE_CACHE=0 asks OpenTofu again).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOFU = os.environ.get("TOFU", "/work/oracle/bin/tofu")
PLUGINS = os.environ.get("PLUGINS", "/work/oracle/plugins")
TOFU_LENS = os.environ.get("TOFU_LENS", os.path.join(REPO, "target/debug/tofu-lens"))
SCRATCH = os.environ.get("SCRATCH", "/tmp/tofu-lens-schema-oracle")

TEMPLATE_MAIN = """terraform {
  required_providers {
    time = {
      source  = "hashicorp/time"
      version = "0.14.2"
    }
    openstack = {
      source  = "terraform-provider-openstack/openstack"
      version = "3.4.0"
    }
  }
}
"""

CONFIG_SUFFIXES = (".tf", ".tofu", ".tf.json", ".tofu.json")


def tofu_env():
    env = dict(os.environ)
    env["TF_CLI_CONFIG_FILE"] = "/dev/null"
    env["CHECKPOINT_DISABLE"] = "1"
    return env


def template_dir():
    """The directory initialised once with both providers."""
    template = os.path.join(SCRATCH, "template")
    if os.path.isdir(os.path.join(template, ".terraform", "providers")):
        return template
    os.makedirs(template, exist_ok=True)
    with open(os.path.join(template, "main.tf"), "w") as out:
        out.write(TEMPLATE_MAIN)
    subprocess.run(
        [TOFU, "init", "-plugin-dir=" + PLUGINS, "-input=false", "-no-color"],
        cwd=template,
        env=tofu_env(),
        check=True,
        capture_output=True,
    )
    return template


def stage(case_dir, name):
    """A scratch copy of the case's configuration files, initialised."""
    template = template_dir()
    work = os.path.join(SCRATCH, "cases", name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for entry in sorted(os.listdir(case_dir)):
        source = os.path.join(case_dir, entry)
        if os.path.isfile(source) and entry.endswith(CONFIG_SUFFIXES):
            shutil.copy(source, os.path.join(work, entry))
    os.symlink(os.path.join(template, ".terraform"), os.path.join(work, ".terraform"))
    shutil.copy(os.path.join(template, ".terraform.lock.hcl"), work)
    return work


def oracle_cache_path(work):
    """Where OpenTofu's answer for `work`'s configuration files is kept:
    under SCRATCH (outside the repository), keyed by the files' names and
    contents, the providers installed and OpenTofu's binary, so that a
    second run of the same cases runs only tofu-lens."""
    digest = hashlib.sha256()
    for entry in sorted(os.listdir(work)):
        path = os.path.join(work, entry)
        if os.path.isfile(path) and entry.endswith(CONFIG_SUFFIXES):
            digest.update(entry.encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(f.read() + b"\0")
    with open(os.path.join(work, ".terraform.lock.hcl"), "rb") as f:
        digest.update(f.read())
    binary = os.stat(TOFU)
    digest.update(f"{TOFU}:{binary.st_size}:{binary.st_mtime_ns}".encode())
    return os.path.join(SCRATCH, "oracle-results", digest.hexdigest() + ".json")


def oracle(work):
    """OpenTofu's diagnostics: (file, line, column, severity, summary,
    detail), from the cache of earlier runs when it has them
    (ORACLE_CACHE=0 runs OpenTofu anyway)."""
    cached = oracle_cache_path(work)
    if os.environ.get("ORACLE_CACHE", "1") != "0" and os.path.isfile(cached):
        with open(cached) as f:
            return [tuple(d) for d in json.load(f)]
    found = run_oracle(work)
    if not any(d[4] == "oracle output is not JSON" for d in found):
        os.makedirs(os.path.dirname(cached), exist_ok=True)
        with open(cached, "w") as f:
            json.dump(found, f)
    return found


def run_oracle(work):
    """`tofu validate -json` in `work`."""
    done = subprocess.run(
        [TOFU, "validate", "-json", "-no-color"],
        cwd=work,
        env=tofu_env(),
        capture_output=True,
        text=True,
    )
    try:
        parsed = json.loads(done.stdout)
    except json.JSONDecodeError:
        return [("-", 0, 0, "error", "oracle output is not JSON", done.stderr.strip())]
    found = []
    for diagnostic in parsed.get("diagnostics", []):
        where = diagnostic.get("range")
        if where:
            found.append(
                (
                    where["filename"],
                    where["start"]["line"],
                    where["start"]["column"],
                    diagnostic["severity"],
                    diagnostic["summary"],
                    diagnostic.get("detail", ""),
                )
            )
        else:
            found.append(("-", 0, 0, diagnostic["severity"], diagnostic["summary"], diagnostic.get("detail", "")))
    return sorted(found)


def tofu_lens(work):
    """tofu-lens's diagnostics, in the same shape (hints and lints left out)."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(SCRATCH, "cache")
    done = subprocess.run(
        [TOFU_LENS, "check", "--format", "json", "."],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
    )
    try:
        parsed = json.loads(done.stdout)
    except json.JSONDecodeError:
        return [("-", 0, 0, "error", "tofu-lens output is not JSON", done.stderr.strip())]
    found = []
    for diagnostic in parsed:
        if diagnostic["severity"] not in ("error", "warning"):
            continue
        file = diagnostic["file"]
        if file.startswith("./"):
            file = file[2:]
        start = diagnostic.get("range", {}).get("start", {})
        found.append(
            (
                file,
                start.get("line", 0),
                start.get("column", 0),
                diagnostic["severity"],
                diagnostic["summary"],
                diagnostic.get("detail", ""),
            )
        )
    return sorted(found)


def key(diagnostic):
    """What the acceptance compares: file, line and summary."""
    return (diagnostic[0], diagnostic[1], diagnostic[4])


def compare(case_dir, name=None):
    """(oracle, tofu_lens) diagnostics of one case."""
    name = name or os.path.basename(os.path.normpath(case_dir))
    work = stage(case_dir, name)
    return oracle(work), tofu_lens(work)


def show(diagnostics):
    return "\n".join(
        f"    {d[0]}:{d[1]}:{d[2]} {d[3]} {d[4]} | {d[5]}".replace("\n", "\\n") for d in diagnostics
    )


def main(argv):
    if len(argv) < 3 or argv[1] not in ("compare", "oracle"):
        print(__doc__)
        return 2
    if argv[1] == "oracle":
        work = stage(argv[2], os.path.basename(os.path.normpath(argv[2])))
        print(show(oracle(work)))
        return 0
    n_differ = 0
    for case in argv[2:]:
        theirs, ours = compare(case)
        if sorted(map(key, theirs)) == sorted(map(key, ours)):
            print(f"same  {case}")
            continue
        n_differ += 1
        print(f"DIFF  {case}\n  oracle:\n{show(theirs)}\n  tofu-lens:\n{show(ours)}")
    return 1 if n_differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
