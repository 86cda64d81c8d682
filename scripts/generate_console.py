#!/usr/bin/env python3
"""Differential test of tofu-eval against `tofu console` (outside CI).

Generates expressions that call every built-in function of OpenTofu 1.12.6
(edge cases: nulls, sensitive values, unicode, big numbers, sets, nested
structures) and expressions of every other kind (operators, conditionals,
`for`, splats, indexes and attributes, templates with directives and strip
markers, try/can, references the console knows), runs them through the
real console and through the console example of tofu-lens (the
environment `tofu-lens console` gives: files, the clock, random bytes),
and compares what each prints (values exactly; errors as summary plus
detail with whitespace collapsed), once as printed and once with what
differs on every run normalised on both sides (`normalise_per_run`).

Usage: scripts/generate_console.py [--count N] [--seed S] [--out DIR]
  The oracle is the `tofu` of TOFU_LENS_ORACLE_DIR, as for every oracle
  script (without it, only what DIR's cache holds can be compared).
  Oracle outputs are cached in DIR/oracle-cache.json, so a second run only
  runs tofu-eval. DIR/mismatches.txt lists every difference; the summary
  per function is printed.
"""

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from differential import AnswerCache, in_parallel, oracle_or_say, run_tofu  # noqa: E402

MARK = '"@@MARK@@"'

STRINGS = [
    '"abc"', '""', '"Hello World"', '"héllo wörld"', '"日本語"', '"a,b,,c"', '"  padded  "',
    '"line1\\nline2"', '"e\\u0301"', '"👍🏽x"', '"123"', '"1.5"', '"-7"', '"true"', '"FALSE"',
    '"a-b_c.d"', '"<&>"', '"ß straße"', '"ǆemal title"', '"a b\\tc"', '"x\\r\\n\\n"',
    '"/path/to/file.txt"', '"10.0.0.0/8"', '"192.168.1.0/24"', '"aGVsbG8="', '"%41%20b+c"',
    '"{\\"a\\": [1, 2.5, true, null]}"', '"[1,\\"x\\"]"', '"a,b\\n1,2\\n"', '"ff"', '"0x1F"',
    'sensitive("secret")', 'null', '"MiXeD CaSe"', '"trailing\\n"', '"\\u00e9"',
]
NUMBERS = [
    '0', '1', '-1', '2', '3', '1.5', '-2.25', '100', '9007199254740993', '1e3', '0.1', '0.5',
    '123456789012345678901234567890', '3.14159', '-0.001', '16', '255', '1024', '2.5',
    'sensitive(2)', 'null', '"5"', '1e-7', '12345678901234567890.125',
]
BOOLS = ['true', 'false', 'null', '"true"', 'sensitive(true)']
LISTS = [
    '[]', '[1, 2, 3]', '["a", "b"]', '["a", 1]', '[true, false]', '[[1], [2, 3]]',
    '["b", "a", "b"]', '[null, "a"]', 'tolist(["x", "y"])', 'toset([3, 1, 2])',
    '[{a = 1}, {a = 2}]', '["c", "a", "B"]', '[1.5, -2, 1e3]', '[[], ["x"]]', 'tolist([])',
    'toset(["b", "a"])', '[sensitive("s"), "t"]', '["", "x", ""]', '[true, "true"]',
    '[[1, 2], [3]]', '[{a = 1, b = "x"}]', '["日本", "語"]', 'null',
]
MAPS = [
    '{}', '{a = 1, b = 2}', '{a = "x"}', '{a = [1], b = [2]}', 'tomap({a = "x", b = "y"})',
    '{"k 1" = true}', '{a = ["x", "y"], b = ["y"]}', '{b = 1, a = {c = 2}}',
    'tomap({})', '{a = null}', '{a = sensitive("s")}', 'null',
]
ANY = STRINGS[:12] + NUMBERS[:10] + BOOLS[:3] + LISTS[:12] + MAPS[:8]

POOLS = {
    "string": STRINGS,
    "number": NUMBERS,
    "bool": BOOLS,
    "list(string)": LISTS,
    "list(bool)": ['[true, false]', '[true, true]', '[]', '[false]', '["true", true]', '[null]', 'null', '[1]'],
    "list(dynamic)": LISTS,
    "set(dynamic)": LISTS,
    "map(list(string))": MAPS,
    "dynamic": ANY,
}

