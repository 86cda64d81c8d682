// The real VS Code workbench with the platform .vsix installed (the one that
// carries the binary): code-server (VS Code 1.100 in the browser) on
// 127.0.0.1, driven by headless Debian Chromium through playwright-core, on a
// copy of examples/overrides. Every check reads what a person sees, from the
// workbench's DOM: the colours and the language of a .tf file, the Problems
// panel, squiggles, the hover (coloured), go to definition (also from a
// module argument into the called module), a quick fix, an inlay hint,
// format on save; and, in a root where `tofu init` installed the real
// hashicorp/time provider, hover, completion and "Did you mean" from its
// schema. A screenshot of each step goes to target/editors/vscode-real/.
//
// The installed .vsix is the whole install: no tofuLens.serverPath is set,
// and code-server runs with a PATH from which every directory holding a
// tofu-lens is removed; the test checks that the server VS Code started is
// the binary inside the installed extension.
//
//   VSIX       the packaged extension (default:
//              editors/vscode/tofu-lens-<target>.vsix, e.g. linux-x64, from
//              `npm run package -- --server target/release/tofu-lens`)
//   CHROMIUM   the browser (default: /usr/bin/chromium; never downloaded)
//   VSCODE_REAL_TIMEOUT  seconds for the whole test (default 300); then
//              code-server and Chromium are ended and every group not yet
//              passed counts as failed
//   VSCODE_REAL_KEEP  set: keep the temporary directory (workspace, user data)
//   TOFU_LENS_PROVIDER_PLUGINS  the plugin directory with hashicorp/time
//              0.14.2 (CI builds it, `.ci/run`); unset: the schema groups
//              (k, o) are skipped, saying so, as the Rust tests do
//   TOFU_LENS_TEST_REGISTRY  tofu-fetch's test registry program (default
//              target/debug/examples/test_registry, which cargo test builds),
//              for the fetch group (o)
//
// Last line: `vscode-real: N passed, N failed`, one per assertion group.

'use strict';

const assert = require('node:assert/strict');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { chromium } = require('playwright-core');

const root = path.resolve(__dirname, '../../../..');
const { hostTarget, vsixName } = require('../../scripts/target.js');
const vsix = path.resolve(root, process.env.VSIX || `editors/vscode/${vsixName(hostTarget())}`);
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';
const shots = path.join(root, 'target/editors/vscode-real');
const codeServer = path.join(__dirname, 'node_modules/.bin/code-server');
const overallTimeoutMs = Number(process.env.VSCODE_REAL_TIMEOUT || 300) * 1000;

const groups = [
  ['f', 'main.tf is OpenTofu in the status bar and coloured by the grammar: a keyword and a string differ'],
  ['a', 'the Problems panel lists the errors with their codes; squiggles in override.tf'],
  ['g', 'the server VS Code runs is the binary inside the installed .vsix (no serverPath, none on PATH)'],
  ['b', 'hovering the aws_instance.web header in main.tf shows the effective block'],
  ['c', 'F12 on the override block header in override.tf opens main.tf'],
  ['j', "F12 on an argument of a module block opens the called module's variable"],
  ['d', 'the quick fix on override-depends-on removes depends_on from override.tf'],
  ['e', 'an inlay hint in main.tf shows the value override.tf sets'],
  ['h', 'format on save: over-indented main.tf is saved as tofu fmt writes it'],
  ['i', 'a .tf file changed to Plain Text with Change Language Mode stays Plain Text'],
  ['k', "the time provider's schema in rotation.tf: hover, Unsupported argument with \"Did you mean\", completion"],
  ['l', 'plan-time: a value in terraform.tfvars fails a validation (squiggle and its hover), and hover shows the value'],
  ['m', 'F2 renames a resource and writes its moved block; the saved module passes tofu-lens check'],
  ['n', 'Ctrl+. extracts a resource into modules/web (files created by VS Code); the saved module passes tofu-lens check'],
  ['o', 'with tofuLens.schemas.fetchProviders on, a module with nothing installed gets its provider fetched: hover says so, completion from its schema'],
];
const results = new Map();

let work;
/** Why the schema group (k) cannot run: TOFU_LENS_PROVIDER_PLUGINS is not set. */
let timeProviderMissing;
/** The test registry of group (o) (editors/test/fetch_registry.py), or why it is not there. */
let fetchRegistry;
let fetchRegistryMissing;
let codeServerProcess;
let context;
let finished = false;

function log(message) {
  process.stdout.write(`${message}\n`);
}

