#!/usr/bin/env python3
"""Compare `tofu-lens check` errors with `terraform validate -json` (no init) on real modules.

A development aid, never a test dependency: terraform knows nothing of .tofu files,
language blocks or the 1.12 required_version rule, so only the loading errors OpenTofu
inherited (duplicates, overrides, module sources, ...) are comparable.

usage: scripts/oracle-sweep.py TOFU_LENS_BINARY DIR...
"""
import json, os, shutil, subprocess, sys, tempfile

binary, roots = sys.argv[1], sys.argv[2:]
ours = json.loads(subprocess.run([binary, "check", "--format", "json", *roots], capture_output=True, text=True).stdout)
our_errors = {(os.path.relpath(d["file"]), d["range"]["start"]["line"] if d["range"] else 0, d["summary"]) for d in ours if d["severity"] == "error"}
dirs = sorted({os.path.dirname(os.path.relpath(d["file"])) for d in ours} | {
    os.path.relpath(root) for top in roots for root, _, files in os.walk(top)
    if any(f.endswith((".tf", ".tf.json")) for f in files) and "/." not in root})
theirs = set()
for d in dirs:
    with tempfile.TemporaryDirectory() as tmp:
        for f in os.listdir(d):
            p = os.path.join(d, f)
            if os.path.isfile(p):
                shutil.copy(p, tmp)
        out = subprocess.run(["terraform", "validate", "-json"], cwd=tmp, capture_output=True, text=True).stdout
        try:
            diags = json.loads(out).get("diagnostics", [])
        except json.JSONDecodeError:
            continue
        for x in diags:
            r = x.get("range")
            if x["severity"] == "error" and r:
                theirs.add((os.path.join(d, r["filename"]), r["start"]["line"], x["summary"]))
print("only tofu-lens:"); [print("  ", e) for e in sorted(our_errors - theirs)]
print("only terraform:"); [print("  ", e) for e in sorted(theirs - our_errors)]
print(f"common: {len(our_errors & theirs)}")
