// Loads the extension's TextMate grammar with the engine VS Code itself uses
// (vscode-textmate and vscode-oniguruma, the versions VS Code 1.100 ships) and
// tokenizes text with it, as the editor does line by line.

'use strict';

const fs = require('node:fs');
const path = require('node:path');
const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const contributed = manifest.contributes.grammars.find((g) => g.language === 'opentofu');
const grammarPath = path.join(__dirname, '..', contributed.path);

let loaded;

/** The grammar the extension contributes for `opentofu`, loaded once. */
function grammar() {
  if (loaded === undefined) {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    const onigLib = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength)).then(() => ({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }));
    const registry = new textmate.Registry({
      onigLib,
      loadGrammar: async (scopeName) =>
        scopeName === contributed.scopeName
          ? textmate.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
          : null,
    });
    loaded = registry.loadGrammar(contributed.scopeName);
  }
  return loaded;
}

/**
 * Tokenizes `text`: one array per line of `{ text, scopes }` tokens, and the
 * rule stack after the last line (`depth` 1 is the top level of the file).
 */
async function tokenize(text) {
  const g = await grammar();
  let state = textmate.INITIAL;
  const lines = [];
  for (const line of text.split(/\r?\n/)) {
    const result = g.tokenizeLine(line, state, 1000);
    lines.push(
      result.tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes })),
    );
    state = result.ruleStack;
  }
  return { lines, state };
}

module.exports = { grammar, tokenize, scopeName: contributed.scopeName };
