// The peer of tofu-bench: parses the files listed in a JSON array (argv[2])
// with HashiCorp's HCL parser compiled to WASM (@cdktf/hcl2json), in this one
// Node process: one warm-up pass, then RUNS timed passes (argv[3]). Files are
// read before timing starts, as tofu-bench reads its tree before timing.
// Prints one JSON object: {"files", "bytes", "errors", "warmup_ms", "times_ms": [...]}.
"use strict";
const fs = require("fs");
const { parse } = require("@cdktf/hcl2json");

async function pass(files) {
  let errors = 0;
  for (const [name, text] of files) {
    try {
      await parse(name, text);
    } catch (_) {
      errors += 1;
    }
  }
  return errors;
}

async function main() {
  const paths = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
  const runs = Number(process.argv[3] || "5");
  const files = paths.map((path) => [path, fs.readFileSync(path, "utf-8")]);
  const bytes = files.reduce((sum, [, text]) => sum + Buffer.byteLength(text), 0);
  const warmupStart = process.hrtime.bigint();
  const errors = await pass(files); // warm-up: WASM start, JIT
  const warmup_ms = Number(process.hrtime.bigint() - warmupStart) / 1e6;
  const times_ms = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    await pass(files);
    times_ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  process.stdout.write(JSON.stringify({ files: files.length, bytes, errors, warmup_ms, times_ms }) + "\n");
}

main().catch((error) => {
  process.stderr.write(`hcl2json-parse: ${error && error.stack ? error.stack : error}\n`);
  process.exit(1);
});
