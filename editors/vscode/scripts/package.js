// Packages the extension with vsce (offline: the bundle is built locally).
//
//   node scripts/package.js
//       tofu-lens.vsix: for every platform, without a binary; the extension
//       runs `tofu-lens` from PATH (or tofuLens.serverPath). For development.
//   node scripts/package.js --server PATH [--target TARGET] [--no-strip]
//       tofu-lens-TARGET.vsix: the binary PATH goes in as server/tofu-lens
//       (server/tofu-lens.exe for win32-*), and the package is marked for
//       TARGET (default: this machine's, e.g. linux-x64), as rust-analyzer
//       and ruff ship theirs. Installing it is the whole install. The copy is
//       stripped with `strip` when there is one (the release profile keeps
//       line tables: 50 MB instead of 7).
//
// server/ exists only while vsce runs, so the package without a binary never
// picks up a stale one.

'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { hostTarget, serverEntry, vsixName } = require('./target');

const root = path.resolve(__dirname, '..');
const staged = path.join(root, 'server');

function usage(message) {
  process.stderr.write(`package: ${message}\nusage: node scripts/package.js [--server PATH [--target TARGET] [--no-strip]]\n`);
  process.exit(2);
}

let server;
let target;
let strip = true;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i += 1) {
  const [flag, inline] = args[i].split(/=(.*)/s);
  const value = () => (inline !== undefined ? inline : args[++i]);
  if (flag === '--server') server = value();
  else if (flag === '--target') target = value();
  else if (flag === '--no-strip') strip = false;
  else usage(`unknown argument ${args[i]}`);
}
if (target !== undefined && server === undefined) usage('--target needs --server: a platform package carries a binary');
if (server !== undefined) {
  server = path.resolve(server);
  if (!fs.statSync(server, { throwIfNoEntry: false })?.isFile()) usage(`--server ${server} is not a file`);
  target = target ?? hostTarget();
  if (target === undefined) usage(`no VS Code target for ${process.platform}-${process.arch}; pass --target`);
}

const out = vsixName(target);
fs.rmSync(staged, { recursive: true, force: true });
let status = 1;
try {
  // The README's images, by absolute address as the Marketplace needs
  // them: the repository's copy of this directory.
  const { repository } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const baseImagesUrl = `${repository.url.replace(/\.git$/, '')}/raw/HEAD/editors/vscode/`;
  const vsceArgs = ['package', '--no-dependencies', '--skip-license', '--baseImagesUrl', baseImagesUrl, '--out', out];
  if (server !== undefined) {
    const entry = path.join(root, serverEntry(target));
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.copyFileSync(server, entry);
    fs.chmodSync(entry, 0o755);
    if (strip && !target.startsWith('win32-')) {
      const stripped = spawnSync('strip', [entry], { stdio: 'inherit' });
      if (stripped.status !== 0) process.stderr.write('package: strip failed or is missing; the binary goes in as it is\n');
    }
    vsceArgs.push('--target', target);
    process.stdout.write(`package: ${path.relative(root, entry)} from ${server}\n`);
  }
  const vsce = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
  const run = spawnSync(vsce, vsceArgs, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  status = run.status ?? 1;
} finally {
  fs.rmSync(staged, { recursive: true, force: true });
}
if (status === 0) process.stdout.write(`package: ${out}${target === undefined ? ' (any platform, no binary)' : ` (${target})`}\n`);
process.exit(status);
