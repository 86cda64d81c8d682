#!/usr/bin/env python3
"""Differential run: tofu-lens check against OpenTofu's own `tofu validate -json`.

For every module directory under the given roots, OpenTofu validates a temporary
copy of the directory (no `init`: module and provider installation errors are
dropped as noise), and its errors are compared with the errors of
`tofu-lens check --format json` by file, line and summary (with `--strict`:
by file, start and end positions, summary and detail). Prints each
disagreement and a summary; exits 0 (it is a report, not a test).

The reference lives outside the repository: TOFU_LENS_ORACLE_DIR names a
directory holding a `tofu` binary, or the directory whose `bin/` holds it
(for instance one built from OpenTofu's v1.12.6 source with `go build
./cmd/tofu`). Without it this says so and stops.

This module is also the oracle runner every differential script imports,
so that they all run both tools the same way:

- finding the oracle: `oracle`, `oracle_or_say`;
- running OpenTofu: `scratch_copy` (a temporary copy of a case),
  `run_tofu` (an empty CLI configuration, `tofu_env`), `init`,
  `validate_json`, `streamed_diagnostics` (`-json` streams of `init` and
  `plan`), `has_place_or_none`;
- running tofu-lens: `tofu_lens_check`, `tofu_lens_errors`;
- reading either tool's diagnostic as a `Row` (`row`);
- generated cases: `start_generated_run`, `write_case`, `in_parallel`,
  `Disagreements`, and `AnswerCache` with `digest` for OpenTofu's answers;
- the command line: `take_option`, `take_flag`.

usage: scripts/differential.py TOFU_LENS_BINARY ROOT... [--json OUT] [--strict]
"""
import collections
import contextlib
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
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
# How long one run of either tool may take, in seconds.
TIMEOUT = 120


# The oracle runner: every differential script finds OpenTofu, runs it in a
# scratch copy of a case, runs tofu-lens, and reads both answers as rows
# through what follows.


def oracle(program="tofu"):
    """The oracle's `program` (OpenTofu's `tofu`, or a helper built beside
    it such as `effective-config`): TOFU_LENS_ORACLE_DIR names the
    directory holding it, or the directory whose `bin/` does. None when
    neither holds it."""
    directory = os.environ.get("TOFU_LENS_ORACLE_DIR")
    if not directory:
        return None
    for candidate in (os.path.join(directory, program), os.path.join(directory, "bin", program)):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def oracle_or_say(tool, program="tofu"):
    """The oracle's program, or None after saying why there is none."""
    found = oracle(program)
    if found is None:
        print(f"{tool}: TOFU_LENS_ORACLE_DIR is not set or holds no {program} binary; nothing to compare.")
    return found


def tofu_env():
    """The environment OpenTofu runs in: an empty CLI configuration (no
    plugin cache, mirrors or credentials of the machine), and automation's
    shorter `init` messages."""
    return dict(os.environ, TF_CLI_CONFIG_FILE=os.devnull, TF_IN_AUTOMATION="1")


def run_tofu(tofu, args, cwd, stdin=None, timeout=TIMEOUT):
    """`tofu ARGS` in `cwd` (tofu_env); stdin and the outputs as bytes
    when `stdin` is bytes, else as text."""
    binary = isinstance(stdin, bytes)
    return subprocess.run(
        [tofu, *args], cwd=cwd, input=stdin, capture_output=True, text=not binary,
        env=tofu_env(), timeout=timeout,
    )


