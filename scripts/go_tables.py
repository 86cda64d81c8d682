#!/usr/bin/env python3
"""The Go runner of the scripts that write tables from Go's own answers
(`generate_go_case.py`, `generate_go_printable.py`): runs a small Go
program with the toolchain OpenTofu 1.12.6 is built with (Go 1.26,
Unicode 15.0.0 tables) and hands back what it printed.

Every program prints `runtime.Version()` and `unicode.Version` on its
first line; a Go whose Unicode version is not UNICODE_VERSION is refused
unless `--any-unicode` is on the command line. `go` comes from PATH (GO
names another).
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

# The Unicode version of Go 1.26's tables, the Go OpenTofu 1.12.6 is built with.
UNICODE_VERSION = "15.0.0"


def run_go(tool, program, module):
    """Runs `program` (a Go main package) as module `module`: (Go's
    version, Unicode's version, the lines after the first), or None after
    saying why on stderr (`tool` names the script)."""
    go = os.environ.get("GO", "go")
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "main.go").write_text(program)
        Path(scratch, "go.mod").write_text(f"module {module}\n\ngo 1.21\n")
        run = subprocess.run([go, "run", "."], cwd=scratch, capture_output=True, text=True)
    if run.returncode != 0:
        print(run.stderr, file=sys.stderr)
        return None
    lines = run.stdout.splitlines()
    go_version, unicode_version = lines[0].split()
    if unicode_version != UNICODE_VERSION and "--any-unicode" not in sys.argv[1:]:
        print(
            f"{tool}: {go_version} has Unicode {unicode_version}, OpenTofu 1.12.6's Go has {UNICODE_VERSION}",
            file=sys.stderr,
        )
        return None
    return go_version, unicode_version, lines[1:]
