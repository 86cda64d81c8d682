// The VS Code side of tofu-lens: starts `tofu-lens serve --stdio` through
// vscode-languageclient and wires VS Code to it. Every feature lives in the
// server; this file only launches it (the binary bundled in the package, or
// the one the settings name), passes the settings on (with no provider
// started in a workspace VS Code does not trust), shows its log, shows a
// status bar item while it indexes, and shows `.tf` files that no other
// extension claims as OpenTofu (the grammar and language configuration).

import * as fs from 'fs';
import * as readline from 'readline';
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  DidChangeConfigurationNotification,
  RevealOutputChannelOn,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

import {
  CLIENT_ID,
  CONFIG_FILE_GLOB,
  DOCUMENT_SELECTOR,
  SETTINGS_SECTION,
  SKIPPED_DIRS_GLOB,
  UNTRUSTED_MESSAGE,
  bundledServerEntry,
  chooseServer,
  isConfigFile,
  restrictSection,
  serverLaunch,
  serverSettings,
} from './config';
import { IndexingStatus } from './indexing';
import { LANGUAGE_ID, LanguageChoices, claimsPlainText } from './language';
import { parseServerLogLine } from './serverLog';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('tofu-lens', { log: true });
  const protocolLog = vscode.window.createOutputChannel('tofu-lens (protocol)', { log: true });
  const statusItem = vscode.window.createStatusBarItem('tofuLens.indexing', vscode.StatusBarAlignment.Left, 0);
  statusItem.name = 'tofu-lens indexing';
  statusItem.command = 'tofuLens.showLog';
  const indexing = new IndexingStatus();
  const showIndexing = (): void => {
    const text = indexing.text();
    if (text === undefined) {
      statusItem.hide();
      return;
    }
    statusItem.text = text;
    statusItem.tooltip = indexing.tooltip();
    statusItem.show();
  };

  const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration(SETTINGS_SECTION);

  // Before anything slower: files already open as Plain Text get their colours.
  context.subscriptions.push(...showPlainTextFilesAsOpenTofu(log));

  const bundled = context.asAbsolutePath(bundledServerEntry());
  ensureExecutable(bundled);

  let untrustedSaid = false;
  const start = async (): Promise<void> => {
    const configured = settings().get<string>('serverPath', '');
    const server = chooseServer(configured, bundled);
    if (server === undefined) {
      const wanted = configured.trim() === '' ? 'tofu-lens (on PATH; this package bundles no binary)' : configured;
      log.error(`cannot find the tofu-lens binary ${JSON.stringify(wanted)} (tofuLens.serverPath)`);
      const choice = await vscode.window.showErrorMessage(
        `tofu-lens: cannot find ${JSON.stringify(configured.trim() || 'tofu-lens')}. Install the extension's package for your platform, install tofu-lens on PATH (cargo install --path crates/tofu-lens), or set tofuLens.serverPath.`,
        'Open Settings',
      );
      if (choice === 'Open Settings') {
        await vscode.commands.executeCommand('workbench.action.openSettings', 'tofuLens.serverPath');
      }
      return;
    }
    const launch = serverLaunch(server.path, settings().get<string>('logLevel', 'info'), process.env);
    const origin = { setting: 'tofuLens.serverPath', bundled: 'bundled with the extension', PATH: 'found on PATH' }[server.origin];
    log.info(`starting ${launch.command} ${launch.args.join(' ')} --stdio (${origin})`);
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: launch.args,
      transport: TransportKind.stdio,
      options: { env: launch.env },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      // Evaluated at every (re)start, so a restart picks up new settings.
      initializationOptions: () =>
        serverSettings((key, fallback) => settings().get(key, fallback), vscode.workspace.isTrusted),
      // Sends workspace/didChangeConfiguration on every change of tofuLens.*;
      // the server then asks for the section with workspace/configuration.
      synchronize: { configurationSection: SETTINGS_SECTION },
      // vscode-languageclient 10+ pulls only on open unless told otherwise.
      diagnosticPullOptions: { onChange: true, onSave: true },
      outputChannel: log,
      traceOutputChannel: protocolLog,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      stdioOptions: {
        // With the stdio transport, stdout carries the protocol and is never handed here.
        stdout: () => undefined,
        stderr: (input, channel) => {
          readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', (line) => {
            const { level, message } = parseServerLogLine(line);
            channel[level](message);
          });
        },
      },
      middleware: {
        // Untrusted: the server is told not to start providers, whatever
        // the user's settings say (package.json restricts the workspace's).
        workspace: {
          configuration: async (params, token, next) => {
            const answer = await next(params, token);
            if (!Array.isArray(answer)) {
              return answer;
            }
            const trusted = vscode.workspace.isTrusted;
            return answer.map((section: unknown, index) =>
              params.items[index]?.section === SETTINGS_SECTION ? restrictSection(section, trusted) : section,
            );
          },
        },
        // Our status bar item replaces the client's own window progress for
        // the server's progress; only `end` goes on, so the client's progress
        // part lets go of the token without ever showing anything.
        handleWorkDoneProgress: (token, params, next) => {
          if (indexing.update(token, params)) {
            showIndexing();
          }
          if (params.kind === 'end') {
            next(token, params);
          }
        },
      },
    };
    if (!vscode.workspace.isTrusted && !untrustedSaid) {
      untrustedSaid = true;
      log.info(UNTRUSTED_MESSAGE);
      void vscode.window.showInformationMessage(UNTRUSTED_MESSAGE);
    }
    client = new LanguageClient(CLIENT_ID, 'tofu-lens', serverOptions, clientOptions);
    try {
      await client.start();
    } catch (error) {
      log.error(`the server did not start: ${String(error)}`);
    }
  };

  const stop = async (): Promise<void> => {
    const running = client;
    client = undefined;
    if (running !== undefined) {
      await running.stop();
    }
    indexing.clear();
    showIndexing();
  };

  const restart = async (): Promise<void> => {
    await stop();
    await start();
  };

  context.subscriptions.push(
    log,
    protocolLog,
    statusItem,
    vscode.commands.registerCommand('tofuLens.restartServer', restart),
    vscode.commands.registerCommand('tofuLens.showLog', () => log.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('tofuLens.serverPath') || event.affectsConfiguration('tofuLens.logLevel')) {
        void restart();
      }
    }),
    // Trusted now: the server pulls the settings again, providers allowed.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info('the workspace is trusted now: providers may be started to read their schemas');
      void client?.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }),
  );

  // Activation on any JSON file must not start a server for a workspace with
  // no OpenTofu in it: start once a configuration file is open or exists.
  if (await workspaceHasConfigFiles()) {
    await start();
    return;
  }
  const waiting = vscode.workspace.onDidOpenTextDocument((document) => {
    if (document.uri.scheme === 'file' && isConfigFile(document.fileName)) {
      waiting.dispose();
      void start();
    }
  });
  context.subscriptions.push(waiting);
}

