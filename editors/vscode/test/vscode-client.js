// A stand-in for VS Code in front of the real `tofu-lens serve --stdio`: it
// sends what vscode-languageclient sends for this extension and answers the
// server's requests as VS Code does. The client capabilities are not written
// down here: they are computed by the vscode-languageclient version in
// package-lock.json, the one the extension bundles.

'use strict';

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const { fileURLToPath, pathToFileURL } = require('node:url');

const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');

const EXTENSION_DIR = path.resolve(__dirname, '..');
const REPO_ROOT = path.resolve(EXTENSION_DIR, '..', '..');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(EXTENSION_DIR, 'package.json'), 'utf8'));

/** The server binary: $TOFU_LENS, else the release build of this repository. */
function serverBinary() {
  const binary = process.env.TOFU_LENS || path.join(REPO_ROOT, 'target', 'release', 'tofu-lens');
  assert.ok(
    fs.existsSync(binary),
    `no tofu-lens binary at ${binary}: run \`cargo build --release -p tofu-lens\` or set TOFU_LENS`,
  );
  return binary;
}

/** A fresh copy of examples/overrides in a temporary directory. */
function fixtureModule() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-vscode-'));
  const dir = path.join(root, 'overrides');
  fs.cpSync(path.join(REPO_ROOT, 'examples', 'overrides'), dir, { recursive: true });
  return { root, dir };
}

/**
 * The client capabilities vscode-languageclient computes, read from the real
 * library: it is loaded with an inert stand-in for the `vscode` module (only
 * `version` must be real, it is checked against the library's engine range).
 */
function vscodeClientCapabilities() {
  const vscodeVersion = MANIFEST.engines.vscode.replace(/^\^/, '');
  const inert = (name) =>
    new Proxy(function () {}, {
      get: (_, property) => {
        if (name === 'vscode' && property === 'version') {
          return vscodeVersion;
        }
        return property === 'then' ? undefined : inert(`${name}.${String(property)}`);
      },
      apply: () => inert(`${name}()`),
      construct: () => inert(`new ${name}`),
    });
  const originalLoad = Module._load;
  Module._load = function (request, ...rest) {
    return request === 'vscode' ? inert('vscode') : originalLoad.call(this, request, ...rest);
  };
  try {
    const { LanguageClient } = require('vscode-languageclient/node');
    const config = require('../out/config.js');
    const client = new LanguageClient(config.CLIENT_ID, 'tofu-lens', { command: 'tofu-lens' }, {
      documentSelector: config.DOCUMENT_SELECTOR,
    });
    return { capabilities: client.computeClientCapabilities(), vscodeVersion };
  } finally {
    Module._load = originalLoad;
  }
}

/** VS Code's settings store for `tofuLens.*`, shaped as `workspace.getConfiguration().get('tofuLens')` returns it. */
function vscodeSettings(overrides = {}) {
  const defaults = {};
  for (const [key, schema] of Object.entries(MANIFEST.contributes.configuration.properties)) {
    const parts = key.split('.').slice(1);
    let target = defaults;
    for (const part of parts.slice(0, -1)) {
      target = target[part] ??= {};
    }
    target[parts.at(-1)] = schema.default;
  }
  return { ...defaults, ...overrides, diagnostics: { ...defaults.diagnostics, ...overrides.diagnostics } };
}

