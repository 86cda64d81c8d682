// The real `tofu-lens serve --stdio` driven the way VS Code drives it through
// this extension: VS Code's client capabilities, the extension's settings and
// document selector, open/change/hover, diagnostics, progress, file watching.

'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { after, before, describe, test } = require('node:test');

const { VsCodeSession, firstCodeBlock, fixtureModule } = require('./vscode-client.js');
const { IndexingStatus } = require('../out/indexing.js');
const { parseServerLogLine } = require('../out/serverLog.js');

const codes = (diagnostics) => diagnostics.map((d) => d.code).sort();

describe('VS Code session on examples/overrides', () => {
  let fixture;
  let vscode;

  before(async () => {
    fixture = fixtureModule();
    vscode = await VsCodeSession.start(fixture.dir);
  });

  after(async () => {
    const code = await vscode.shutdown();
    assert.equal(code, 0, `server exit code after shutdown/exit\n${vscode.stderr}`);
    fs.rmSync(fixture.root, { recursive: true, force: true });
  });

  test('initialize: UTF-16 positions, incremental sync, hover', () => {
    const capabilities = vscode.serverCapabilities;
    // VS Code offers only UTF-16.
    assert.deepEqual(vscode.clientCapabilities.general.positionEncodings, ['utf-16']);
    assert.equal(capabilities.positionEncoding ?? 'utf-16', 'utf-16');
    const sync = capabilities.textDocumentSync;
    assert.equal(sync.change, 2, 'incremental sync');
    assert.equal(sync.openClose, true);
    assert.ok(sync.save, 'save notifications');
    assert.ok(capabilities.hoverProvider);
  });

  test('the server watches configuration files through VS Code', async () => {
    const registration = await vscode.waitFor('a didChangeWatchedFiles registration', () =>
      vscode.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'),
    );
    const globs = registration.registerOptions.watchers.map((w) => w.globPattern);
    // Configuration, variable definitions and test files, the module manifest
    // `tofu init` writes (which directory each installed module call reads), and
    // the providers it installs (their schemas are read again when these change).
    assert.deepEqual(globs, [
      '**/*.{tf,tofu,tf.json,tofu.json,tfvars,tfvars.json,tftest.hcl,tftest.json,tofutest.hcl,tofutest.json}',
      '**/.terraform/modules/modules.json',
      '**/.terraform.lock.hcl',
      '**/.terraform/providers/**',
    ]);
  });

  test('indexing progress drives the status bar item', async () => {
    await vscode.indexed();
    const status = new IndexingStatus();
    const shown = [];
    for (const { token, value } of vscode.progress) {
      status.update(token, value);
      shown.push(status.text());
    }
    assert.match(shown[0], /^\$\(sync~spin\) tofu-lens: 0\/1 module directories$/);
    assert.equal(shown.at(-1), undefined, 'hidden once indexing ended');
  });

  test('settings are asked for with workspace/configuration', async () => {
    await vscode.waitFor('a workspace/configuration request', () => vscode.configurationRequests > 0);
  });

  test('diagnostics of files that are not open', async () => {
    const byFile = await vscode.workspaceDiagnostics('diagnostics of network.tf', (files) => files.has('network.tf'));
    assert.deepEqual(codes(byFile.get('network.tf')), ['duplicate-block', 'duplicate-local']);
    assert.deepEqual(codes(byFile.get('dev_override.tf')), ['override-missing-base']);
    assert.deepEqual(codes(byFile.get('override.tf')), ['override-depends-on']);
    assert.deepEqual(codes(byFile.get('versions.tf')), ['file-shadowed']);
    const duplicate = byFile.get('network.tf').find((d) => d.code === 'duplicate-block');
    assert.equal(duplicate.source, 'tofu-lens');
    assert.equal(duplicate.severity, 1);
    assert.equal(duplicate.message.split('\n')[0], 'Duplicate resource "aws_security_group" configuration');
    assert.deepEqual(duplicate.range, { start: { line: 7, character: 0 }, end: { line: 7, character: 35 } });
    assert.equal(duplicate.relatedInformation[0].location.uri, vscode.uri('main.tf'));
  });

  test('open main.tf (terraform) and hover on the overridden resource', async () => {
    vscode.open('main.tf', 'terraform');
    assert.deepEqual(await vscode.documentDiagnostics('main.tf'), []);
    const block = firstCodeBlock(await vscode.hover('main.tf', 0, 10));
    assert.match(block, /^resource "aws_instance" "web" \{/);
    assert.match(block, /instance_type = "t3\.large" +# override\.tf:3/);
    assert.match(block, /device_name = "\/dev\/sdc"/);
    assert.doesNotMatch(block, /var\.instance_type|\/dev\/sdb|volume_size/, 'superseded values stay out');
    assert.equal(await vscode.hover('main.tf', 13, 0), null, 'outside any block');
  });

  test('open versions.tofu (opentofu): hover on its provider block', async () => {
    vscode.open('versions.tofu', 'opentofu');
    assert.deepEqual(await vscode.documentDiagnostics('versions.tofu'), []);
    const block = firstCodeBlock(await vscode.hover('versions.tofu', 13, 4));
    assert.match(block, /^provider "aws" \{\n\s+region = var\.region/);
  });

  test('an incremental change is analysed from the buffer, not the disk', async () => {
    // A second `ami` line in the resource body: OpenTofu rejects it.
    vscode.change('main.tf', { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, '  ami = "ami-2"\n');
    const diagnostics = await vscode.documentDiagnostics('main.tf');
    assert.deepEqual(codes(diagnostics), ['duplicate-argument']);
    assert.equal(diagnostics[0].range.start.line, 2);
    // Undo: the buffer matches the disk again.
    vscode.change('main.tf', { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, '');
    assert.deepEqual(await vscode.documentDiagnostics('main.tf'), []);
  });

  test('a JSON file (json) is served too', async () => {
    const text = JSON.stringify({ output: { web_arn: { value: '${aws_instance.web.arn}' } } }, null, 2);
    vscode.writeOnDisk('outputs.tf.json', `${text}\n`);
    vscode.open('outputs.tf.json', 'json');
    assert.deepEqual(await vscode.documentDiagnostics('outputs.tf.json'), []);
    const block = firstCodeBlock(await vscode.hover('outputs.tf.json', 2, 6));
    assert.match(block, /^output "web_arn" \{/);
  });

  test('a file created on disk is picked up from the watcher notification', async () => {
    vscode.writeOnDisk('zz_override.tf', 'resource "aws_instance" "web" {\n  ami = "ami-from-disk"\n}\n');
    // The server reads changed files off the request path (a checkout never
    // delays a hover), so a hover sent at once may still see the module
    // before the change: ask until the new file shows, for up to 20 s.
    const deadline = Date.now() + 20_000;
    let block = '';
    while (Date.now() < deadline) {
      block = firstCodeBlock(await vscode.hover('main.tf', 0, 10));
      if (block.includes('zz_override.tf')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(block, /ami += "ami-from-disk" +# zz_override\.tf:2/);
  });

  test('the server log is tracing lines the output channel can level', () => {
    const lines = vscode.stderr.split('\n').filter(Boolean);
    assert.ok(lines.length > 0, 'the server logs at info level');
    for (const line of lines) {
      const parsed = parseServerLogLine(line);
      assert.notEqual(parsed.message, line, `not a tracing line: ${line}`);
      assert.ok(['trace', 'debug', 'info', 'warn', 'error'].includes(parsed.level));
    }
  });
});

describe('across the module boundary, and .tfvars files', () => {
  let root;
  let vscode;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-vscode-tree-'));
    const files = {
      'main.tf': 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n',
      'variables.tf': 'variable "region" {\n  type = string\n}\n',
      'terraform.tfvars': 'region = "eu-west-1"\nzone   = "a"\n',
      'modules/net/variables.tf': 'variable "cidr" {\n  type = string\n}\n',
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    vscode = await VsCodeSession.start(root);
    await vscode.indexed();
  });

  after(async () => {
    await vscode.shutdown();
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('definition on a module argument opens the called module\'s variable', async () => {
    vscode.open('main.tf', 'terraform');
    assert.deepEqual(await vscode.definition('main.tf', 2, 3), ['modules/net/variables.tf:0']);
  });

  test('a .tfvars file (terraform-vars) is served: diagnostics, hover, definition', async () => {
    vscode.open('terraform.tfvars', 'terraform-vars');
    assert.deepEqual(codes(await vscode.documentDiagnostics('terraform.tfvars')), ['undeclared-value']);
    assert.match(firstCodeBlock(await vscode.hover('terraform.tfvars', 0, 2)), /^variable "region" \{/);
    assert.deepEqual(await vscode.definition('terraform.tfvars', 0, 2), ['variables.tf:0']);
  });
});

describe('settings', () => {
  test('tofuVersion from initializationOptions, then from a configuration change', async () => {
    const fixture = fixtureModule();
    // versions.tofu says required_version = ">= 1.10".
    const vscode = await VsCodeSession.start(fixture.dir, { tofuVersion: '1.9.0' });
    try {
      await vscode.indexed();
      vscode.open('versions.tofu', 'opentofu');
      const incompatible = await vscode.documentDiagnostics('versions.tofu');
      assert.deepEqual(codes(incompatible), ['incompatible-tofu-version']);
      assert.match(incompatible[0].message, /1\.9\.0/);

      vscode.changeSettings({ tofuVersion: '1.12.6' });
      await vscode.waitFor('the server to ask for the changed settings', () => vscode.configurationRequests >= 2);
      await vscode.workspaceDiagnostics('diagnostics after tofuVersion 1.12.6', (files) =>
        (files.get('network.tf') ?? []).some((d) => d.code === 'duplicate-block'),
      );
      assert.deepEqual(await vscode.documentDiagnostics('versions.tofu'), []);
    } finally {
      await vscode.shutdown();
      fs.rmSync(fixture.root, { recursive: true, force: true });
    }
  });

  test('diagnostics.scope "open" leaves closed module directories alone', async () => {
    const fixture = fixtureModule();
    const other = path.join(fixture.dir, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'main.tf'), 'variable "x" {}\nvariable "x" {}\n');
    const vscode = await VsCodeSession.start(fixture.dir, { diagnostics: { scope: 'open' } });
    try {
      await vscode.indexed();
      vscode.open('main.tf', 'terraform');
      const byFile = await vscode.workspaceDiagnostics('diagnostics of the open module', (files) =>
        (files.get('network.tf') ?? []).length > 0,
      );
      assert.deepEqual(byFile.get('other/main.tf') ?? [], [], 'no diagnostics where no file is open');

      vscode.changeSettings({ diagnostics: { scope: 'workspace' } });
      const everywhere = await vscode.workspaceDiagnostics('diagnostics of other/main.tf', (files) =>
        (files.get('other/main.tf') ?? []).length > 0,
      );
      // `x` is used nowhere: the editor also gets the unused-declaration hint.
      assert.deepEqual(codes(everywhere.get('other/main.tf')), ['duplicate-block', 'unused-declaration']);
    } finally {
      await vscode.shutdown();
      fs.rmSync(fixture.root, { recursive: true, force: true });
    }
  });
});

// The real hashicorp/time provider (TOFU_LENS_PROVIDER_PLUGINS, as for the
// Rust tests), installed as `tofu init` lays it out, with its hash in the
// lock file, by the helper the editors' tests share, in a module that
// misspells an argument. Recorded from OpenTofu 1.12.6 `tofu validate`:
// main.tf:15,3 Unsupported argument.
const timeProviderRoot = path.resolve(__dirname, '../../test/time_provider_root.py');

describe('workspace trust', () => {
  test(
    'untrusted: no provider runs; trusted: the schema is read and judges the module',
    { skip: !process.env.TOFU_LENS_PROVIDER_PLUGINS && 'TOFU_LENS_PROVIDER_PLUGINS is not set: the real provider was not run' },
    async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-trust-'));
      const prod = path.join(root, 'workspace', 'stacks', 'prod');
      const laidOut = spawnSync('python3', [timeProviderRoot, '--install-only', prod], { encoding: 'utf8' });
      assert.equal(laidOut.status, 0, laidOut.stderr);
      fs.writeFileSync(
        path.join(prod, 'main.tf'),
        'terraform {\n  required_providers {\n    time = {\n      source  = "hashicorp/time"\n      version = "0.14.2"\n    }\n  }\n}\n\n\n\n\n\nresource "time_rotating" "r" {\n  rotation_dayz = 1\n}\n',
      );
      // The server's schema cache, empty: a provider that runs stores its schema there.
      const cache = path.join(root, 'cache');
      const schemaCached = () => fs.existsSync(path.join(cache, 'tofu-lens/schemas/registry.opentofu.org/hashicorp/time'));
      process.env.XDG_CACHE_HOME = cache;
      const schemasRead = (message) =>
        vscode.waitFor(`schemas read: ${message}`, () =>
          vscode.progress.some((p) => p.value.kind === 'end' && p.value.message === message),
        );
      const vscode = await VsCodeSession.start(path.join(root, 'workspace'), {}, { trusted: false });
      try {
        await vscode.indexed();
        await schemasRead('prod: 0 of 1 provider schemas');
        vscode.open('stacks/prod/main.tf', 'terraform');
        assert.deepEqual(codes(await vscode.documentDiagnostics('stacks/prod/main.tf')), []);
        assert.ok(!schemaCached(), 'no provider ran');

        vscode.grantTrust();
        await schemasRead('prod: 1 of 1 provider schemas');
        const byFile = await vscode.workspaceDiagnostics('Unsupported argument once trusted', (files) =>
          (files.get('stacks/prod/main.tf') ?? []).some((d) => d.code === 'unsupported-argument'),
        );
        const [unsupported] = byFile.get('stacks/prod/main.tf');
        assert.deepEqual(unsupported.range.start, { line: 14, character: 2 });
        assert.ok(schemaCached(), 'the provider ran once trusted');
      } finally {
        await vscode.shutdown();
        delete process.env.XDG_CACHE_HOME;
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