# Hand-picked cases per function, added to the random ones.
SPECIFIC = {
    "cidrsubnet": ['cidrsubnet("10.0.0.0/8", 8, 300)', 'cidrsubnet("10.0.0.0/8", 8, 2)'],
    "format": ['format("%d items", 3)', 'format("%s-%05.2f", "a", 3.14159)', 'format("%v", [1])'],
    "substr": ['substr("hello world", 1, 4)', 'substr("hello", -3, -1)', 'substr("hello", 10, 1)', 'substr("👍🏽x", 0, 1)'],
    "element": ['element(["a", "b", "c"], 5)', 'element(["a"], -1)', 'element([], 0)'],
    "range": ['range(1, 10, 3)', 'range(5, 1)', 'range(0, 1, 0.25)', 'range(0)'],
    "tonumber": ['tonumber("0x10")', 'tonumber("1e400")', 'tonumber(" 1")'],
    "jsondecode": ['jsondecode("{\\"b\\": 1, \\"a\\": [1, \\"x\\"]}")', 'jsondecode("1.000")', 'jsondecode("nope")'],
    "max": ['max()', 'max(1, 9007199254740993, 2)'],
    "sum": ['sum([0.1, 0.2])', 'sum([])', 'sum({a = 1})'],
    "lookup": ['lookup({a = 1}, "b", 2)', 'lookup({a = 1}, "b")', 'lookup({a = "x"}, "a")'],
}


# Functions whose result differs per run: compared, but counted apart.
PER_RUN = {"uuid", "timestamp", "bcrypt"}

# Operands for the expression generator.
ATOMS = [
    '0', '1', '-1', '2.5', '0.1', '9007199254740993', '1e3', '"1"', '"a"', '"true"', '""',
    'true', 'false', 'null', '[]', '[1, 2]', '["a", "b"]', '[1, "a"]', '{}', '{a = 1}',
    '{a = 1, b = "x"}', 'tolist([1, 2])', 'toset(["b", "a"])', 'tomap({a = 1})',
    'sensitive(1)', 'sensitive("s")', '[{a = 1}, {a = 2}]', '{a = {b = [10, 20]}}',
    'tolist([{a = 1}, {a = 2}])', '[[1, 2], [3]]', 'path.module', 'terraform.workspace',
    '"héllo"', '[null]', '{a = null}', 'tolist([])', 'toset([])', '[true, false]',
]
BINARY = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||']
KEYS = ['0', '1', '5', '-1', '0.5', '"a"', '"b"', '"0"', 'null', 'true', '"x"']
NAMES = ['a', 'b', 'c', 'id', 'length']


def expression(rng, depth):
    """One random expression of any kind, nested up to `depth`."""
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    sub = lambda: expression(rng, depth - 1)
    kind = rng.randrange(17)
    if kind == 0:
        return f"{sub()} {rng.choice(BINARY)} {sub()}"
    if kind == 1:
        return f"{rng.choice(['-', '!'])}{sub()}"
    if kind == 2:
        condition = rng.choice(['true', 'false', 'null', '1', '"true"', sub()])
        return f"{condition} ? {sub()} : {sub()}"
    if kind == 3:
        return f"{sub()}[{rng.choice(KEYS)}]"
    if kind == 4:
        return f"{sub()}.{rng.choice(NAMES)}"
    if kind == 5:
        return f"{sub()}{rng.choice(['[*]', '.*', '[*].a', '.*.a', '[*][0]', '[*].a[0]'])}"
    if kind == 6:
        cond = rng.choice(['', ' if x != null', ' if x', ' if true', ' if i > 0'])
        return f"[for i, x in {sub()} : {rng.choice(['x', 'i', 'x == 1', '[x]', sub()])}{cond}]"
    if kind == 7:
        group = rng.choice(['', '...'])
        key = rng.choice(['k', 'v', 'tostring(v)', '"k"'])
        value = rng.choice(['v', 'k', sub()])
        return f"{{for k, v in {sub()} : {key} => {value}{group}}}"
    if kind == 8:
        return f'"a${{{sub()}}}b"'
    if kind == 9:
        return f'"${{{sub()}}}"'
    if kind == 10:
        strip = rng.choice(['', '~'])
        return f'"x %{{{strip} if {sub()} {strip}}} y %{{ else }} z %{{ endif }}"'
    if kind == 11:
        return f'"%{{ for v in {sub()} }}${{v}},%{{ endfor }}"'
    if kind == 12:
        return f"try({sub()}, {sub()})"
    if kind == 13:
        return f"can({sub()})"
    if kind == 14:
        return f"[{sub()}, {sub()}]"
    if kind == 15:
        return f"{{a = {sub()}, (\"k\") = {sub()}}}"
    return f"({sub()})"


