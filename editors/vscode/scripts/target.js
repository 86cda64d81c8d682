// The VS Code platform target (`vsce package --target`) of this machine, and
// the name of the .vsix built for it.

'use strict';

const TARGETS = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'linux-arm': 'linux-armhf',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-x64',
  'win32-arm64': 'win32-arm64',
};

/** The target of `platform`/`arch` (Node's names), or undefined when VS Code has none. */
function hostTarget(platform = process.platform, arch = process.arch) {
  return TARGETS[`${platform}-${arch}`];
}

/** `tofu-lens.vsix` for the package without a binary, `tofu-lens-<target>.vsix` for a platform's. */
function vsixName(target) {
  return target === undefined ? 'tofu-lens.vsix' : `tofu-lens-${target}.vsix`;
}

/** The binary's place inside the extension (`server/tofu-lens`, `.exe` on Windows). */
function serverEntry(target) {
  return target !== undefined && target.startsWith('win32-') ? 'server/tofu-lens.exe' : 'server/tofu-lens';
}

module.exports = { hostTarget, vsixName, serverEntry };
