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

Environment: TOFU_LENS_ORACLE_DIR (OpenTofu's `tofu`, as for every
oracle script), TOFU_LENS_PROVIDER_ORACLE (the directory whose `plugins/`
holds both providers laid out for `tofu init -plugin-dir`, as the Rust
tests find them; PLUGINS names that directory itself instead), TOFU_LENS
(default target/debug/tofu-lens), SCRATCH (default
/tmp/tofu-lens-schema-oracle). OpenTofu's answers are kept in
SCRATCH/oracle-results.json, by the configuration's content
(ORACLE_CACHE=0 asks OpenTofu again).
"""

import hashlib
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import (  # noqa: E402
    AnswerCache,
    CONFIG_SUFFIXES,
    init,
    oracle,
    oracle_or_say,
    row,
    tofu_lens_check,
    validate_json,
)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOFU = oracle()
PLUGINS = os.environ.get("PLUGINS") or os.path.join(os.environ.get("TOFU_LENS_PROVIDER_ORACLE", ""), "plugins")
TOFU_LENS = os.environ.get("TOFU_LENS", os.path.join(REPO, "target/debug/tofu-lens"))
SCRATCH = os.environ.get("SCRATCH", "/tmp/tofu-lens-schema-oracle")
ANSWERS = AnswerCache(os.path.join(SCRATCH, "oracle-results.json"))

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


def template_dir():
    """The directory initialised once with both providers."""
    template = os.path.join(SCRATCH, "template")
    if os.path.isdir(os.path.join(template, ".terraform", "providers")):
        return template
    os.makedirs(template, exist_ok=True)
    with open(os.path.join(template, "main.tf"), "w") as out:
        out.write(TEMPLATE_MAIN)
    done = init(TOFU, template, "-plugin-dir=" + PLUGINS)
    if done.returncode != 0:
        sys.exit(f"schema_oracle: tofu init -plugin-dir={PLUGINS} failed:\n{done.stderr}")
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


def oracle_cache_key(work):
    """The key of OpenTofu's answer for `work`'s configuration files: their
    names and contents, the providers installed and OpenTofu's binary, so
    that a second run of the same cases runs only tofu-lens."""
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
    return digest.hexdigest()


def oracle(work):
    """OpenTofu's diagnostics: (file, line, column, severity, summary,
    detail), from the cache of earlier runs when it has them
    (ORACLE_CACHE=0 runs OpenTofu anyway)."""
    key = oracle_cache_key(work)
    if os.environ.get("ORACLE_CACHE", "1") != "0" and key in ANSWERS:
        return [tuple(d) for d in ANSWERS.get(key)]
    found = run_oracle(work)
    if not any(d[4] == "oracle output is not JSON" for d in found):
        ANSWERS.put(key, found)
        ANSWERS.save()
    return found


def as_tuple(d):
    """A Row as the tuple this script compares, "-" for no file."""
    return (d.file or "-", d.line, d.column, d.severity, d.summary, d.detail)


def run_oracle(work):
    """`tofu validate -json` in `work`."""
    diagnostics = validate_json(TOFU, work)
    if diagnostics is None:
        return [("-", 0, 0, "error", "oracle output is not JSON", "")]
    return sorted(as_tuple(row(d)) for d in diagnostics)


# Warnings of tofu-lens's own, which OpenTofu never gives.
OWN_CODES = ("override-argument-ignored",)


def tofu_lens(work):
    """tofu-lens's diagnostics, in the same shape (hints, lints and the
    warnings of OWN_CODES left out)."""
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(SCRATCH, "cache"))
    try:
        diagnostics = tofu_lens_check(TOFU_LENS, cwd=work, env=env)
    except RuntimeError as error:
        return [("-", 0, 0, "error", "tofu-lens output is not JSON", str(error))]
    return sorted(
        as_tuple(row(d))
        for d in diagnostics
        if d["severity"] in ("error", "warning") and d.get("code") not in OWN_CODES
    )


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
    if oracle_or_say("schema_oracle") is None:
        return 0
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