def generate_expressions(count, seed):
    rng = random.Random(seed)
    out = []
    seen = set()
    attempts = 0
    while len(out) < count and attempts < count * 20:
        attempts += 1
        text = expression(rng, rng.choice([1, 1, 2, 2, 3]))
        if text in seen or "\n" in text or len(text) > 300:
            continue
        seen.add(text)
        out.append(text)
    return out


def split_over_lines(rng, text):
    """`text` as `tofu console` may be given it over several lines: a line
    break (with some indentation) after an opening bracket or a comma inside
    brackets, and `\\` continuing a line between top-level tokens; never
    inside a string. Every line but the last leaves something open, so the
    console runs the whole text once, at its end (None when nothing could be
    split)."""
    out = []
    depth = 0
    in_string = 0  # nesting of quoted strings (inside ${...} a string may open again)
    template_depths = []  # bracket depth at which each ${ / %{ opened
    i = 0
    splits = 0
    while i < len(text):
        c = text[i]
        if in_string and (not template_depths or template_depths[-1][1] != depth or template_depths[-1][0] != in_string):
            pass
        if c == '"' and (not in_string or not template_depths or template_depths[-1][0] < in_string):
            if in_string and (not template_depths or template_depths[-1][0] < in_string):
                in_string -= 1
            else:
                in_string += 1
            out.append(c)
            i += 1
            continue
        if in_string and (not template_depths or template_depths[-1][0] < in_string):
            if c == '\\' and i + 1 < len(text):
                out.append(text[i:i + 2])
                i += 2
                continue
            if text.startswith('${', i) or text.startswith('%{', i):
                template_depths.append((in_string, depth))
                out.append(text[i:i + 2])
                i += 2
                continue
            out.append(c)
            i += 1
            continue
        if c == '}' and template_depths and template_depths[-1] == (in_string, depth):
            template_depths.pop()
            out.append(c)
            i += 1
            continue
        out.append(c)
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        i += 1
        inside_template = bool(template_depths)
        if inside_template:
            continue
        if depth > 0 and c in '([{,' and rng.random() < 0.5:
            while i < len(text) and text[i] == ' ':
                i += 1
            out.append('\n' + ' ' * rng.choice([0, 2, 4]))
            splits += 1
        elif depth == 0 and c == ' ' and not in_string and rng.random() < 0.15:
            out.append('\\\n')
            splits += 1
    joined = ''.join(out)
    if splits == 0 or depth != 0 or in_string:
        return None
    return joined


def generate_multiline(expressions, count, seed):
    """The multi-line section: `count` inputs made of the other sections'
    expressions (those with brackets or spaces to split at) over lines."""
    rng = random.Random(seed)
    candidates = [e for e in expressions if any(c in e for c in '([{ ')]
    out = []
    seen = set()
    attempts = 0
    while len(out) < count and attempts < count * 20 and candidates:
        attempts += 1
        text = split_over_lines(rng, rng.choice(candidates))
        if text is None or text in seen:
            continue
        seen.add(text)
        out.append(text)
    return out


def signatures(out):
    """The built-in functions' signatures (`tofu metadata functions -json`),
    kept in OUT/functions.json once the oracle has printed them."""
    path = out / "functions.json"
    if not path.exists():
        tofu = oracle_or_say("generate_console")
        if tofu is None:
            sys.exit(1)
        done = run_tofu(tofu, ["metadata", "functions", "-json"], out)
        json.loads(done.stdout)
        path.write_text(done.stdout)
    metadata = json.loads(path.read_text())
    return {
        name: sig
        for name, sig in metadata["function_signatures"].items()
        if not name.startswith("core::")
    }