async function cleanup() {
  if (context) {
    const closing = context.close().catch(() => {});
    await Promise.race([closing, sleep(10_000)]);
    context = undefined;
  }
  if (codeServerProcess && codeServerProcess.exitCode === null && codeServerProcess.signalCode === null) {
    // code-server runs in its own process group with the extension host and
    // tofu-lens under it: end the whole group.
    const group = -codeServerProcess.pid;
    try {
      process.kill(group, 'SIGTERM');
    } catch {}
    const exited = new Promise((resolve) => codeServerProcess.once('exit', resolve));
    await Promise.race([exited, sleep(5_000)]);
    try {
      process.kill(group, 'SIGKILL');
    } catch {}
  }
  codeServerProcess = undefined;
  if (fetchRegistry) {
    try {
      process.kill(fetchRegistry.pid, 'SIGTERM');
    } catch {}
    fetchRegistry = undefined;
  }
  if (work && !process.env.VSCODE_REAL_KEEP) {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function finish(exitCode) {
  if (finished) return;
  finished = true;
  clearTimeout(hardTimeout);
  await cleanup();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const [id] of groups) {
    if (results.get(id) === true) passed += 1;
    else if (results.get(id) === 'skipped') skipped += 1;
    else failed += 1;
  }
  if (skipped > 0) log(`vscode-real: ${skipped} skipped`);
  log(`vscode-real: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || exitCode !== 0 ? 1 : 0);
}

const hardTimeout = setTimeout(() => {
  log(`not ok - the whole test took longer than ${overallTimeoutMs / 1000}s; stopping`);
  finish(1);
}, overallTimeoutMs);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`not ok - interrupted by ${signal}`);
    finish(1);
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function httpOk(url) {
  return new Promise((resolve) => {
    const request = http.get(url, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.setTimeout(2_000, () => {
      request.destroy();
      resolve(false);
    });
  });
}

/** Polls `probe` until it returns a truthy value; throws with `what` and the last value. */
async function until(what, probe, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    }
    await sleep(250);
  }
}

// Everything that follows reads the workbench the way it is drawn.

/** The editor of the active editor group (not a hover's or a peek's). */
const activeEditor = '.editor-group-container.active .editor-container .monaco-editor';

/** The visible lines of the active editor, top to bottom, as drawn (inlay hints included). */
function editorLines(page) {
  return page.evaluate((selector) => {
    const editor = document.querySelector(selector);
    if (!editor) return [];
    const lines = [...editor.querySelectorAll('.view-lines > .view-line')];
    return lines
      .map((line) => ({ top: parseFloat(line.style.top), text: line.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top);
  }, activeEditor);
}

/** The `data-resource-name` of the active tab. */
function activeTab(page) {
  return page.evaluate(() => {
    const tab = document.querySelector('.editor-group-container.active .tabs-container .tab.active');
    return tab ? tab.getAttribute('data-resource-name') || tab.getAttribute('aria-label') : null;
  });
}

/**
 * Opens a file of the workspace with Quick Open (Ctrl+P), as a person would;
 * `dir` (relative to the workspace) picks one of several files of that name.
 */
async function openFile(page, name, dir) {
  const query = dir ? `${dir}/${name}` : name;
  // Quick Open searches the files anew each time it opens; on a busy
  // machine a file written a moment ago can be missing from the first
  // search, so a person would close it and type again: so do we, twice.
  const input = page.locator('.quick-input-widget .quick-input-box input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    await input.waitFor({ state: 'visible' });
    await input.fill(query);
    try {
      await until(
        `"${query}" in Quick Open`,
        () =>
          page.evaluate(
            ([wanted, folder]) => {
              const row = document.querySelector('.quick-input-widget .monaco-list-row.focused');
              return row && row.textContent.includes(wanted) && (!folder || row.textContent.includes(folder));
            },
            [name, dir],
          ),
        attempt < 3 ? 10_000 : 20_000,
      );
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
      await sleep(1_000);
    }
  }
  await page.keyboard.press('Enter');
  await until(`the ${name} tab`, async () => (await activeTab(page)) === name);
  await until(`the text of ${name}`, async () => (await editorLines(page)).length > 0);
}

/** Ctrl+G `line:column` in the active editor. */
async function goToLine(page, line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await until(`the cursor at Ln ${line}, Col ${column}`, () => statusBarCursor(page).then((s) => s === `Ln ${line}, Col ${column}`));
}

function statusBarCursor(page) {
  return page.evaluate(() => {
    const item = document.querySelector('#status\\.editor\\.selection');
    return item ? item.textContent.trim() : null;
  });
}

/** The text of the Problems panel's rows (the tree is virtual: the rows drawn). */
function problemRows(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((row) =>
      row.textContent.replace(/\u00a0/g, ' '),
    ),
  );
}

/**
 * The codes of the tofu-lens problems the Problems panel lists (drawn as
 * `tofu-lens(<code>)`: source and code are elements of their own, the
 * parentheses come from the stylesheet).
 */
function problemCodes(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.markers-panel .monaco-list-row .marker-message-details-container')]
      .filter((row) => row.querySelector('.marker-source')?.textContent === 'tofu-lens')
      .map((row) => row.querySelector('.marker-code')?.textContent)
      .sort(),
  );
}

/** The Problems badge of the panel's title bar: the number of problems. */
function problemsBadge(page) {
  return page.evaluate(() => {
    for (const item of document.querySelectorAll('.part.panel .composite-bar .action-item')) {
      const label = item.querySelector('.action-label');
      if (label && /Problems/.test(label.getAttribute('aria-label') || label.textContent)) {
        const badge = item.querySelector('.badge-content');
        return badge ? badge.textContent.trim() : '';
      }
    }
    return null;
  });
}

/** Client coordinates of the middle of `needle` in the drawn line that contains it. */
async function pointOf(page, needle) {
  const point = await page.evaluate(
    ({ selector, needle }) => {
      const editor = document.querySelector(selector);
      for (const line of editor.querySelectorAll('.view-lines > .view-line')) {
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.data.replace(/\u00a0/g, ' ').indexOf(needle);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + needle.length);
          const rect = range.getBoundingClientRect();
          return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
        }
      }
      return null;
    },
    { selector: activeEditor, needle },
  );
  assert.ok(point, `"${needle}" is not drawn in the active editor`);
  return point;
}

/** The language of the active editor, as the status bar names it ("Plain Text", "OpenTofu"). */
function statusBarLanguage(page) {
  return page.evaluate(() => {
    const item = document.querySelector('#status\\.editor\\.mode');
    return item ? item.textContent.trim() : null;
  });
}

/**
 * The tokens drawn inside `where` (a locator: an editor, a hover): for each needle, the class and colour of the innermost span
 * whose text contains it; and every `mtk*` class drawn. Monaco draws each
 * token as a span with the class `mtkN` of its colour (N indexes the theme's
 * colour map), merging neighbours of one colour.
 */
function drawnTokens(where, needles) {
  return where.evaluate(
    (root, needles) => {
      const spans = [...root.querySelectorAll('span')].filter((s) => s.children.length === 0 && /\bmtk\d+\b/.test(s.className));
      const text = (s) => s.textContent.replace(/\u00a0/g, ' ');
      const found = {};
      for (const needle of needles) {
        const span = spans.find((s) => text(s).includes(needle));
        found[needle] = span ? { text: text(span), className: span.className, color: getComputedStyle(span).color } : null;
      }
      return { tokens: found, classes: [...new Set(spans.map((s) => s.className.match(/\bmtk\d+\b/)[0]))].sort() };
    },
    needles,
  );
}

/** PATH without the directories that hold a tofu-lens. */
function pathWithoutTofuLens(value) {
  return value
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, 'tofu-lens')))
    .join(path.delimiter);
}

/** The running processes whose executable is named tofu-lens: pid, parent, executable, arguments. */
function tofuLensProcesses() {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const exe = fs.readlinkSync(`/proc/${pid}/exe`);
      if (path.basename(exe) !== 'tofu-lens') continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      found.push({ pid: Number(pid), exe, args });
    } catch {}
  }
  return found;
}

/** True when `pid` descends from `ancestor` (through /proc/PID/stat's parent ids). */
function descendsFrom(pid, ancestor) {
  for (let current = pid; current > 1; ) {
    if (current === ancestor) return true;
    try {
      const stat = fs.readFileSync(`/proc/${current}/stat`, 'utf8');
      current = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}

/** Every file under `dir` whose name matches `pattern`. */
function findFiles(dir, pattern, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) findFiles(file, pattern, out);
    else if (pattern.test(entry.name)) out.push(file);
  }
  return out;
}

/**
 * Rests the mouse on `needle` in the active editor until a hover containing
 * `hasText` is drawn, fully faded in; returns its locator. If none comes,
 * moves off and back, as a person would (`attempts` times). The needle is
 * looked up again each time: a code lens drawn above a block once the server
 * answers moves the line down.
 */
async function hoverOver(page, needle, hasText, attempts = 3) {
  const hover = page.locator('.monaco-hover:visible', { hasText }).first();
  for (let attempt = 1; ; attempt += 1) {
    await page.mouse.move(10, 10);
    const point = await pointOf(page, needle);
    await page.mouse.move(point.x, point.y, { steps: 4 });
    try {
      await hover.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt === attempts) throw error;
      log(`#   no hover with ${JSON.stringify(hasText)} after 10s (attempt ${attempt}); moving the mouse again`);
    }
  }
  // Let the fade-in finish so that the screenshot shows the hover opaque.
  await until('the hover to finish fading in', () =>
    hover.evaluate((element) => element.getAnimations({ subtree: true }).every((a) => a.playState === 'finished')),
  );
  return hover;
}

