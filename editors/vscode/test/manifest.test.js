// The extension's manifest and launch logic, without VS Code: it must coexist
// with the HashiCorp Terraform and OpenTofu extensions, activate on the files
// the server reads, and pass the server exactly the settings server.md lists.

'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { minimatch } = require('minimatch');

const config = require('../out/config.js');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const extensionSource = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');

test('contributes only the opentofu language, for .tofu and .tofu.json', () => {
  // `terraform` (HashiCorp) and `opentofu` for `.tf` (OpenTofu extension) stay
  // theirs: contributing `terraform` or claiming `.tf` would fight over files.
  assert.deepEqual(
    manifest.contributes.languages.map(({ id, extensions }) => ({ id, extensions })),
    [{ id: 'opentofu', extensions: ['.tofu', '.tofu.json'] }],
  );
  assert.equal(manifest.contributes.grammars, undefined, 'no grammar that could replace the OpenTofu extension\'s');
});

test('activates on each language a configuration file can have', () => {
  for (const language of ['terraform', 'opentofu', 'hcl', 'json']) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${language}`), language);
  }
});

test('the document selector takes configuration files whatever their language id', () => {
  assert.deepEqual(config.DOCUMENT_SELECTOR, [{ scheme: 'file', pattern: '**/*.{tf,tofu,tf.json,tofu.json}' }]);
  const matches = (file) => minimatch(file, config.DOCUMENT_SELECTOR[0].pattern, { dot: true });
  for (const file of ['/w/main.tf', '/w/m/versions.tofu', '/w/a.tf.json', '/w/.b.tofu.json', '/w/override.tf']) {
    assert.ok(matches(file), file);
    assert.ok(config.isConfigFile(file), file);
  }
  for (const file of ['/w/x.tfvars', '/w/package.json', '/w/x.hcl', '/w/main.TF', '/w/main.tf.bak']) {
    assert.ok(!matches(file), file);
    assert.ok(!config.isConfigFile(file), file);
  }
});

test('the server settings are the ones server.md lists, with its defaults', () => {
  const properties = manifest.contributes.configuration.properties;
  const defaults = config.serverSettings((key, fallback) => {
    assert.ok(properties[`tofuLens.${key}`], `tofuLens.${key} is contributed`);
    assert.deepEqual(properties[`tofuLens.${key}`].default, fallback, `default of tofuLens.${key}`);
    return fallback;
  });
  assert.deepEqual(defaults, { tofuVersion: '1.12.6', diagnostics: { scope: 'workspace' }, exclude: ['.terraform/**'] });
  assert.deepEqual(properties['tofuLens.diagnostics.scope'].enum, ['workspace', 'open']);
  assert.equal(properties['tofuLens.serverPath'].default, 'tofu-lens');
  assert.equal(properties['tofuLens.serverPath'].scope, 'machine', 'a workspace cannot pick the binary VS Code runs');
  assert.match(extensionSource, /configurationSection: SETTINGS_SECTION/, 'changes are sent to the server');
});

test('every contributed command is registered', () => {
  for (const { command } of manifest.contributes.commands) {
    assert.match(extensionSource, new RegExp(`registerCommand\\('${command.replace('.', '\\.')}'`), command);
  }
});

test('serverPath: a bare name is looked up on PATH, a path is taken as it is', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-path-'));
  try {
    const binary = path.join(dir, 'tofu-lens');
    fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'not-executable'), '', { mode: 0o644 });
    const env = { PATH: ['/nonexistent', dir].join(path.delimiter) };
    assert.equal(config.resolveServerPath('tofu-lens', env, 'linux'), binary);
    assert.equal(config.resolveServerPath('', env, 'linux'), binary, 'empty means the default');
    assert.equal(config.resolveServerPath(binary, { PATH: '' }, 'linux'), binary);
    assert.equal(config.resolveServerPath('not-executable', env, 'linux'), undefined);
    assert.equal(config.resolveServerPath('tofu-lens', { PATH: '/nonexistent' }, 'linux'), undefined);
    assert.equal(config.resolveServerPath(path.join(dir, 'missing'), env, 'linux'), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const launch = config.serverLaunch('/bin/tofu-lens', 'debug', { HOME: '/h' });
  assert.deepEqual(launch, { command: '/bin/tofu-lens', args: ['serve'], env: { HOME: '/h', TOFU_LENS_LOG: 'debug' } });
});