export async function deactivate(): Promise<void> {
  if (client !== undefined) {
    await client.stop();
  }
}

/**
 * Shows files that open as Plain Text and are OpenTofu by name (`.tf`,
 * `.tfvars`, ...: see language.ts) as OpenTofu, now and whenever one opens,
 * unless someone changed that document's language while it was shown.
 */
function showPlainTextFilesAsOpenTofu(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const choices = new LanguageChoices();
  const claim = (document: vscode.TextDocument): void => {
    const uri = document.uri.toString();
    const associations = vscode.workspace.getConfiguration('files', document).get<Record<string, string>>('associations');
    if (choices.isChosen(uri) || !claimsPlainText(document.uri.path, document.languageId, associations)) {
      return;
    }
    vscode.languages.setTextDocumentLanguage(document, LANGUAGE_ID).then(undefined, (error: unknown) => {
      log.warn(`could not show ${document.uri.fsPath} as OpenTofu: ${String(error)}`);
    });
  };
  vscode.workspace.textDocuments.forEach(claim);
  return [
    vscode.workspace.onDidOpenTextDocument(claim),
    vscode.workspace.onDidCloseTextDocument((document) => {
      const uri = document.uri.toString();
      choices.closed(uri, document.languageId, isShownInTab(uri));
    }),
  ];
}

function isShownInTab(uri: string): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some(({ input }) => {
      if (input instanceof vscode.TabInputText) {
        return input.uri.toString() === uri;
      }
      if (input instanceof vscode.TabInputTextDiff) {
        return input.original.toString() === uri || input.modified.toString() === uri;
      }
      return false;
    }),
  );
}

/**
 * The bundled binary must be executable; VS Code keeps the mode the .vsix
 * records, but an unpacker that drops it must not leave the server unstartable.
 */
function ensureExecutable(file: string): void {
  try {
    const { mode } = fs.statSync(file);
    if (process.platform !== 'win32' && (mode & 0o111) === 0) {
      fs.chmodSync(file, mode | 0o755);
    }
  } catch {
    // No bundled binary: the package without one.
  }
}

async function workspaceHasConfigFiles(): Promise<boolean> {
  const open = vscode.workspace.textDocuments.some(
    (document) => document.uri.scheme === 'file' && isConfigFile(document.fileName),
  );
  if (open) {
    return true;
  }
  const found = await vscode.workspace.findFiles(CONFIG_FILE_GLOB, SKIPPED_DIRS_GLOB, 1);
  return found.length > 0;
}