/** A screenshot of the page, or of the rectangle `clip` of it. */
async function screenshot(page, name, clip) {
  const file = path.join(shots, name);
  await page.screenshot({ path: file, clip });
  log(`# screenshot ${path.relative(root, file)}`);
}

/** The top left `width` × `height` pixels of the active editor group: the code and what is drawn over it. */
async function activeEditorTopLeft(page, width, height) {
  const box = await page.locator('.editor-group-container.active').boundingBox();
  return { x: box.x, y: box.y, width: Math.min(width, box.width), height: Math.min(height, box.height) };
}

/** What a group's body returns when it cannot run here: the TAP `# SKIP` reason. */
function skip(reason) {
  return { skipped: reason };
}

async function group(id, page, body) {
  const [, title] = groups.find(([g]) => g === id);
  if (finished) return;
  try {
    const outcome = await body();
    if (finished) return;
    if (outcome && outcome.skipped) {
      results.set(id, 'skipped');
      log(`ok - ${id}) ${title} # SKIP ${outcome.skipped}`);
      return;
    }
    results.set(id, true);
    log(`ok - ${id}) ${title}`);
  } catch (error) {
    // After the overall timeout the page is gone: finish() reports the rest.
    if (finished) return;
    results.set(id, false);
    log(`not ok - ${id}) ${title}`);
    for (const line of String(error && error.stack ? error.stack : error).split('\n')) log(`#   ${line}`);
    try {
      await page.keyboard.press('Escape');
      await screenshot(page, `failed-${id}.png`);
    } catch {}
  }
}

