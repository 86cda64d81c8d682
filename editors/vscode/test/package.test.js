// The packages `npm run package` builds (CI builds both before `npm test`):
// tofu-lens.vsix for any platform, without a binary, and
// tofu-lens-<target>.vsix for this machine, with the binary as
// extension/server/tofu-lens, executable, marked for its platform.
//
//   VSIX_DIR  where the .vsix files are (default: editors/vscode)

'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const zlib = require('node:zlib');

const { hostTarget, serverEntry, vsixName } = require('../scripts/target.js');

const dir = path.resolve(process.env.VSIX_DIR || path.join(__dirname, '..'));

/** The entries of a zip file: name, Unix mode and contents (stored or deflated). */
function readZip(file) {
  const zip = fs.readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, `${file} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i += 1) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const externalAttributes = zip.readUInt32LE(at + 38);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, {
      mode: externalAttributes >>> 16,
      read: () => (method === 0 ? data : zlib.inflateRawSync(data)),
    });
  }
  return entries;
}

const common = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/language-configuration.json',
  'extension/syntaxes/opentofu.tmLanguage.json',
];

const universal = path.join(dir, vsixName(undefined));
test('tofu-lens.vsix: any platform, no binary', { skip: !fs.existsSync(universal) && `${universal} is missing (npm run package)` }, () => {
  const entries = readZip(universal);
  for (const name of common) assert.ok(entries.has(name), name);
  assert.deepEqual([...entries.keys()].filter((name) => name.startsWith('extension/server/')), []);
  assert.ok(!/TargetPlatform=/.test(entries.get('extension.vsixmanifest').read().toString()), 'no target platform');
  // Exactly what .vscodeignore lets in: no sources, no node_modules.
  assert.deepEqual(
    [...entries.keys()].filter((name) => name.startsWith('extension/')).sort(),
    [...common, 'extension/readme.md'].sort(),
  );
});

const target = hostTarget();
const platform = target && path.join(dir, vsixName(target));
test(
  `tofu-lens-${target}.vsix: the binary in server/, executable, for ${target}`,
  { skip: (!platform || !fs.existsSync(platform)) && `${platform} is missing (npm run package -- --server PATH)` },
  () => {
    const entries = readZip(platform);
    for (const name of common) assert.ok(entries.has(name), name);
    const manifest = entries.get('extension.vsixmanifest').read().toString();
    assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
    const server = entries.get(`extension/${serverEntry(target)}`);
    assert.ok(server, `extension/${serverEntry(target)} is in the package`);
    assert.equal(server.mode & 0o777, 0o755, 'the binary is executable as installed');
    // The binary runs: `tofu-lens --version`.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-vsix-'));
    try {
      const binary = path.join(tmp, path.basename(serverEntry(target)));
      fs.writeFileSync(binary, server.read(), { mode: 0o755 });
      const run = spawnSync(binary, ['--version'], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^tofu-lens \d+\.\d+\.\d+/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
);
