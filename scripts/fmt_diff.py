#!/usr/bin/env python3
"""Oracle comparison: `tofu-lens fmt` against OpenTofu's own `tofu fmt`.

Inputs: every .tf, .tofu, .tfvars, .tftest.hcl and .tofutest.hcl file of the
shared corpus (../shared/corpus beside the repository, or --corpus DIR),
OpenTofu's fmt fixtures (`*_in.tf` of internal/command/testdata/fmt, from
--fixtures DIR or $TOFU_LENS_OPENTOFU_SRC), and --generated N (default
5,000) files made by perturbing the blanks of corpus files at random
(seeded): indentation stripped, doubled or made up, alignment collapsed,
spaces around operators removed or added, blank lines and trailing blanks
added, CRLF line breaks; and, for tofu fmt's rewrites, block labels
unquoted and simple values wrapped as "${...}". Heredoc bodies are never
touched.

All inputs are written to two temporary trees; `tofu fmt -recursive` formats
one in place and `BIN fmt --recursive` the other, then the trees are compared
file by file (a file either tool rejects stays as it was, so a rejection on
one side only shows up as a difference). Prints the agreement per input kind
and the first differences; --keep DIR keeps every disagreeing input with
both outputs. Exits 0 (it is a report, not a test).

The reference lives outside the repository: TOFU_LENS_ORACLE_DIR names a
directory holding a `tofu` binary (OpenTofu 1.12.6). Without it this says so
and stops.

usage: scripts/fmt_diff.py TOFU_LENS_BINARY [--corpus DIR] [--fixtures DIR]
                           [--generated N] [--seed S] [--keep DIR] [--show N]
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from differential import oracle_or_say, run_tofu  # noqa: E402

SUFFIXES = (".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl")
HEREDOC_OPEN = re.compile(r"<<-?([A-Za-z_][A-Za-z0-9_-]*)\s*$")
BLOCK_HEADER = re.compile(r'^(\s*[A-Za-z_][\w-]*)((?:\s+"[A-Za-z_][\w-]*")+)(\s*\{.*)$')
SIMPLE_ATTRIBUTE = re.compile(r'^(\s*[A-Za-z_][\w-]*\s*=\s*)([A-Za-z_][\w.\-\[\]()*, ]*)$')
OPERATORS = ["==", "!=", "<=", ">=", "&&", "||", "=>", "=", ",", ":", "?", "+", "*", "/", "%", "(", ")", "[", "]", "{", "}"]


def suffix_of(name):
    for suffix in sorted(SUFFIXES, key=len, reverse=True):
        if name.endswith(suffix):
            return suffix
    return None


def collect(root, pattern=None):
    found = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        for name in sorted(files):
            if pattern is not None and not pattern(name):
                continue
            if pattern is None and suffix_of(name) is None:
                continue
            found.append(os.path.join(directory, name))
    return found


def split_code(line):
    """Cuts a line into (is_code, text) segments: quoted strings and comments
    are not code. An approximation: both tools get the same input anyway."""
    segments, start, i, n = [], 0, 0, len(line)
    while i < n:
        c = line[i]
        if c == '"':
            if i > start:
                segments.append((True, line[start:i]))
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            segments.append((False, line[i:j + 1]))
            start = i = j + 1
            continue
        if c == "#" or line.startswith("//", i) or line.startswith("/*", i):
            if i > start:
                segments.append((True, line[start:i]))
            segments.append((False, line[i:]))
            return segments
        i += 1
    if start < n:
        segments.append((True, line[start:]))
    return segments


def map_code(line, function):
    return "".join(function(text) if is_code else text for is_code, text in split_code(line))


def remove_spaces(code):
    for operator in OPERATORS:
        code = re.sub(r"[ \t]*" + re.escape(operator) + r"[ \t]*", operator, code)
    return code


def add_spaces(code, rng):
    out = []
    for ch in code:
        if ch in "=,:?()[]{}+*" and rng.random() < 0.5:
            out.append(" " * rng.randint(1, 3) + ch + " " * rng.randint(0, 3))
        else:
            out.append(ch)
    return "".join(out)


def perturb(text, rng):
    """One perturbed copy of `text`; heredoc bodies are kept as they are."""
    lines = text.split("\n")
    ops = rng.sample(
        ["strip", "double", "random-indent", "collapse", "nospace", "spaces", "blank", "trailing", "tabs",
         "unquote-labels", "interpolate"],
        rng.randint(1, 4),
    )
    rate = rng.choice([0.1, 0.3, 0.7, 1.0])
    out, marker = [], None
    for line in lines:
        if marker is not None:
            out.append(line)
            if line.strip() == marker:
                marker = None
            continue
        opened = HEREDOC_OPEN.search(line)
        if rng.random() < rate:
            body = line.lstrip(" \t")
            indent = line[: len(line) - len(body)]
            for op in ops:
                if op == "strip":
                    indent = ""
                elif op == "double":
                    indent = indent * 2
                elif op == "random-indent":
                    indent = rng.choice(["", " ", "   ", "\t", "        ", " \t "])
                elif op == "tabs":
                    indent = indent.replace("  ", "\t")
                elif op == "collapse" and not opened:
                    body = map_code(body, lambda code: re.sub(r"[ \t]+=[ \t]+", " = ", code, count=1))
                elif op == "nospace" and not opened:
                    body = map_code(body, remove_spaces)
                elif op == "spaces" and not opened:
                    body = map_code(body, lambda code: add_spaces(code, rng))
                elif op == "unquote-labels" and not opened:
                    header = BLOCK_HEADER.match(body)
                    if header:
                        body = header.group(1) + header.group(2).replace('"', "") + header.group(3)
                elif op == "interpolate" and not opened:
                    attribute = SIMPLE_ATTRIBUTE.match(body)
                    if attribute and attribute.group(2).count("(") == attribute.group(2).count(")"):
                        body = attribute.group(1) + '"${' + attribute.group(2).rstrip() + '}"'
                elif op == "trailing" and not opened:
                    body = body + rng.choice([" ", "  ", "\t", " \t"])
            line = indent + body
        out.append(line)
        if opened:
            marker = opened.group(1)
        elif "blank" in ops and rng.random() < rate * 0.3:
            out.append(rng.choice(["", "  ", "\t"]))
    result = "\n".join(out)
    if rng.random() < 0.05:
        result = result.replace("\n", "\r\n")
    return result


def timed(run):
    """run() and the seconds it took."""
    started = time.monotonic()
    done = run()
    return done, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--fixtures", default=None)
    parser.add_argument("--generated", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", default=None)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()

    tofu = oracle_or_say("fmt_diff")
    if tofu is None:
        return 0

    inputs = []  # (kind, original path or None, content bytes, suffix)
    corpus_files = collect(args.corpus) if os.path.isdir(args.corpus) else []
    for path in corpus_files:
        with open(path, "rb") as handle:
            inputs.append(("corpus", path, handle.read(), suffix_of(os.path.basename(path))))
    fixtures = args.fixtures or os.environ.get("TOFU_LENS_OPENTOFU_SRC")
    if fixtures and os.path.isdir(os.path.join(fixtures, "internal", "command", "testdata", "fmt")):
        fixtures = os.path.join(fixtures, "internal", "command", "testdata", "fmt")
    if fixtures and os.path.isdir(fixtures):
        for path in collect(fixtures, lambda name: name.endswith("_in.tf")):
            with open(path, "rb") as handle:
                inputs.append(("fixture", path, handle.read(), ".tf"))
    rng = random.Random(args.seed)
    texts = []
    for path in corpus_files:
        with open(path, "rb") as handle:
            try:
                texts.append((path, handle.read().decode("utf-8")))
            except UnicodeDecodeError:
                pass
    if texts:
        for _ in range(args.generated):
            path, text = rng.choice(texts)
            inputs.append(("generated", path, perturb(text, rng).encode("utf-8"), suffix_of(os.path.basename(path))))

    with tempfile.TemporaryDirectory() as tmp:
        trees = {name: os.path.join(tmp, name) for name in ("input", "tofu", "lens")}
        for tree in trees.values():
            os.makedirs(tree)
        names = []
        for index, (_, _, content, suffix) in enumerate(inputs):
            name = f"case{index:05d}{suffix}"
            names.append(name)
            for tree in trees.values():
                with open(os.path.join(tree, name), "wb") as handle:
                    handle.write(content)
        tofu_run, tofu_seconds = timed(
            lambda: run_tofu(tofu, ["fmt", "-recursive", "-list=false", "-no-color", "."], trees["tofu"], stdin=b"", timeout=None)
        )
        rejected = set(re.findall(r"on (case\d+[.\w]*) line", tofu_run.stderr.decode("utf-8", "replace")))
        _, lens_seconds = timed(
            lambda: subprocess.run(
                [os.path.abspath(args.binary), "fmt", "--recursive", "--list=false", "."], cwd=trees["lens"], capture_output=True
            )
        )

        totals, agreed, differing, changed, refused = {}, {}, [], {}, {}
        for index, name in enumerate(names):
            kind = inputs[index][0]
            totals[kind] = totals.get(kind, 0) + 1
            with open(os.path.join(trees["tofu"], name), "rb") as handle:
                expected = handle.read()
            with open(os.path.join(trees["lens"], name), "rb") as handle:
                got = handle.read()
            with open(os.path.join(trees["input"], name), "rb") as handle:
                original = handle.read()
            if name in rejected:
                refused[kind] = refused.get(kind, 0) + 1
            elif expected != original:
                changed[kind] = changed.get(kind, 0) + 1
            if expected == got:
                agreed[kind] = agreed.get(kind, 0) + 1
            else:
                differing.append((index, name, expected, got))

        print(f"tofu fmt {tofu_seconds:.2f} s, tofu-lens fmt {lens_seconds:.2f} s over {len(names)} files")
        for kind in ("corpus", "fixture", "generated"):
            if kind in totals:
                ok = agreed.get(kind, 0)
                print(
                    f"{kind:10} {ok}/{totals[kind]} byte-identical ({100.0 * ok / totals[kind]:.2f} %); "
                    f"tofu fmt changed {changed.get(kind, 0)}, refused {refused.get(kind, 0)} (syntax errors)"
                )
        for index, name, expected, got in differing[: args.show]:
            kind, source = inputs[index][0], inputs[index][1]
            print(f"\n== {name} ({kind}, from {source})")
            expected_lines = expected.decode("utf-8", "replace").splitlines(keepends=True)
            got_lines = got.decode("utf-8", "replace").splitlines(keepends=True)
            import difflib
            for line in list(difflib.unified_diff(expected_lines, got_lines, "tofu", "tofu-lens", n=1))[:30]:
                sys.stdout.write(line if line.endswith("\n") else line + "\n")
        if args.keep and differing:
            os.makedirs(args.keep, exist_ok=True)
            for index, name, expected, got in differing:
                shutil.copy(os.path.join(trees["input"], name), os.path.join(args.keep, name))
                with open(os.path.join(args.keep, name + ".tofu.out"), "wb") as handle:
                    handle.write(expected)
                with open(os.path.join(args.keep, name + ".lens.out"), "wb") as handle:
                    handle.write(got)
            print(f"\nkept {len(differing)} disagreeing inputs in {args.keep}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