@contextlib.contextmanager
def scratch_copy(directory, tree=True):
    """A temporary copy of a case for OpenTofu, which writes `.terraform`
    and state where it runs: the whole tree, or (`tree=False`) the
    directory's own files only. Removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="tofu-lens-oracle-") as tmp:
        work = os.path.join(tmp, "module")
        if tree:
            shutil.copytree(directory, work)
        else:
            os.makedirs(work)
            for name in os.listdir(directory):
                path = os.path.join(directory, name)
                if os.path.isfile(path):
                    shutil.copy(path, work)
        yield work


def init(tofu, work, *args):
    """`tofu init` in `work` (offline: local modules, and providers from a
    `-plugin-dir` passed in `args`); its output, text."""
    return run_tofu(tofu, ["init", "-input=false", "-no-color", *args], work)


def validate_json(tofu, work):
    """`tofu validate -json` in `work`: its diagnostics (dicts), or None
    when it printed no JSON (a crash)."""
    out = run_tofu(tofu, ["validate", "-json", "-no-color"], work).stdout
    try:
        return json.loads(out).get("diagnostics", [])
    except json.JSONDecodeError:
        return None


def streamed_diagnostics(stdout):
    """The diagnostics of a `-json` stream (`tofu init -json`, `tofu plan
    -json`): one JSON message a line, those of type `diagnostic`."""
    found = []
    for line in stdout.splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(message, dict) and message.get("type") == "diagnostic" and message.get("diagnostic"):
            found.append(message["diagnostic"])
    return found


Row = collections.namedtuple("Row", "file line column severity summary detail")
Row.__doc__ = """One diagnostic of either tool as compared: the file as the tool
names it (OpenTofu: relative to where it ran; tofu-lens: as given, less a
leading `./`), "" and line and column 0 for a diagnostic without a place."""


def row(d):
    """A diagnostic of OpenTofu's JSON (`range.filename`) or of tofu-lens's
    (`file`, `range`) as a Row."""
    if "file" in d:
        file = d["file"].removeprefix("./")
        place = d.get("range") or {}
    else:
        place = d.get("range") or {}
        file = place.get("filename", "")
    start = place.get("start", {})
    return Row(file, start.get("line", 0), start.get("column", 0), d.get("severity", ""), d.get("summary", ""), d.get("detail", ""))


def has_place_or_none(d):
    """Whether an OpenTofu diagnostic has a place or none at all, not the
    empty one (a zero `hcl.Range`, no file name) of a duplicate OpenTofu
    adds beside some errors."""
    place = d.get("range")
    return not place or place.get("filename") != ""


def tofu_lens_check(binary, paths=(".",), cwd=None, env=None):
    """`tofu-lens check --format json PATHS` in `cwd`: its diagnostics
    (dicts). Output that is not JSON (a crash) stops the run."""
    done = subprocess.run(
        [binary, "check", "--format", "json", *paths], cwd=cwd, capture_output=True, text=True, env=env,
    )
    try:
        return json.loads(done.stdout or "[]")
    except json.JSONDecodeError as error:
        raise RuntimeError(f"tofu-lens check in {cwd or '.'} printed no JSON: {done.stderr.strip()}") from error


def in_parallel(function, items, workers=None):
    """function(item) for every item, in order, on `workers` threads (one
    a core by default): each runs a process, so threads are enough."""
    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
        return list(pool.map(function, items))


def digest(value):
    """A key for a case's content (any JSON value): the same text, the
    same key."""
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


class AnswerCache:
    """OpenTofu's answers kept in a JSON file (a map from a key such as
    `digest(files)` to the answer) outside the repository, so that a second
    run of the same cases asks only tofu-lens. Safe to share between
    threads; `save` after every batch keeps what an interrupted run did."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        try:
            with open(path) as f:
                self.answers = json.load(f)
        except (OSError, json.JSONDecodeError):
            self.answers = {}

    def __contains__(self, key):
        return key in self.answers

    def get(self, key, default=None):
        return self.answers.get(key, default)

    def put(self, key, answer):
        with self.lock:
            self.answers[key] = answer

    def save(self):
        with self.lock:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
            with open(self.path + ".tmp", "w") as f:
                json.dump(self.answers, f, ensure_ascii=False)
            os.replace(self.path + ".tmp", self.path)


def write_case(case_dir, files):
    """Writes a generated case: {relative path: text, or a JSON value
    written indented}."""
    os.makedirs(case_dir, exist_ok=True)
    for name, content in files.items():
        path = os.path.join(case_dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content, indent=2) + "\n")


def take_option(args, key, default=None):
    """Removes `key VALUE` from args and returns VALUE (or the default)."""
    if key not in args:
        return default
    i = args.index(key)
    value = args[i + 1]
    del args[i : i + 2]
    return value


def take_flag(args, key):
    """Removes `key` from args; whether it was there."""
    if key not in args:
        return False
    args.remove(key)
    return True


