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
const language = require('../out/language.js');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const extensionSource = fs.readFileSync(path.join(__dirname, '..', 'src', 'extension.ts'), 'utf8');

test('contributes the opentofu language for .tofu only, with its grammar; .tf stays unclaimed', () => {
  // `terraform` (HashiCorp) and `opentofu` for `.tf` (OpenTofu extension) stay
  // theirs: VS Code gives a file extension claimed by two languages to the
  // extension whose folder sorts last, so claiming `.tf` would take it from
  // HashiCorp's. `.tf` files nobody claims are switched at run time instead.
  assert.deepEqual(
    manifest.contributes.languages.map(({ id, extensions }) => ({ id, extensions })),
    [{ id: 'opentofu', extensions: ['.tofu'] }],
  );
  const [opentofu] = manifest.contributes.languages;
  // VS Code colours a hover's ```hcl block with the language whose id or
  // alias is `hcl` (getLanguageIdByLanguageName): the server's hovers say hcl.
  assert.ok(opentofu.aliases.includes('hcl'), 'the alias hcl colours the hovers\' fenced blocks');
  assert.equal(opentofu.aliases[0], 'OpenTofu', 'the name in the status bar');
  assert.ok(!opentofu.filenamePatterns, 'a pattern would beat other extensions\' .tf claims');
  // A scope name of its own: source.hcl (HashiCorp HCL) and
  // source.hcl.terraform (HashiCorp Terraform) stay theirs.
  assert.deepEqual(manifest.contributes.grammars, [
    { language: 'opentofu', scopeName: 'source.opentofu', path: './syntaxes/opentofu.tmLanguage.json' },
  ]);
  const grammar = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'syntaxes/opentofu.tmLanguage.json'), 'utf8'));
  assert.equal(grammar.scopeName, 'source.opentofu');
  const languageConfiguration = JSON.parse(fs.readFileSync(path.join(__dirname, '..', opentofu.configuration), 'utf8'));
  assert.deepEqual(languageConfiguration.comments, { lineComment: '#', blockComment: ['/*', '*/'] });
  for (const pair of ['{}', '[]', '()']) {
    assert.ok(languageConfiguration.brackets.some(([open, close]) => open + close === pair), pair);
    assert.ok(languageConfiguration.autoClosingPairs.some(({ open, close }) => open + close === pair), pair);
  }
  const word = new RegExp(languageConfiguration.wordPattern, 'g');
  assert.deepEqual('aws_instance.web-1 = var.x-y'.match(word), ['aws_instance', 'web-1', 'var', 'x-y'], 'identifiers keep their dashes');
});

test('the .vsix carries the grammar, the language configuration and the bundled binary', () => {
  const ignore = fs.readFileSync(path.join(__dirname, '..', '.vscodeignore'), 'utf8').split('\n');
  for (const file of ['dist/extension.js', 'language-configuration.json', 'syntaxes/opentofu.tmLanguage.json', 'server/tofu-lens']) {
    assert.ok(ignore.includes(`!${file}`), file);
  }
  assert.equal(manifest.scripts.package, 'node scripts/package.js');
});