async function main() {
  for (const [file, what] of [
    [vsix, 'the .vsix (VSIX; npm run package -- --server ../../target/release/tofu-lens in editors/vscode)'],
    [browserPath, 'Chromium (apt-get install chromium)'],
    [codeServer, 'code-server (npm ci in editors/vscode/test/real)'],
  ]) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: ${what}`);
  }
  fs.mkdirSync(shots, { recursive: true });
  for (const old of fs.readdirSync(shots)) if (old.endsWith('.png')) fs.rmSync(path.join(shots, old));

  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tofu-lens-vscode-real-'));
  const workspace = path.join(work, 'overrides');
  fs.cpSync(path.join(root, 'examples/overrides'), workspace, { recursive: true });
  // A call of a local module, for F12 across the module boundary (j).
  fs.mkdirSync(path.join(workspace, 'modules/net'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'modules/net/inputs.tf'),
    'variable "cidr" {\n  type = string\n}\n\noutput "cidr" {\n  value = var.cidr\n}\n',
  );
  fs.writeFileSync(
    path.join(workspace, 'calls.tf'),
    'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n',
  );
  // renamed/web.tf, renamed with F2 in (m). Written before VS Code starts,
  // so Quick Open finds it however slow the machine; it has no problems,
  // so the groups that count them are not affected.
  fs.mkdirSync(path.join(workspace, 'renamed'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'renamed/web.tf'),
    'resource "terraform_data" "web" {\n  input = "web"\n}\n\noutput "id" {\n  value = terraform_data.web.id\n}\n',
  );
  // extract/main.tf, whose terraform_data.web is extracted into a module in
  // (n); also written before VS Code starts, and also without problems.
  fs.mkdirSync(path.join(workspace, 'extract'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'extract/main.tf'),
    'resource "terraform_data" "base" {\n  input = "base"\n}\n\nresource "terraform_data" "web" {\n' +
      '  input = terraform_data.base.output\n}\n\noutput "web" {\n  value = terraform_data.web.id\n}\n',
  );
  // A root where `tofu init` installed the real hashicorp/time provider
  // (k), laid out by the helper the three editors' tests share.
  const laidOut = spawnSync('python3', [path.join(root, 'editors/test/time_provider_root.py'), path.join(workspace, 'schedule')], {
    encoding: 'utf8',
  });
  if (laidOut.status === 77) timeProviderMissing = laidOut.stderr.trim();
  else if (laidOut.status !== 0) throw new Error(`editors/test/time_provider_root.py failed (${laidOut.status}):\n${laidOut.stderr}`);
  // The test registry group (o) fetches from, outside the workspace; the
  // server finds it through the CLI configuration code-server's
  // environment names.
  const started = spawnSync('python3', [path.join(root, 'editors/test/fetch_registry.py'), path.join(work, 'fetch')], {
    encoding: 'utf8',
  });
  if (started.status === 77) fetchRegistryMissing = started.stderr.trim();
  else if (started.status !== 0) throw new Error(`editors/test/fetch_registry.py failed (${started.status}):\n${started.stderr}`);
  else fetchRegistry = JSON.parse(started.stdout);
  const home = path.join(work, 'home');
  const userData = path.join(work, 'user-data');
  const extensions = path.join(work, 'extensions');
  for (const dir of [home, path.join(userData, 'User'), extensions]) fs.mkdirSync(dir, { recursive: true });
  // code-server, VS Code and the login shell VS Code resolves its environment
  // from keep everything under the temporary directory. No tofu-lens on PATH:
  // the installed extension must bring its own.
  const env = {
    ...process.env,
    PATH: pathWithoutTofuLens(process.env.PATH || ''),
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    ...(fetchRegistry
      ? { TF_CLI_CONFIG_FILE: fetchRegistry.env.TF_CLI_CONFIG_FILE, SSL_CERT_FILE: fetchRegistry.env.SSL_CERT_FILE }
      : {}),
  };
  for (const shell of [['sh', '-c'], ['bash', '-lc']]) {
    const which = spawnSync(shell[0], [...shell.slice(1), 'command -v tofu-lens'], { env, encoding: 'utf8' });
    assert.notEqual(which.status, 0, `${shell.join(' ')} finds tofu-lens on PATH: ${which.stdout}`);
  }
  log(`# PATH without tofu-lens: ${env.PATH}`);
  const port = await freePort();
  const config = path.join(work, 'code-server.yaml');
  fs.writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];

  const install = spawnSync(codeServer, [...common, '--install-extension', vsix], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const installed = `${install.stdout}${install.stderr}`;
  if (install.status !== 0 || !/successfully installed/i.test(installed)) {
    throw new Error(`code-server --install-extension failed (${install.status}):\n${installed}`);
  }
  log(`# ${installed.trim().split('\n').filter((l) => /install/i.test(l)).pop()}`);

  const userSettings = path.join(userData, 'User/settings.json');
  fs.writeFileSync(
    userSettings,
    JSON.stringify(
      {
        // No tofuLens.serverPath: the binary in the .vsix.
        // Fetching is on in (o) only: the groups before count problems.
        'tofuLens.schemas.fetchProviders': false,
        '[opentofu]': { 'editor.formatOnSave': true },
        'editor.inlayHints.enabled': 'on',
        'editor.hover.delay': 300,
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'security.workspace.trust.enabled': false,
        'extensions.ignoreRecommendations': true,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'chat.commandCenter.enabled': false,
        'window.restoreWindows': 'none',
        'files.refactoring.autoSave': true,
      },
      null,
      2,
    ),
  );

  let serverLog = '';
  codeServerProcess = spawn(
    codeServer,
    [
      ...common,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      workspace,
    ],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  for (const stream of [codeServerProcess.stdout, codeServerProcess.stderr]) {
    stream.on('data', (chunk) => (serverLog += chunk));
  }
  const base = `http://127.0.0.1:${port}`;
  await until('code-server to answer /healthz', async () => {
    if (codeServerProcess.exitCode !== null) throw new Error(`code-server exited:\n${serverLog}`);
    return httpOk(`${base}/healthz`);
  }, 60_000);
  log(`# code-server 4.100.3 on ${base}, workspace ${workspace}`);

  context = await chromium.launchPersistentContext(path.join(work, 'chromium-profile'), {
    executablePath: browserPath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // No name resolves: nothing but 127.0.0.1 is reachable.
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
    viewport: { width: 1600, height: 1000 },
    deviceScaleFactor: 1,
  });
  log(`# Chromium ${context.browser() ? context.browser().version() : ''}`.trim());
  const page = context.pages()[0] || (await context.newPage());
  page.setDefaultTimeout(30_000);
  await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60_000 });

  // f) Colours: main.tf is OpenTofu (a .tf file no other extension claims is
  // switched from Plain Text) and the grammar colours it.
  await group('f', page, async () => {
    await openFile(page, 'main.tf');
    const language = await until('the status bar to name the language OpenTofu', async () => {
      const name = await statusBarLanguage(page);
      return name === 'OpenTofu' ? name : null;
    }, 30_000).catch(async (error) => {
      throw new Error(`${error.message}; the status bar says ${JSON.stringify(await statusBarLanguage(page))}`);
    });
    assert.notEqual(language, 'Plain Text');
    const needles = ['resource', 'ami-0abcdef1234567890', 'instance_type', 'var', '10'];
    const drawn = await until('main.tf drawn in the grammar\'s colours', async () => {
      const result = await drawnTokens(page.locator(activeEditor).first(), needles);
      const { resource, 'ami-0abcdef1234567890': string } = (result && result.tokens) || {};
      return resource && string && resource.className !== string.className ? result : null;
    }, 30_000).catch(async (error) => {
      throw new Error(`${error.message}: ${JSON.stringify(await drawnTokens(page.locator(activeEditor).first(), needles))}`);
    });
    const keyword = drawn.tokens.resource;
    const string = drawn.tokens['ami-0abcdef1234567890'];
    assert.equal(keyword.text, 'resource', `the block type is a token of its own: ${JSON.stringify(keyword)}`);
    assert.notEqual(keyword.color, string.color, `the keyword and the string have one colour: ${JSON.stringify(drawn)}`);
    assert.ok(drawn.classes.length >= 5, `main.tf is drawn in ${drawn.classes.length} colours: ${drawn.classes}`);
    log(`#   status bar language: ${language}`);
    log(`#   keyword ${JSON.stringify(keyword)}, string ${JSON.stringify(string)}`);
    log(`#   other tokens: ${JSON.stringify(needles.slice(2).map((n) => drawn.tokens[n]))}`);
    log(`#   token classes drawn: ${drawn.classes.join(' ')}`);
    await screenshot(page, '0-colours-main-tf.png');
  });

  // a) Problems panel and squiggles.
  await group('a', page, async () => {
    await openFile(page, 'override.tf');
    await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').waitFor({ state: 'visible' });
    const expected = ['duplicate-block', 'duplicate-local', 'override-depends-on', 'override-missing-base'];
    await until(
      `the Problems panel to list ${expected.join(', ')}`,
      async () => JSON.stringify(await problemCodes(page)) === JSON.stringify(expected),
      90_000,
    );
    const rows = await problemRows(page);
    for (const [file, text] of [
      ['dev_override.tf', 'Missing base output definition to override'],
      ['network.tf', 'Duplicate resource "aws_security_group" configuration'],
      ['override.tf', 'Unsupported override'],
    ]) {
      assert.ok(rows.some((r) => r.startsWith(file)), `no ${file} row in the Problems panel:\n${rows.join('\n')}`);
      assert.ok(rows.some((r) => r.includes(text)), `no "${text}" in the Problems panel:\n${rows.join('\n')}`);
    }
    assert.equal(await problemsBadge(page), '4', 'the Problems badge counts the 4 errors');
    // The squiggle is drawn under `depends_on`'s value, on line 11 of override.tf.
    const squiggle = await until('a .squiggly-error in override.tf', () =>
      page.evaluate((selector) => {
        const editor = document.querySelector(selector);
        const squiggles = [...editor.querySelectorAll('.view-overlays .squiggly-error')];
        const line = [...editor.querySelectorAll('.view-lines > .view-line')].find((l) =>
          l.textContent.replace(/\u00a0/g, ' ').includes('depends_on = ['),
        );
        if (!line || squiggles.length === 0) return null;
        const lineRect = line.getBoundingClientRect();
        const onLine = squiggles.filter((s) => {
          const r = s.getBoundingClientRect();
          return r.width > 0 && Math.abs(r.top - lineRect.top) < 2;
        });
        return { count: squiggles.length, onDependsOn: onLine.length };
      }, activeEditor),
    );
    assert.ok(squiggle.onDependsOn >= 1, `no squiggle on the depends_on line: ${JSON.stringify(squiggle)}`);
    for (const row of rows) log(`#   problems: ${row}`);
    await screenshot(page, '1-problems-and-squiggles.png');
  });

  // g) The diagnostics above came from the binary inside the installed
  // extension: with no tofuLens.serverPath and no tofu-lens on PATH, that is
  // the only one there is; check that VS Code runs it, and nothing else.
  await group('g', page, async () => {
    const installedServer = path.join(extensions, fs.readdirSync(extensions).find((d) => d.startsWith('tofu-lens.')), 'server/tofu-lens');
    assert.ok(fs.existsSync(installedServer), `${installedServer} is missing`);
    assert.ok((fs.statSync(installedServer).mode & 0o111) !== 0, 'the installed binary is executable');
    const ours = await until('the tofu-lens started by VS Code', () => {
      const running = tofuLensProcesses().filter((p) => descendsFrom(p.pid, codeServerProcess.pid));
      return running.length > 0 ? running : null;
    });
    for (const server of ours) {
      assert.equal(server.exe, installedServer, `VS Code runs ${server.exe}, not the installed extension's binary`);
      assert.deepEqual(server.args.slice(1), ['serve', '--stdio']);
    }
    const logs = findFiles(path.join(userData, 'logs'), /tofu-lens\.log$/);
    const started = logs
      .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n'))
      .find((line) => line.includes('starting '));
    assert.ok(started && started.includes(`starting ${installedServer} serve --stdio (bundled with the extension)`), `the extension's log says: ${started}`);
    log(`#   server process: ${ours.map((p) => `${p.pid} ${p.exe} ${p.args.slice(1).join(' ')}`).join('; ')}`);
    log(`#   extension log: ${started.replace(/^.*?\[info\] /, '')}`);
  });

  // b) Hover on the block header in main.tf.
  await group('b', page, async () => {
    await openFile(page, 'main.tf');
    const hover = await hoverOver(page, 'aws_instance', 'override.tf');
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    for (const expected of [
      'resource "aws_instance" "web"',
      'instance_type = "t3.large"',
      '# override.tf:3',
      '# override.tf:6',
      'device_name = "/dev/sdc"',
      'Declared in main.tf:1',
    ]) {
      assert.ok(text.includes(expected), `the hover lacks ${JSON.stringify(expected)}:\n${text}`);
    }
    for (const line of text.split('\n')) log(`#   hover: ${line}`);
    // The fenced ```hcl block is coloured: VS Code tokenizes it with the
    // language whose id or alias is hcl, the extension's opentofu.
    const hoverTokens = await drawnTokens(hover, ['resource', 't3.large']);
    assert.ok(hoverTokens, 'the hover has contents');
    const { resource: hoverKeyword, 't3.large': hoverString } = hoverTokens.tokens;
    assert.ok(hoverKeyword && hoverString, `no tokens in the hover: ${JSON.stringify(hoverTokens)}`);
    assert.notEqual(hoverKeyword.color, hoverString.color, `the hover's code is one colour: ${JSON.stringify(hoverTokens)}`);
    assert.ok(hoverTokens.classes.length >= 4, `the hover's code has ${hoverTokens.classes.length} colours`);
    log(`#   hover colours: keyword ${JSON.stringify(hoverKeyword)}, string ${JSON.stringify(hoverString)}, classes ${hoverTokens.classes.join(' ')}`);
    await screenshot(page, '2-hover-effective-block.png');
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
  });

  // e) Inlay hint in main.tf, after the attribute override.tf replaces.
  await group('e', page, async () => {
    if ((await activeTab(page)) !== 'main.tf') await openFile(page, 'main.tf');
    const hint = await until('an inlay hint after instance_type in main.tf', () =>
      page.evaluate((selector) => {
        const editor = document.querySelector(selector);
        const line = [...editor.querySelectorAll('.view-lines > .view-line')].find((l) =>
          l.textContent.replace(/\u00a0/g, ' ').includes('instance_type = var.instance_type'),
        );
        if (!line || !line.textContent.includes('⟵')) return null;
        // The hint is injected text: spans of its own after the file's text,
        // styled by the inlay hint's CSS rule.
        const spans = [...line.querySelectorAll('span')].filter(
          (s) => s.children.length === 0 && /\S/.test(s.textContent) && !/instance_type|var\./.test(s.textContent),
        );
        const code = [...line.querySelectorAll('span')].find((s) => s.textContent.includes('instance_type'));
        return {
          line: line.textContent.replace(/\u00a0/g, ' '),
          codeColor: getComputedStyle(code).color,
          spans: spans.map((s) => ({
            text: s.textContent.replace(/\u00a0/g, ' '),
            className: s.className,
            color: getComputedStyle(s).color,
          })),
        };
      }, activeEditor),
    );
    assert.match(hint.line, /instance_type = var\.instance_type\s*⟵ "t3\.large" \(?override\.tf:3\)?/);
    const hintSpans = hint.spans.filter((s) => /⟵|t3\.large|override\.tf/.test(s.text));
    assert.ok(hintSpans.length > 0, `no span for the hint: ${JSON.stringify(hint)}`);
    for (const span of hintSpans) {
      // Monaco draws an inlay hint as injected text styled by a generated
      // rule (`dyn-rule-*`; no class name says "inlay"), in the inlay hint
      // colour rather than the text's.
      assert.match(span.className, /dyn-rule-/, `the hint span is not an inlay decoration: ${JSON.stringify(span)}`);
      assert.notEqual(span.color, hint.codeColor, `the hint is drawn like the file's text: ${JSON.stringify(hint)}`);
    }
    // Not part of the file: the model's text has no hint.
    assert.ok(!fs.readFileSync(path.join(workspace, 'main.tf'), 'utf8').includes('⟵'));
    log(`#   inlay hint: ${hint.line.trim()}`);
    log(`#   hint spans: ${JSON.stringify(hintSpans)}, text colour ${hint.codeColor}`);
    await screenshot(page, '3-inlay-hint.png');
  });

  // c) F12 from the override block header in override.tf.
  await group('c', page, async () => {
    await openFile(page, 'override.tf');
    await goToLine(page, 2, 12);
    await page.keyboard.press('F12');
    await until('main.tf to become the active tab', async () => (await activeTab(page)) === 'main.tf');
    await until('the cursor on main.tf line 1', async () => /^Ln 1, Col \d+/.test((await statusBarCursor(page)) || ''));
    const title = await page.evaluate(() => document.title);
    assert.match(title, /^main\.tf\b/, `window title: ${title}`);
    const lines = await editorLines(page);
    assert.ok(lines.some((l) => l.text.startsWith('resource "aws_instance" "web"')), 'main.tf is shown');
    log(`#   after F12: tab main.tf, ${await statusBarCursor(page)}, title "${title}"`);
    await screenshot(page, '4-definition-main-tf.png');
  });

  // j) F12 from the argument `cidr` of module "net" in calls.tf: the
  // variable it sets, in the called module.
  await group('j', page, async () => {
    await openFile(page, 'calls.tf');
    await goToLine(page, 3, 4);
    await page.keyboard.press('F12');
    await until('inputs.tf of modules/net to become the active tab', async () => (await activeTab(page)) === 'inputs.tf');
    await until('the cursor on inputs.tf line 1', async () => /^Ln 1, Col \d+/.test((await statusBarCursor(page)) || ''));
    const lines = await editorLines(page);
    assert.ok(lines.some((l) => l.text.startsWith('variable "cidr"')), 'the variable is shown');
    log(`#   after F12: tab inputs.tf, ${await statusBarCursor(page)}`);
    await screenshot(page, '4b-definition-into-module.png');
  });

  // d) Quick fix (Ctrl+.) on override-depends-on in override.tf.
  await group('d', page, async () => {
    await openFile(page, 'override.tf');
    await goToLine(page, 11, 17);
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row.action', { hasText: 'Remove depends_on from the override' });
    await fix.first().waitFor({ state: 'visible' });
    // The fix is the focused entry of the Quick Fix menu; Enter applies it, as
    // the menu's tooltip says (a click lands on the menu's pointer block in
    // Playwright's hit test).
    const focused = await page.locator('.action-widget .monaco-list-row.action.focused').innerText();
    assert.equal(focused.trim(), 'Remove depends_on from the override');
    await screenshot(page, '5-quick-fix-menu.png');
    await page.keyboard.press('Enter');
    await until('the depends_on line to disappear from the override.tf editor', async () => {
      const lines = await editorLines(page);
      return lines.length > 0 && !lines.some((l) => l.text.includes('depends_on = ['));
    });
    // VS Code saves the files a code action's edit changed
    // (files.refactoring.autoSave): override.tf on disk lost exactly that line.
    const original = fs.readFileSync(path.join(root, 'examples/overrides/override.tf'), 'utf8');
    const expectedText = original.replace('  depends_on = [aws_security_group.web]\n', '');
    assert.notEqual(expectedText, original);
    await until('override.tf saved without depends_on', () =>
      fs.readFileSync(path.join(workspace, 'override.tf'), 'utf8') === expectedText,
    );
    await until(
      'override-depends-on to leave the Problems panel',
      async () =>
        JSON.stringify(await problemCodes(page)) ===
        JSON.stringify(['duplicate-block', 'duplicate-local', 'override-missing-base']),
      30_000,
    );
    assert.equal(await problemsBadge(page), '3', 'the Problems badge counts 3 errors');
    const lines = (await editorLines(page)).map((l) => l.text);
    for (const line of lines) log(`#   override.tf: ${line}`);
    await screenshot(page, '6-quick-fix-applied.png');
  });

  // h) Format on save ("[opentofu]": {"editor.formatOnSave": true}): line 3
  // of main.tf indented by four more spaces, then Ctrl+S; tofu-lens answers
  // textDocument/formatting and the file is saved as tofu fmt writes it.
  await group('h', page, async () => {
    await openFile(page, 'main.tf');
    const original = fs.readFileSync(path.join(workspace, 'main.tf'), 'utf8');
    const line3 = original.split('\n')[2];
    assert.equal(line3, '  instance_type = var.instance_type');
    await goToLine(page, 3, 1);
    await page.keyboard.type('    ');
    await until('the edit in the editor', async () =>
      (await editorLines(page)).some((l) => l.text.startsWith(`    ${line3}`)),
    );
    await screenshot(page, '7-before-format-on-save.png');
    await page.keyboard.press('Control+S');
    await until('main.tf saved, formatted', () => fs.readFileSync(path.join(workspace, 'main.tf'), 'utf8') === original, 30_000)
      .catch((error) => {
        throw new Error(`${error.message}; on disk:\n${fs.readFileSync(path.join(workspace, 'main.tf'), 'utf8')}`);
      });
    await until('the editor to show the formatted line', async () =>
      (await editorLines(page)).some((l) => l.text.startsWith(line3) && !l.text.startsWith(`  ${line3}`)),
    );
    const dirty = await page.evaluate(() => !!document.querySelector('.editor-group-container.active .tab.active.dirty'));
    assert.ok(!dirty, 'main.tf is saved');
    log(`#   saved line 3: ${JSON.stringify(fs.readFileSync(path.join(workspace, 'main.tf'), 'utf8').split('\n')[2])}`);
    await screenshot(page, '8-format-on-save.png');
  });

  // i) The extension switches .tf files that open as Plain Text to OpenTofu,
  // but not one whose language a person changed: Change Language Mode →
  // Plain Text on variables.tf stays Plain Text.
  await group('i', page, async () => {
    await openFile(page, 'variables.tf');
    await until('variables.tf as OpenTofu', async () => (await statusBarLanguage(page)) === 'OpenTofu');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>Change Language Mode');
    await until('the Change Language Mode command', () =>
      page.evaluate(() => {
        const row = document.querySelector('.quick-input-widget .monaco-list-row.focused');
        return row && row.textContent.includes('Change Language Mode');
      }),
    );
    await page.keyboard.press('Enter');
    await until('the language picker', () =>
      page.evaluate(() => !!document.querySelector('.quick-input-widget .quick-input-box input[aria-label*="language" i], .quick-input-widget .quick-input-box input[placeholder*="Language" i]')),
    );
    await input.fill('Plain Text');
    await until('Plain Text in the language picker', () =>
      page.evaluate(() => {
        const row = document.querySelector('.quick-input-widget .monaco-list-row.focused');
        return row && /^Plain Text/.test(row.textContent.trim());
      }),
    );
    await page.keyboard.press('Enter');
    await until('the status bar to say Plain Text', async () => (await statusBarLanguage(page)) === 'Plain Text');
    // Long enough for the extension host to see the close and open that a
    // language change sends, and to switch the file back if it were to.
    await sleep(3_000);
    assert.equal(await statusBarLanguage(page), 'Plain Text', 'the extension switched the file back');
    await screenshot(page, '9-plain-text-kept.png');
  });

  // k) schedule/rotation.tf, in a root with the time provider installed: the
  // server ran it for its schema. Hover on rotation_days shows the schema's
  // description; rotation_dayz is an Unsupported argument with "Did you
  // mean" (recorded from OpenTofu 1.12.6 `tofu validate`: rotation.tf line
  // 11, column 3); `rot` and Ctrl+Space list rotation_days with its type,
  // and its description beside the list.
  await group('k', page, async () => {
    if (timeProviderMissing) return skip(timeProviderMissing);
    const description = 'Number of days to add to the base timestamp to configure the rotation timestamp.';
    await openFile(page, 'rotation.tf');
    // Until the schema is read, the hover shows the effective block: wait for the description.
    const hover = await hoverOver(page, 'rotation_days', description, 6);
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(text.startsWith('rotation_days number (optional)'), `the hover starts:\n${text}`);
    for (const line of text.split('\n')) log(`#   hover: ${line}`);
    await screenshot(page, '10-schema-hover.png');
    await screenshot(page, 'schema-hover.png', await activeEditorTopLeft(page, 960, 400));
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');

    await goToLine(page, 11, 16);
    await page.keyboard.press('Backspace');
    await page.keyboard.type('z');
    const didYouMean = 'An argument named "rotation_dayz" is not expected here. Did you mean "rotation_days"?';
    const rows = await until('Unsupported argument in the Problems panel', async () => {
      const drawn = await problemRows(page);
      return drawn.some((r) => r.includes('Unsupported argument') && r.includes(didYouMean)) ? drawn : null;
    }, 30_000).catch(async (error) => {
      throw new Error(`${error.message}; the rows:\n${(await problemRows(page)).join('\n')}`);
    });
    for (const row of rows.filter((r) => r.includes('rotation'))) log(`#   problems: ${row}`);
    assert.ok((await problemCodes(page)).includes('unsupported-argument'));

    await goToLine(page, 11, 3);
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('rot');
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.editor-widget.suggest-widget .monaco-list-row', { hasText: 'rotation_days' }).first();
    await suggestion.waitFor({ state: 'visible' });
    // The focused item's details beside the list: Ctrl+Space again (Read
    // More) if VS Code does not show them by itself.
    const details = page.locator('.suggest-details-container .suggest-details:visible');
    await details
      .first()
      .waitFor({ state: 'visible', timeout: 3_000 })
      .catch(() => page.keyboard.press('Control+Space'));
    await until('the description beside the completion list', async () =>
      (await details.count()) > 0 && (await details.first().innerText()).includes(description),
    ).catch(async (error) => {
      await screenshot(page, 'failed-k-completion.png');
      const drawn = await page.locator('.editor-widget.suggest-widget').first().innerText().catch(() => '(no list)');
      throw new Error(`${error.message}; the list:\n${drawn}\ndetails shown: ${await details.count()}`);
    });
    const focused = (await page.locator('.editor-widget.suggest-widget .monaco-list-row.focused').innerText()).replace(/\u00a0/g, ' ');
    assert.match(focused, /^rotation_days\b/, `the focused suggestion: ${focused}`);
    const shown = (await details.first().innerText()).replace(/\u00a0/g, ' ');
    assert.match(shown, /^number, optional\n/, `the details lack the type: ${shown}`);
    log(`#   completion: ${focused.replace(/\n/g, ' | ')}`);
    for (const line of shown.split('\n')) log(`#   details: ${line}`);
    await screenshot(page, '11-schema-completion.png');
    // editors/vscode/images/schema-completion.png, in the README, is this one.
    await screenshot(page, 'schema-completion.png', await activeEditorTopLeft(page, 960, 400));
    await page.keyboard.press('Escape');
  });

  // l) planned/: a module directory whose terraform.tfvars gives
  // `replicas` 5, which fails its validation: plan's "Invalid value for
  // variable" (recorded from OpenTofu 1.12.6 `tofu plan`: replicas.tf line
  // 5) squiggled and in its hover, and hover on `var.replicas` shows the value
  // and the file that set it. Written now, so the groups before count
  // their problems without it.
  await group('l', page, async () => {
    const planned = path.join(work, 'overrides/planned');
    fs.mkdirSync(planned, { recursive: true });
    fs.writeFileSync(
      path.join(planned, 'replicas.tf'),
      'output "n" {\n  value = var.replicas\n}\n\nvariable "replicas" {\n  type = number\n  validation {\n' +
        '    condition     = var.replicas <= 3\n    error_message = "At most three replicas."\n  }\n}\n',
    );
    fs.writeFileSync(path.join(planned, 'terraform.tfvars'), 'replicas = 5\n');
    await openFile(page, 'replicas.tf');
    // The squiggle under the header of `variable "replicas"`, and the
    // problem in the hover over it (the Problems panel lists the whole
    // workspace by now, more rows than it draws).
    await until('a .squiggly-error on the variable header in replicas.tf', () =>
      page.evaluate((selector) => {
        const editor = document.querySelector(selector);
        const line = [...editor.querySelectorAll('.view-lines > .view-line')].find((l) =>
          l.textContent.replace(/\u00a0/g, ' ').startsWith('variable "replicas"'),
        );
        if (!line) return null;
        const lineRect = line.getBoundingClientRect();
        return [...editor.querySelectorAll('.view-overlays .squiggly-error')].some((s) => {
          const r = s.getBoundingClientRect();
          return r.width > 0 && Math.abs(r.top - lineRect.top) < 2;
        }) || null;
      }, activeEditor),
    30_000);
    const problem = await hoverOver(page, 'variable', 'At most three replicas.', 6);
    const problemText = (await problem.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(problemText.includes('Invalid value for variable') && problemText.includes('plan-variable-validation'),
      `the hover over the header:\n${problemText}`);
    for (const line of problemText.split('\n').slice(0, 3)) log(`#   problem: ${line}`);
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    // The first `replicas` drawn is the one of `var.replicas` in the output.
    const hover = await hoverOver(page, 'replicas', 'terraform.tfvars', 6);
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(/set in terraform\.tfvars/.test(text) && /\n5\n?/.test(text), `the hover:\n${text}`);
    for (const line of text.split('\n')) log(`#   hover: ${line}`);
    await screenshot(page, '12-plan-time-value.png');
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
  });

  // m) Rename with F2 in renamed/web.tf: the edit (one WorkspaceEdit, applied
  // and saved by VS Code itself, files.refactoring.autoSave) renames the
  // resource and its use, and writes its moved block; then the installed
  // binary's `check` finds nothing in the saved directory.
  await group('m', page, async () => {
    const renamed = path.join(work, 'overrides/renamed');
    const web = path.join(renamed, 'web.tf');
    await openFile(page, 'web.tf');
    await goToLine(page, 1, 29);
    await page.keyboard.press('F2');
    const input = page.locator('.rename-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('app');
    await screenshot(page, '13-rename-box.png');
    await page.keyboard.press('Enter');
    const expected =
      'resource "terraform_data" "app" {\n  input = "web"\n}\n\nmoved {\n  from = terraform_data.web\n  to   = terraform_data.app\n}\n\noutput "id" {\n  value = terraform_data.app.id\n}\n';
    await until('the moved block in the editor', async () =>
      (await editorLines(page)).some((l) => l.text.includes('to   = terraform_data.app')),
    );
    await page.keyboard.press('Control+S');
    await until('web.tf saved with the rename and its moved block', () => fs.readFileSync(web, 'utf8') === expected);
    await screenshot(page, '14-renamed-with-moved.png');
    const installedServer = path.join(extensions, fs.readdirSync(extensions).find((d) => d.startsWith('tofu-lens.')), 'server/tofu-lens');
    const checked = spawnSync(installedServer, ['check', renamed], { encoding: 'utf8' });
    assert.equal(checked.status, 0, `tofu-lens check: ${checked.stdout}${checked.stderr}`);
    for (const line of fs.readFileSync(web, 'utf8').split('\n').slice(0, 8)) log(`#   web.tf: ${line}`);
  });

  // n) Ctrl+. on the header of terraform_data.web in extract/main.tf: the
  // Code Action menu lists the refactorings with the quick fixes; the
  // extraction's one WorkspaceEdit creates modules/web/*.tf (VS Code creates
  // the files) and puts a module block and moved block in place of the
  // resource. VS Code saves what a refactoring changed
  // (files.refactoring.autoSave); File: Save All covers the new files too.
  // Then the installed binary's `check` finds nothing in the directory.
  await group('n', page, async () => {
    const extract = path.join(work, 'overrides/extract');
    const wanted = 'Extract into module `modules/web`';
    await openFile(page, 'main.tf', 'extract');
    await goToLine(page, 5, 30);
    await page.keyboard.press('Control+.');
    const rows = page.locator('.action-widget .monaco-list-row.action');
    await rows.first().waitFor({ state: 'visible' });
    const titles = (await rows.allInnerTexts()).map((t) => t.trim());
    log(`#   actions: ${titles.join(' | ')}`);
    assert.ok(titles.includes(wanted), `the menu: ${titles.join(' | ')}`);
    // Down to the extraction, as a person does with the keyboard.
    await until(`"${wanted}" focused`, async () => {
      const focused = await page.locator('.action-widget .monaco-list-row.action.focused').innerText().catch(() => '');
      if (focused.trim() === wanted) return true;
      await page.keyboard.press('ArrowDown');
      return false;
    });
    await screenshot(page, '15-extract-menu.png');
    await page.keyboard.press('Enter');
    await until('the module block in the editor', async () =>
      (await editorLines(page)).some((l) => l.text.includes('module "web" {')),
    );
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill('>File: Save All');
    await until('the Save All command', () =>
      page.evaluate(() => {
        const row = document.querySelector('.quick-input-widget .monaco-list-row.focused');
        return row && row.textContent.includes('Save All');
      }),
    );
    await page.keyboard.press('Enter');
    const child = path.join(extract, 'modules/web/main.tf');
    await until('modules/web/main.tf saved with the resource', () => fs.existsSync(child) && fs.readFileSync(child, 'utf8').includes('input = var.base.output'));
    await until('main.tf saved with the module block', () => {
      const text = fs.readFileSync(path.join(extract, 'main.tf'), 'utf8');
      return text.includes('module "web" {') && text.includes('value = module.web.web.id') && text.includes('to   = module.web.terraform_data.web');
    });
    await screenshot(page, '16-extracted.png');
    const installedServer = path.join(extensions, fs.readdirSync(extensions).find((d) => d.startsWith('tofu-lens.')), 'server/tofu-lens');
    const checked = spawnSync(installedServer, ['check', extract], { encoding: 'utf8' });
    assert.equal(checked.status, 0, `tofu-lens check: ${checked.stdout}${checked.stderr}`);
    for (const file of fs.readdirSync(path.join(extract, 'modules/web')).sort()) log(`#   created modules/web/${file}`);
  });

  // o) fetched/: a module nothing was installed for. With
  // tofuLens.schemas.fetchProviders turned on in the workspace settings (the
  // workspace is trusted), the server fetches hashicorp/time from the test
  // registry (found through the CLI configuration in code-server's
  // environment), verifies it and reads its schema: hover says where the
  // schema came from, and completion offers rotation_days. Last, since
  // turning fetching on also tries the other modules' providers.
  await group('o', page, async () => {
    if (timeProviderMissing) return skip(timeProviderMissing);
    if (fetchRegistryMissing) return skip(fetchRegistryMissing);
    const fetched = path.join(work, 'overrides/fetched');
    fs.mkdirSync(fetched, { recursive: true });
    fs.copyFileSync(path.join(root, 'editors/test/schema-root/rotation.tf'), path.join(fetched, 'fetched.tf'));
    // Turned on in the workspace's settings (.vscode/settings.json), which
    // VS Code reads again when they change; the server pulls them.
    fs.mkdirSync(path.join(work, 'overrides/.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(work, 'overrides/.vscode/settings.json'),
      JSON.stringify({ 'tofuLens.schemas.fetchProviders': true }, null, 2),
    );
    await openFile(page, 'fetched.tf', 'fetched');
    const hover = await hoverOver(page, 'rotation_days', 'fetched and verified by tofu-lens', 10);
    const text = (await hover.innerText()).replace(/\u00a0/g, ' ');
    assert.ok(text.startsWith('rotation_days number (optional)'), `the hover starts:\n${text}`);
    for (const line of text.split('\n')) log(`#   hover: ${line}`);
    await screenshot(page, '17-fetched-hover.png');
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await goToLine(page, 11, 3);
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('rot');
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.editor-widget.suggest-widget .monaco-list-row', { hasText: 'rotation_days' }).first();
    await suggestion.waitFor({ state: 'visible' });
    log(`#   completion: ${(await suggestion.innerText()).replace(/\n/g, ' | ')}`);
    await screenshot(page, '18-fetched-completion.png');
    await page.keyboard.press('Escape');
    assert.ok(!fs.existsSync(path.join(fetched, '.terraform')), 'the module is never written to');
  });
}

main()
  .then(() => finish(0))
  .catch((error) => {
    if (finished) return;
    log(`not ok - setup: ${error && error.stack ? error.stack : error}`);
    finish(1);
  });
