// What the extension tells VS Code and the server: which documents go to
// tofu-lens, the settings it passes on, and how the binary is found.
//
// This module does not import `vscode`, so the protocol test loads it as it is
// and drives the real server with exactly these values.

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The client id: VS Code reads `tofuLens.trace.server` because of it. */
export const CLIENT_ID = 'tofuLens';

/** The settings section the server asks for (`workspace/configuration`). */
export const SETTINGS_SECTION = 'tofuLens';

/**
 * Every file the server reads (server.md, "Languages served"): `.tf`, `.tofu`,
 * `.tf.json` and `.tofu.json`, the variable definitions files `.tfvars`
 * and `.tfvars.json`, and the test files `.tftest.hcl`, `.tftest.json`,
 * `.tofutest.hcl` and `.tofutest.json`, whatever language id VS Code gave
 * the file. The
 * HashiCorp extension calls `.tf` files `terraform` and `.tfvars` files
 * `terraform-vars`, the OpenTofu one `opentofu`, VS Code itself `json` for
 * `.tf.json`; a pattern serves them all.
 */
export const CONFIG_FILE_GLOB = '**/*.{tf,tofu,tf.json,tofu.json,tfvars,tfvars.json,tftest.hcl,tftest.json,tofutest.hcl,tofutest.json}';

/** The document selector of the language client: files on disk only. */
export const DOCUMENT_SELECTOR = [{ scheme: 'file', pattern: CONFIG_FILE_GLOB }];

/** Directories never searched when deciding whether a workspace has configuration files. */
export const SKIPPED_DIRS_GLOB = '**/{.terraform,.git,node_modules}/**';

/** True for a path the server reads, by name alone (case-sensitive, as OpenTofu). */
export function isConfigFile(fileName: string): boolean {
  return /\.(tf|tofu|tf\.json|tofu\.json|tfvars|tfvars\.json|tftest\.hcl|tftest\.json|tofutest\.hcl|tofutest\.json)$/.test(fileName);
}

/** The settings object the server takes as `initializationOptions` (server.md, "Settings"). */
export interface ServerSettings {
  tofuVersion: string;
  diagnostics: { scope: 'workspace' | 'open' };
  exclude: string[];
  schemas: { runProviders: boolean; fetchProviders: boolean; files: string[] };
  varFiles: Record<string, string[]>;
  rename: { writeMoved: boolean };
}

/** Reads a setting below `tofuLens.`, or the fallback (VS Code's `WorkspaceConfiguration.get` fits). */
export type SettingReader = <T>(key: string, fallback: T) => T;

/**
 * The server's settings, from the `tofuLens.*` settings (defaults as in
 * server.md, but `schemas.fetchProviders`, on here in a trusted workspace).
 * In a workspace VS Code does not trust, no provider is started or fetched
 * (`schemas.runProviders` and `schemas.fetchProviders` are false whatever
 * the settings say): reading a schema means running a binary from the
 * workspace's `.terraform`, and fetching follows the workspace's
 * `required_providers`.
 */
export function serverSettings(read: SettingReader, trusted = true): ServerSettings {
  return {
    tofuVersion: read('tofuVersion', '1.12.6'),
    diagnostics: { scope: read<'workspace' | 'open'>('diagnostics.scope', 'workspace') },
    exclude: read('exclude', ['.terraform/**']),
    schemas: {
      runProviders: trusted && read('schemas.runProviders', true),
      fetchProviders: trusted && read('schemas.fetchProviders', true),
      files: read<string[]>('schemas.files', []),
    },
    varFiles: read<Record<string, string[]>>('varFiles', {}),
    rename: { writeMoved: read('rename.writeMoved', true) },
  };
}

/**
 * The `tofuLens` section VS Code answers `workspace/configuration` with, as
 * the server gets it: in an untrusted workspace with `schemas.runProviders`
 * and `schemas.fetchProviders` false. Anything that is not an object goes through as it is.
 */
export function restrictSection(section: unknown, trusted: boolean): unknown {
  if (trusted || section === null || typeof section !== 'object' || Array.isArray(section)) {
    return section;
  }
  const settings = section as Record<string, unknown>;
  const schemas = settings.schemas !== null && typeof settings.schemas === 'object' ? settings.schemas : {};
  return { ...settings, schemas: { ...schemas, runProviders: false, fetchProviders: false } };
}

/** Said once when the server starts in a workspace VS Code does not trust. */
export const UNTRUSTED_MESSAGE =
  'tofu-lens: this workspace is not trusted, so no provider is started or fetched to read its schema (schemas from the cache and tofuLens.schemas.files still work). Trust the workspace to read them.';

/** How the server is started: `<serverPath> serve`; the client appends `--stdio`. */
export interface ServerLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

export function serverLaunch(command: string, logLevel: string, env: NodeJS.ProcessEnv): ServerLaunch {
  return { command, args: ['serve'], env: { ...env, TOFU_LENS_LOG: logLevel } };
}

/** Where a platform package carries the binary, relative to the extension's directory. */
export function bundledServerEntry(platform: NodeJS.Platform = process.platform): string {
  return path.join('server', platform === 'win32' ? 'tofu-lens.exe' : 'tofu-lens');
}

/** The binary to run and why that one. */
export interface ServerChoice {
  path: string;
  origin: 'setting' | 'bundled' | 'PATH';
}

/**
 * Which binary runs, from `tofuLens.serverPath` (`setting`) and the binary
 * bundled in the extension (`bundled`, the absolute path of
 * `server/tofu-lens` whether or not it exists):
 * - empty (the default): the bundled binary when this package has one, else
 *   `tofu-lens` on PATH (the package without a binary);
 * - a bare name (`tofu-lens`): that name on PATH, even with a bundled binary;
 * - anything with a slash: that path.
 * Undefined when the binary chosen does not exist.
 */
export function chooseServer(
  setting: string,
  bundled: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): ServerChoice | undefined {
  const wanted = setting.trim();
  if (wanted !== '') {
    const found = resolveServerPath(wanted, env, platform);
    return found === undefined ? undefined : { path: found, origin: 'setting' };
  }
  if (isFile(bundled)) {
    return { path: bundled, origin: 'bundled' };
  }
  const onPath = resolveServerPath('tofu-lens', env, platform);
  return onPath === undefined ? undefined : { path: onPath, origin: 'PATH' };
}

/**
 * The absolute path of the server binary, or undefined when there is none: a
 * bare name (the default, `tofu-lens`) is looked up on PATH, anything with a
 * slash is taken as a path (`~` is the home directory).
 */
export function resolveServerPath(
  serverPath: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const wanted = serverPath.trim() || 'tofu-lens';
  if (wanted.includes('/') || wanted.includes('\\')) {
    const expanded = wanted.startsWith('~/') ? path.join(os.homedir(), wanted.slice(2)) : wanted;
    return isExecutable(expanded) ? path.resolve(expanded) : undefined;
  }
  const suffixes = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) {
      continue;
    }
    for (const suffix of suffixes) {
      const candidate = path.join(dir, wanted + suffix);
      if (isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