GeneratedRun = collections.namedtuple("GeneratedRun", "binary tofu options flags rng root")
GeneratedRun.__doc__ = """What a case generator starts from: tofu-lens's binary (absolute),
OpenTofu's, the options by name, the flags (True where given), the seeded
random source and a new scratch directory for the cases."""


def start_generated_run(tool, usage, defaults, flags=(), prefix="tofu-lens-cases"):
    """The start every case generator shares: its command line
    (`TOFU_LENS_BINARY`, the options `defaults` lists as (name, default),
    `--seed` among them, and the `flags`), the oracle, the random source,
    the scratch directory. An exit code instead when it stops there: 2
    after printing the usage, 0 after saying there is no oracle."""
    args = sys.argv[1:]
    given = {flag: take_flag(args, flag) for flag in flags}
    options = {key: take_option(args, key, default) for key, default in defaults}
    if len(args) != 1:
        print(usage.strip())
        return 2
    tofu = oracle_or_say(tool)
    if tofu is None:
        return 0
    rng = random.Random(int(options["--seed"]))
    return GeneratedRun(os.path.abspath(args[0]), tofu, options, given, rng, tempfile.mkdtemp(prefix=f"{prefix}-"))


class Disagreements:
    """The cases on which the tools disagree, by class: the summaries only
    tofu-lens gave and the summaries only OpenTofu gave (after a label such
    as the case's family), with the first case of each class as its
    example; `keep` (a directory, or None) receives a copy of each."""

    def __init__(self, keep=None):
        self.keep = keep
        self.counts = collections.Counter()
        self.examples = {}

    def add(self, case_dir, ours, theirs, label=None, summary=lambda e: e[2], example=None):
        """One disagreeing case; `ours` and `theirs` are sets of keys whose
        summary `summary` finds."""
        key = (
            label,
            tuple(sorted({summary(e) for e in ours - theirs})),
            tuple(sorted({summary(e) for e in theirs - ours})),
        )
        self.counts[key] += 1
        self.examples.setdefault(key, example or case_dir)
        if self.keep:
            shutil.copytree(case_dir, os.path.join(self.keep, os.path.basename(case_dir)), dirs_exist_ok=True)

    def print(self):
        for (label, only_ours, only_theirs), n in self.counts.most_common():
            prefix = f"{label}: " if label else ""
            example = self.examples[(label, only_ours, only_theirs)]
            print(f"{n:5} {prefix}tofu-lens only {list(only_ours)}; OpenTofu only {list(only_theirs)}; e.g. {example}")


# What differential.py itself compares.

# Set by --strict: compare ranges and details too.
STRICT = False


def where_and_what(r, d):
    """The (position, text) part of an error's key."""
    if not STRICT:
        return r["start"]["line"], d["summary"]
    span = f'{r["start"]["line"]}:{r["start"]["column"]}-{r["end"]["line"]}:{r["end"]["column"]}'
    return span, f'{d["summary"]} | {d.get("detail", "")}'


def module_dirs(roots):
    dirs = set()
    for top in roots:
        for root, subdirs, files in os.walk(top):
            subdirs[:] = [d for d in subdirs if not d.startswith(".") and d != "node_modules"]
            if any(f.endswith(CONFIG_SUFFIXES) for f in files):
                dirs.add(os.path.normpath(root))
    return sorted(dirs)


def validate(tofu, directory, init_first=False):
    """OpenTofu's errors for one directory: {(file, line, summary)}, the
    install noise left out; None when it printed no JSON.

    With `init_first`, the whole tree is copied and `tofu init` (offline:
    local modules only) runs first, so calls of local modules are judged
    too; else only the directory's own files."""
    with scratch_copy(directory, tree=init_first) as work:
        if init_first:
            init(tofu, work)
        diagnostics = validate_json(tofu, work)
    if diagnostics is None:
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


def tofu_lens_errors(binary, roots):
    """tofu-lens's errors under the roots: {dir: {(file, line, summary)}}."""
    errors = {}
    for d in tofu_lens_check(binary, roots):
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
    STRICT = take_flag(args, "--strict")
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    tofu = oracle_or_say("differential")
    if tofu is None:
        return 0
    binary, roots = args[0], args[1:]
    ours = tofu_lens_errors(binary, roots)
    dirs = module_dirs(roots)
    theirs = dict(zip(dirs, in_parallel(lambda d: validate(tofu, d), dirs)))
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