def generate(count, seed, sigs):
    rng = random.Random(seed)
    names = sorted(sigs)
    per_function = max(1, count // len(names))
    expressions = []
    seen = set()

    def add(expression):
        if expression not in seen and "\n" not in expression:
            seen.add(expression)
            expressions.append(expression)

    for name in names:
        for case in SPECIFIC.get(name, []):
            add(case)
        sig = sigs[name]
        params = sig.get("parameters", [])
        variadic = sig.get("variadic_parameter")
        attempts = 0
        produced = 0
        while produced < per_function and attempts < per_function * 20:
            attempts += 1
            types = [type_key(p["type"]) for p in params]
            if variadic:
                types += [type_key(variadic["type"])] * rng.choice([0, 1, 1, 2, 3])
            roll = rng.random()
            if roll < 0.03 and types:
                types = types[:-1]  # too few
            elif roll < 0.05:
                types = types + ["dynamic"]  # too many
            args = []
            for ty in types:
                pool = POOLS.get(ty, ANY)
                if rng.random() < 0.1:
                    pool = ANY
                args.append(rng.choice(pool))
            prefix = "core::" if rng.random() < 0.05 else ""
            before = len(expressions)
            add(f"{prefix}{name}({', '.join(args)})")
            produced += len(expressions) - before
    return expressions


def type_key(ty):
    if isinstance(ty, str):
        return ty
    return f"{ty[0]}({type_key(ty[1])})"


def normalise_errors(stderr, keep_lines=False):
    """`Error: SUMMARY`, a blank line and the detail's words on one line;
    with `keep_lines` (the multi-line section), `on <console-input> line N`
    between them."""
    blocks = []
    for block in stderr.split("Error: ")[1:]:
        lines = block.splitlines()
        summary = lines[0].strip() if lines else ""
        words = []
        where = ""
        for line in lines[1:]:
            stripped = line.strip()
            if stripped.startswith("on <console-input>"):
                where = stripped + "\n"
                continue
            if stripped == "(source code not available)":
                continue
            words.extend(stripped.split())
        where = where if keep_lines else ""
        blocks.append(f"Error: {summary}\n\n{where}{' '.join(words)}")
    return "\n\n".join(blocks)


def run_oracle_batch(tofu, expressions, workdir):
    """Outputs for a batch; the console stops at the first error, so the
    batch is resumed after it."""
    results = {}
    start = 0
    while start < len(expressions):
        batch = expressions[start:]
        text = "".join(f"{e}\n{MARK}\n" for e in batch)
        # Bytes, not text mode: text mode would turn "\r\n" into "\n".
        raw = run_tofu(tofu, ["console", "-no-color"], workdir, stdin=text.encode(), timeout=None)
        stdout = raw.stdout.decode(errors="replace")
        stderr = raw.stderr.decode(errors="replace")
        # Every completed expression is followed by the marker's output.
        completed = stdout.split(MARK + "\n")[:-1]
        for expression, output in zip(batch, completed):
            results[expression] = output.rstrip("\n").replace(str(workdir), "$WORKDIR")
        start += len(completed)
        if raw.returncode != 0 and start < len(expressions):
            failed = expressions[start]
            results[failed] = normalise_errors(stderr, keep_lines="\n" in failed).replace(str(workdir), "$WORKDIR")
            start += 1
        elif raw.returncode == 0:
            break
    return results


def run_oracle(expressions, cache_path, workdir, wait=True):
    """The oracle's outputs, cached in `cache_path` after every chunk so
    that an interrupted run keeps what it did (and a later run goes on
    from there). Without `wait`, only what the cache holds."""
    cache = AnswerCache(str(cache_path))
    answers = {e: out for e, out in cache.answers.items() if "Error acquiring the state lock" not in out}
    missing = [e for e in expressions if e not in answers]
    tofu = oracle_or_say("generate_console") if missing and wait else None
    if tofu:
        print(f"oracle: {len(missing)} expressions to run", file=sys.stderr)
        # Functions and other expressions mixed, so a partial run covers both.
        random.Random(0).shuffle(missing)
        chunks = [missing[i:i + 100] for i in range(0, len(missing), 100)]

        def work(worker):
            directory = workdir / f"worker{worker}"
            directory.mkdir(exist_ok=True)
            for chunk in chunks[worker::2]:
                for expression, output in run_oracle_batch(tofu, chunk, directory).items():
                    cache.put(expression, output)
                    answers[expression] = output
                cache.save()

        # Each worker in its own directory: the console takes a state lock.
        in_parallel(work, range(2), workers=2)
    return answers


def run_ours(expressions, workdir):
    binary = ROOT / "target/debug/examples/console"
    subprocess.run(
        ["cargo", "build", "-q", "-p", "tofu-lens", "--example", "console"],
        cwd=ROOT, check=True,
    )
    text = "".join(f"{e}\n{MARK}\n" for e in expressions)
    raw = subprocess.run([str(binary)], input=text.encode(), capture_output=True, cwd=workdir)
    proc = subprocess.CompletedProcess(raw.args, raw.returncode, raw.stdout.decode(errors="replace"), "")
    outputs = proc.stdout.split('"@@MARK@@"\n')
    results = {}
    for expression, output in zip(expressions, outputs):
        output = output.rstrip("\n")
        if output.lstrip("\n").startswith("Error: "):
            output = normalise_errors(output, keep_lines="\n" in expression)
        results[expression] = output.replace(str(workdir), "$WORKDIR")
    return results


SIGNATURE_NAMES = set()

UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
TIMESTAMP = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
BCRYPT_HASH = re.compile(r"(\$2a\$\d\d\$)[./A-Za-z0-9]{53}")
# cty's PanicError: the panic's value, then Go's stack trace (frames with heap
# addresses) up to the " ." that closes the detail once whitespace is collapsed.
STACK_TRACE = re.compile(r"(goroutine \d+ \[running\]:)(?: .*?)? \.$", re.M)


def normalise_per_run(expression, output):
    """What differs on every run, on both sides alike: the UUID of a uuid()
    call, the RFC 3339 time of a timestamp() call, a bcrypt hash (its $2a$NN$
    cost kept), a Go stack trace. The rest is compared byte for byte."""
    if re.search(r"\buuid\(", expression):
        output = UUID.sub("<uuid>", output)
    if re.search(r"\btimestamp\(", expression):
        output = TIMESTAMP.sub("<timestamp>", output)
    if re.search(r"\bbcrypt\(", expression):
        output = BCRYPT_HASH.sub(r"\1<hash>", output)
    return STACK_TRACE.sub(r"\1 <stack trace> .", output)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=12500)
    parser.add_argument("--expressions", type=int, default=9000)
    parser.add_argument("--multiline", type=int, default=2000,
                        help="inputs of the multi-line section: expressions of the others over lines")
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--out", default="/tmp/tofu-eval-differential")
    parser.add_argument("--oracle-only", action="store_true", help="fill the oracle cache and stop")
    parser.add_argument("--cached", action="store_true", help="compare only what the oracle cache holds")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    workdir = out / "work"
    workdir.mkdir(exist_ok=True)
    sigs = signatures(out)
    SIGNATURE_NAMES.update(sigs)
    expressions = generate(args.count, args.seed, sigs)
    known = set(expressions)
    expressions += [e for e in generate_expressions(args.expressions, args.seed) if e not in known]
    expressions += generate_multiline(expressions, args.multiline, args.seed)
    (out / "expressions.txt").write_text("\n@@\n".join(expressions) + "\n")
    oracle = run_oracle(expressions, out / "oracle-cache.json", workdir, wait=not args.cached)
    if args.oracle_only:
        return
    if args.cached:
        expressions = [e for e in expressions if e in oracle]
        print(f"comparing the {len(expressions)} expressions the oracle cache holds")
    ours = run_ours(expressions, workdir)
    by_function = {}
    mismatches = []
    n_same_raw = 0
    for expression in expressions:
        head = expression.split("(", 1)[0].removeprefix("core::")
        name = head if head.isidentifier() and expression.endswith(")") and head in SIGNATURE_NAMES else "(expression)"
        if "\n" in expression:
            name = "(multi-line)"
        total, same = by_function.get(name, (0, 0))
        expected = oracle.get(expression)
        actual = ours.get(expression)
        n_same_raw += expected == actual
        if expected is not None and actual is not None:
            expected = normalise_per_run(expression, expected)
            actual = normalise_per_run(expression, actual)
        ok = expected == actual
        by_function[name] = (total + 1, same + ok)
        if not ok:
            mismatches.append(f"> {expression}\n--- tofu\n{expected}\n--- tofu-eval\n{actual}\n")
    (out / "mismatches.txt").write_text("\n".join(mismatches))
    n_total = len(expressions)
    n_same = n_total - len(mismatches)
    print(f"identical before normalising: {n_same_raw}/{n_total} ({100.0 * n_same_raw / n_total:.2f} %)")
    n_per_run = sum(total - same for name, (total, same) in by_function.items() if name in PER_RUN)
    for name, (total, same) in sorted(by_function.items()):
        print(f"{name:20} {same:5}/{total:5}")
    print(f"identical after normalising what differs per run: {n_same}/{n_total} ({100.0 * n_same / n_total:.3f} %)")
    n_compared = n_total - sum(total for name, (total, _) in by_function.items() if name in PER_RUN)
    n_same_compared = n_same - sum(same for name, (_, same) in by_function.items() if name in PER_RUN)
    print(f"identical without the per-run functions ({', '.join(sorted(PER_RUN))}): "
          f"{n_same_compared}/{n_compared} ({100.0 * n_same_compared / max(n_compared, 1):.2f} %)")


if __name__ == "__main__":
    main()