test('Plain Text .tf, .tfvars and test files become opentofu, unless a file association names them', () => {
  const claims = (file, id = 'plaintext', associations = undefined) => language.claimsPlainText(file, id, associations);
  for (const file of ['/w/main.tf', '/w/prod.tfvars', '/w/t/a.tftest.hcl', '/w/t/a.tofutest.hcl']) {
    assert.ok(claims(file), file);
    assert.ok(!claims(file, 'terraform'), `${file} as terraform stays terraform`);
    assert.ok(!claims(file, 'opentofu'), `${file} is already opentofu`);
  }
  for (const file of ['/w/notes.txt', '/w/main.tf.bak', '/w/a.hcl', '/w/a.tf.json']) {
    assert.ok(!claims(file), file);
  }
  assert.ok(!claims('/w/main.tf', 'plaintext', { '*.tf': 'plaintext' }), 'the user mapped *.tf');
  assert.ok(!claims('/w/m/main.tf', 'plaintext', { '**/m/*.tf': 'plaintext' }), 'a pattern on the path');
  assert.ok(!claims('/w/main.tf', 'plaintext', { 'main.tf': 'terraform' }), 'a file name');
  assert.ok(claims('/w/main.tf', 'plaintext', { '*.txt': 'plaintext', '**/other/*.tf': 'x' }), 'other patterns');
  assert.ok(claims('/w/prod.tfvars', 'plaintext', { '*.tf': 'plaintext' }), '*.tf does not name .tfvars');

  // Someone changed an open document from OpenTofu to another language: it
  // stays as chosen until it is really closed.
  const choices = new language.LanguageChoices();
  choices.closed('file:///w/main.tf', 'plaintext', true); // our own switch from Plain Text
  assert.ok(!choices.isChosen('file:///w/main.tf'));
  choices.closed('file:///w/main.tf', 'opentofu', true); // the language picker, the tab still open
  assert.ok(choices.isChosen('file:///w/main.tf'));
  choices.closed('file:///w/main.tf', 'plaintext', false); // the tab closed
  assert.ok(!choices.isChosen('file:///w/main.tf'));
  assert.match(extensionSource, /onDidOpenTextDocument\(claim\)/);
  assert.match(extensionSource, /textDocuments\.forEach\(claim\)/);
});

test('activates on each language a configuration file can have', () => {
  // plaintext: a .tf file that no extension claims opens as Plain Text.
  // terraform-vars: the HashiCorp extension's language for .tfvars files.
  for (const id of ['terraform', 'terraform-vars', 'opentofu', 'hcl', 'json', 'plaintext']) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), id);
  }
});