class VsCodeSession {
  /**
   * Starts the server as the extension does (`<serverPath> serve --stdio`,
   * TOFU_LENS_LOG from the settings) and initializes it on `folder`.
   */
  static async start(folder, settingsOverrides = {}, { trusted = true } = {}) {
    const config = require('../out/config.js');
    const session = new VsCodeSession(folder, vscodeSettings(settingsOverrides));
    session.trusted = trusted;
    const launch = config.serverLaunch(serverBinary(), session.settings.logLevel, process.env);
    session.process = spawn(launch.command, [...launch.args, '--stdio'], {
      cwd: folder,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    session.process.stderr.setEncoding('utf8');
    session.process.stderr.on('data', (chunk) => {
      session.stderr += chunk;
    });
    session.exited = new Promise((resolve) => session.process.on('exit', (code) => resolve(code)));
    session.connection = createProtocolConnection(
      new StreamMessageReader(session.process.stdout),
      new StreamMessageWriter(session.process.stdin),
    );
    session.answerServerRequests();
    session.connection.listen();
    await session.initialize(config.serverSettings((key, fallback) => session.setting(key, fallback), trusted));
    return session;
  }

  constructor(folder, settings) {
    this.folder = folder;
    this.settings = settings;
    this.stderr = '';
    this.registrations = [];
    this.progress = [];
    this.published = new Map();
    this.messages = [];
    this.configurationRequests = 0;
    this.refreshRequests = 0;
    this.versions = new Map();
    this.listeners = new Set();
  }

  setting(key, fallback) {
    let value = this.settings;
    for (const part of key.split('.')) {
      value = value?.[part];
    }
    return value === undefined ? fallback : value;
  }

  uri(file) {
    return pathToFileURL(path.join(this.folder, file)).href;
  }

  /** The path of `uri` below the workspace folder, with `/` separators. */
  relative(uri) {
    return path.relative(this.folder, fileURLToPath(uri)).split(path.sep).join('/');
  }

  changed() {
    for (const listener of [...this.listeners]) {
      listener();
    }
  }

  /** Resolves once `predicate()` holds, re-checked after every server message; fails after `timeoutMs`. */
  waitFor(description, predicate, timeoutMs = 20000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        let value;
        try {
          value = predicate();
        } catch (error) {
          finish();
          reject(error);
          return;
        }
        if (value) {
          finish();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}\nserver log:\n${this.stderr}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  answerServerRequests() {
    const connection = this.connection;
    connection.onRequest('client/registerCapability', (params) => {
      this.registrations.push(...params.registrations);
      this.changed();
      return null;
    });
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onNotification('$/progress', (params) => {
      this.progress.push(params);
      this.changed();
    });
    // ConfigurationFeature: `workspace.getConfiguration().get(section)`,
    // through the extension's middleware (workspace trust).
    const config = require('../out/config.js');
    connection.onRequest('workspace/configuration', (params) => {
      this.configurationRequests += 1;
      this.changed();
      return params.items.map((item) =>
        item.section === 'tofuLens' ? config.restrictSection(structuredClone(this.settings), this.trusted) : null,
      );
    });
    connection.onRequest('workspace/diagnostic/refresh', () => {
      this.refreshRequests += 1;
      this.changed();
      return null;
    });
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      this.published.set(params.uri, params);
      this.changed();
    });
    connection.onNotification('window/showMessage', (params) => {
      this.messages.push(params);
      this.changed();
    });
    connection.onNotification('window/logMessage', () => undefined);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('workspace/applyEdit', () => ({ applied: false }));
  }

  async initialize(initializationOptions) {
    const { capabilities, vscodeVersion } = vscodeClientCapabilities();
    this.clientCapabilities = capabilities;
    const result = await this.connection.sendRequest('initialize', {
      processId: null,
      clientInfo: { name: 'Visual Studio Code', version: vscodeVersion },
      locale: 'en',
      rootPath: this.folder,
      rootUri: pathToFileURL(this.folder).href,
      capabilities,
      initializationOptions,
      trace: 'off',
      workspaceFolders: [{ uri: pathToFileURL(this.folder).href, name: path.basename(this.folder) }],
    });
    this.serverCapabilities = result.capabilities;
    this.connection.sendNotification('initialized', {});
    // SyncConfigurationFeature sends the section once at start.
    this.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { tofuLens: structuredClone(this.settings) },
    });
    return result;
  }

  /** True when the server chose pull diagnostics (VS Code offers both). */
  get pullsDiagnostics() {
    return this.serverCapabilities.diagnosticProvider !== undefined;
  }

  /** Waits for the first workspace indexing to end (the status bar item hides then). */
  indexed() {
    return this.waitFor('the indexing progress to end', () => {
      const begun = this.progress.find((p) => p.value.kind === 'begin');
      return begun && this.progress.some((p) => p.token === begun.token && p.value.kind === 'end');
    });
  }

  open(file, languageId) {
    const text = fs.readFileSync(path.join(this.folder, file), 'utf8');
    this.versions.set(file, 1);
    this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: this.uri(file), languageId, version: 1, text },
    });
  }

  /** One incremental edit, as VS Code sends a keystroke or a paste. */
  change(file, range, text) {
    const version = this.versions.get(file) + 1;
    this.versions.set(file, version);
    this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: this.uri(file), version },
      contentChanges: [{ range, rangeLength: undefined, text }],
    });
    return version;
  }

  /** A file written on disk: VS Code's file watcher reports it for the registered glob. */
  writeOnDisk(file, text) {
    const existed = fs.existsSync(path.join(this.folder, file));
    fs.writeFileSync(path.join(this.folder, file), text);
    this.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: this.uri(file), type: existed ? 2 : 1 }],
    });
  }

  hover(file, line, character) {
    return this.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: this.uri(file) },
      position: { line, character },
    });
  }

  /** Go to definition (F12): the places as `path:line`, the path below the folder. */
  async definition(file, line, character) {
    const locations = await this.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: this.uri(file) },
      position: { line, character },
    });
    return (locations ?? []).map((location) => `${this.relative(location.uri)}:${location.range.start.line}`);
  }

  /**
   * The diagnostics VS Code shows for an open file: pulled with
   * `textDocument/diagnostic` (as the client does on open and change) when
   * the server offers pull, else the latest `publishDiagnostics` for the
   * document's current version.
   */
  async documentDiagnostics(file) {
    if (this.pullsDiagnostics) {
      const report = await this.connection.sendRequest('textDocument/diagnostic', {
        identifier: this.serverCapabilities.diagnosticProvider.identifier,
        textDocument: { uri: this.uri(file) },
      });
      assert.equal(report.kind, 'full');
      return report.items;
    }
    const version = this.versions.get(file);
    const published = await this.waitFor(`diagnostics for ${file} version ${version}`, () => {
      const latest = this.published.get(this.uri(file));
      return latest && latest.version === version && latest;
    });
    return published.diagnostics;
  }

  /**
   * The diagnostics VS Code shows for files that are not open: from
   * `workspace/diagnostic` (the client pulls it again and again) or from
   * `publishDiagnostics`. Resolves to a map of path (below the folder) to diagnostics once
   * `predicate` holds for it.
   */
  async workspaceDiagnostics(description, predicate) {
    if (!this.pullsDiagnostics) {
      return this.waitFor(description, () => {
        const byFile = new Map();
        for (const [uri, params] of this.published) {
          if (uri.startsWith(pathToFileURL(this.folder).href)) {
            byFile.set(this.relative(uri), params.diagnostics);
          }
        }
        return predicate(byFile) && byFile;
      });
    }
    const deadline = Date.now() + 20000;
    for (;;) {
      const report = await this.connection.sendRequest('workspace/diagnostic', {
        identifier: this.serverCapabilities.diagnosticProvider.identifier,
        previousResultIds: [],
      });
      const byFile = new Map();
      for (const item of report.items) {
        assert.equal(item.kind, 'full');
        byFile.set(this.relative(item.uri), item.items);
      }
      if (predicate(byFile)) {
        return byFile;
      }
      assert.ok(Date.now() < deadline, `timed out waiting for ${description}: ${JSON.stringify([...byFile])}`);
      // The client waits 2 s between workspace pulls; a refresh request cuts that short.
      const refreshes = this.refreshRequests;
      await this.waitFor('a diagnostic refresh', () => this.refreshRequests > refreshes, 2000).catch(() => undefined);
    }
  }

  /** A settings change in VS Code: the client notifies, the server asks for the section. */
  changeSettings(overrides) {
    this.settings = vscodeSettings({ ...this.settings, ...overrides });
    this.connection.sendNotification('workspace/didChangeConfiguration', {
      settings: { tofuLens: structuredClone(this.settings) },
    });
  }

  /** The user trusts the workspace: the extension makes the server pull its settings again. */
  grantTrust() {
    this.trusted = true;
    this.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
  }

  async shutdown() {
    await this.connection.sendRequest('shutdown');
    this.connection.sendNotification('exit');
    const code = await Promise.race([
      this.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 5000)),
    ]);
    this.connection.dispose();
    if (code === 'still running') {
      this.process.kill();
    }
    return code;
  }
}

/** The first fenced code block of a hover's markdown, without the fences. */
function firstCodeBlock(hover) {
  assert.ok(hover, 'hover returned null');
  assert.equal(hover.contents.kind, 'markdown');
  const match = /```hcl\n([\s\S]*?)```/.exec(hover.contents.value);
  assert.ok(match, `no hcl code block in:\n${hover.contents.value}`);
  return match[1];
}

module.exports = { VsCodeSession, firstCodeBlock, fixtureModule, serverBinary, vscodeClientCapabilities };