test('the document selector takes configuration, variable definitions and test files whatever their language id', () => {
  assert.deepEqual(config.DOCUMENT_SELECTOR, [
    { scheme: 'file', pattern: '**/*.{tf,tofu,tf.json,tofu.json,tfvars,tfvars.json,tftest.hcl,tftest.json,tofutest.hcl,tofutest.json}' },
  ]);
  assert.ok(
    manifest.activationEvents.includes(`workspaceContains:${config.CONFIG_FILE_GLOB}`),
    'the workspace is searched for the same files',
  );
  const matches = (file) => minimatch(file, config.DOCUMENT_SELECTOR[0].pattern, { dot: true });
  for (const file of [
    '/w/main.tf',
    '/w/m/versions.tofu',
    '/w/a.tf.json',
    '/w/.b.tofu.json',
    '/w/override.tf',
    '/w/terraform.tfvars',
    '/w/env/prod.auto.tfvars.json',
    '/w/main.tftest.hcl',
    '/w/tests/a.tofutest.hcl',
    '/w/tests/b.tftest.json',
    '/w/c.tofutest.json',
  ]) {
    assert.ok(matches(file), file);
    assert.ok(config.isConfigFile(file), file);
  }
  for (const file of ['/w/x.tfvars.bak', '/w/package.json', '/w/x.hcl', '/w/main.TF', '/w/main.tf.bak', '/w/a.tftest.hcl~']) {
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
  assert.deepEqual(defaults, {
    tofuVersion: '1.12.6',
    diagnostics: { scope: 'workspace' },
    exclude: ['.terraform/**'],
    schemas: { runProviders: true, fetchProviders: true, files: [] },
    varFiles: {},
    rename: { writeMoved: true },
  });
  assert.deepEqual(properties['tofuLens.diagnostics.scope'].enum, ['workspace', 'open']);
  assert.equal(properties['tofuLens.serverPath'].default, '', 'empty: the bundled binary, else PATH');
  assert.equal(properties['tofuLens.serverPath'].scope, 'machine', 'a workspace cannot pick the binary VS Code runs');
  assert.match(extensionSource, /configurationSection: SETTINGS_SECTION/, 'changes are sent to the server');
});

test('an untrusted workspace starts no provider, and says so; trust re-sends the settings', () => {
  const trust = manifest.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.deepEqual(trust.restrictedConfigurations, [
    'tofuLens.schemas.runProviders',
    'tofuLens.schemas.fetchProviders',
    'tofuLens.schemas.files',
  ]);
  const userSays = (key, fallback) => (key.startsWith('schemas.') && key !== 'schemas.files' ? true : fallback);
  assert.equal(config.serverSettings(userSays, true).schemas.runProviders, true);
  assert.equal(config.serverSettings(userSays, true).schemas.fetchProviders, true);
  assert.equal(config.serverSettings(userSays, false).schemas.runProviders, false);
  assert.equal(config.serverSettings(userSays, false).schemas.fetchProviders, false);
  // The `workspace/configuration` answer the server pulls on every change.
  const answer = { tofuVersion: '1.12.6', schemas: { runProviders: true, files: ['a.json'] } };
  assert.deepEqual(config.restrictSection(answer, false), {
    tofuVersion: '1.12.6',
    schemas: { runProviders: false, fetchProviders: false, files: ['a.json'] },
  });
  assert.deepEqual(config.restrictSection({ exclude: [] }, false), {
    exclude: [],
    schemas: { runProviders: false, fetchProviders: false },
  });
  assert.equal(config.restrictSection(answer, true), answer);
  assert.equal(config.restrictSection(null, false), null);
  assert.match(extensionSource, /configuration: async \(params, token, next\)/, 'the answer goes through restrictSection');
  assert.match(extensionSource, /vscode\.workspace\.isTrusted\)/, 'initializationOptions know about trust');
  assert.match(extensionSource, /showInformationMessage\(UNTRUSTED_MESSAGE\)/, 'said once');
  assert.match(extensionSource, /onDidGrantWorkspaceTrust\([^]*DidChangeConfigurationNotification/, 'trust re-sends the settings');
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

test('the server: the bundled binary by default, PATH without one, the setting first', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-choice-'));
  try {
    const onPath = path.join(dir, 'bin', 'tofu-lens');
    const bundled = path.join(dir, 'extension', config.bundledServerEntry('linux'));
    const other = path.join(dir, 'other', 'tofu-lens');
    for (const file of [onPath, bundled, other]) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '#!/bin/sh\n', { mode: 0o755 });
    }
    const env = { PATH: path.dirname(onPath) };
    assert.equal(config.bundledServerEntry('linux'), path.join('server', 'tofu-lens'));
    assert.equal(config.bundledServerEntry('win32'), path.join('server', 'tofu-lens.exe'));
    assert.deepEqual(config.chooseServer('', bundled, env, 'linux'), { path: bundled, origin: 'bundled' });
    assert.deepEqual(config.chooseServer('  ', bundled, { PATH: '' }, 'linux'), { path: bundled, origin: 'bundled' });
    assert.deepEqual(config.chooseServer('tofu-lens', bundled, env, 'linux'), { path: onPath, origin: 'setting' }, 'a name prefers PATH');
    assert.deepEqual(config.chooseServer(other, bundled, env, 'linux'), { path: other, origin: 'setting' });
    const missing = path.join(dir, 'extension-without', 'server', 'tofu-lens');
    assert.deepEqual(config.chooseServer('', missing, env, 'linux'), { path: onPath, origin: 'PATH' }, 'no bundled binary');
    assert.equal(config.chooseServer('', missing, { PATH: '' }, 'linux'), undefined);
    assert.equal(config.chooseServer('tofu-lens', bundled, { PATH: '' }, 'linux'), undefined, 'a name is never the bundled one');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.match(extensionSource, /chooseServer\(configured, bundled\)/);
  assert.match(extensionSource, /asAbsolutePath\(bundledServerEntry\(\)\)/);
});
