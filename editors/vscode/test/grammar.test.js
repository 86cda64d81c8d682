// The extension's TextMate grammar, run by the engine VS Code uses
// (test/grammar.js): the scopes of each kind of token HCL's native syntax has,
// and that real files come back to the top level (no rule leaks past a block,
// a heredoc or a string).

'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const { tokenize } = require('./grammar.js');

const root = path.resolve(__dirname, '../../..');

/**
 * The scopes (without the root scope) of the token `needle` on line `line`
 * (1-based) of `text`; `nth` picks among equal tokens. The token must be
 * exactly `needle`: a grammar that splits or merges it fails here.
 */
async function scopesOf(text, line, needle, nth = 0) {
  const { lines } = await tokenize(text);
  const tokens = lines[line - 1].filter((t) => t.text === needle);
  assert.ok(tokens.length > nth, `no token ${JSON.stringify(needle)} on line ${line}: ${describe(lines[line - 1])}`);
  return tokens[nth].scopes.slice(1);
}

function describe(tokens) {
  return tokens.map((t) => `${JSON.stringify(t.text)} ${t.scopes.slice(1).join(' ')}`).join(' | ');
}

/** Asserts that the innermost scope of the token starts with `prefix` (a TextMate scope selector). */
async function expectScope(text, line, needle, prefix, nth = 0) {
  const scopes = await scopesOf(text, line, needle, nth);
  const innermost = scopes[scopes.length - 1] ?? '';
  assert.ok(
    innermost === prefix || innermost.startsWith(`${prefix}.`),
    `${JSON.stringify(needle)} on line ${line}: expected ${prefix}, got ${scopes.join(' ') || '(no scope)'}`,
  );
  return scopes;
}

const header = 'resource "aws_instance" "web" {\n  ami = "ami-0abcdef1234567890"\n}\n';

test('a keyword and a string get different scopes', async () => {
  const keyword = await expectScope(header, 1, 'resource', 'keyword.other.block');
  const string = await expectScope(header, 2, 'ami-0abcdef1234567890', 'string.quoted.double');
  assert.notDeepEqual(keyword, string);
  assert.ok(!keyword.some((s) => s.startsWith('string')), 'the block type is not a string');
  assert.ok(!string.some((s) => s.startsWith('keyword')), 'the value is not a keyword');
  await expectScope(header, 1, '"aws_instance"', 'entity.name.type.label');
  await expectScope(header, 1, '"web"', 'entity.name.type.label');
  await expectScope(header, 2, 'ami', 'variable.other.property.attribute');
  await expectScope(header, 2, '=', 'keyword.operator.assignment');
  await expectScope(header, 2, '"', 'punctuation.definition.string.begin');
  await expectScope(header, 1, '{', 'punctuation.section.block.begin');
  await expectScope(header, 3, '}', 'punctuation.section.block.end');
});

test('comments: #, // and /* */, and not inside strings', async () => {
  const text = [
    '# a "hash" comment',
    '// a slash comment',
    '/* a block',
    '   comment */ locals {',
    '  url = "http://example.invalid/#x" # trailing',
    '}',
  ].join('\n');
  await expectScope(text, 1, ' a "hash" comment', 'comment.line.number-sign');
  await expectScope(text, 1, '#', 'punctuation.definition.comment');
  await expectScope(text, 2, ' a slash comment', 'comment.line.double-slash');
  await expectScope(text, 3, ' a block', 'comment.block');
  await expectScope(text, 4, '   comment ', 'comment.block');
  await expectScope(text, 4, 'locals', 'keyword.other.block', 0);
  await expectScope(text, 5, 'http://example.invalid/#x', 'string.quoted.double');
  await expectScope(text, 5, ' trailing', 'comment.line.number-sign');
});

test('blocks: nested, one-line, identifier labels, and what is not a header', async () => {
  const text = [
    'resource "aws_instance" "web" {',
    '  lifecycle {',
    '    create_before_destroy = true',
    '  }',
    '  dynamic "ingress" {',
    '    content {}',
    '  }',
    '}',
    'variable "x" { default = 1 }',
    'legacy label_one "two" {',
    '}',
    'tags = {',
    '  Name = "x"',
    '}',
  ].join('\n');
  await expectScope(text, 2, 'lifecycle', 'keyword.other.block');
  await expectScope(text, 3, 'create_before_destroy', 'variable.other.property.attribute');
  await expectScope(text, 3, 'true', 'constant.language.boolean');
  await expectScope(text, 5, 'dynamic', 'keyword.other.block');
  await expectScope(text, 5, '"ingress"', 'entity.name.type.label');
  await expectScope(text, 6, 'content', 'keyword.other.block');
  await expectScope(text, 6, '}', 'punctuation.section.block.end');
  // A one-line block holds one attribute.
  await expectScope(text, 9, 'default', 'variable.other.property.attribute');
  await expectScope(text, 9, '1', 'constant.numeric');
  await expectScope(text, 9, '}', 'punctuation.section.block.end');
  await expectScope(text, 10, 'label_one', 'entity.name.type.label');
  // An attribute whose value is an object is no block.
  await expectScope(text, 12, 'tags', 'variable.other.property.attribute');
  await expectScope(text, 12, '{', 'punctuation.section.braces.begin');
  await expectScope(text, 13, 'Name', 'variable.other.property.key');
  const { state } = await tokenize(text);
  assert.equal(state.depth, 1, 'back at the top level');
});

test('strings: escapes, ${…} interpolation, %{…} directives, strip markers', async () => {
  const text = [
    'a = "x-${var.name}-y"',
    'b = "$${literal} %%{literal} \\n \\" \\u00e9"',
    'c = "%{ if var.on }on%{ else }off%{ endif }"',
    'd = "${~ local.v ~}"',
    'e = "${ { k = 1 }["k"] }"',
  ].join('\n');
  await expectScope(text, 1, 'x-', 'string.quoted.double');
  const interpolation = await expectScope(text, 1, '${', 'punctuation.section.embedded.begin');
  assert.ok(interpolation.includes('string.quoted.double.opentofu'), 'inside the string');
  await expectScope(text, 1, 'var', 'variable.language');
  await expectScope(text, 1, 'name', 'variable.other.member');
  await expectScope(text, 1, '}', 'punctuation.section.embedded.end');
  await expectScope(text, 1, '-y', 'string.quoted.double');
  await expectScope(text, 2, '$${', 'constant.character.escape');
  await expectScope(text, 2, '%%{', 'constant.character.escape');
  await expectScope(text, 2, '\\n', 'constant.character.escape');
  await expectScope(text, 2, '\\"', 'constant.character.escape');
  await expectScope(text, 2, '\\u00e9', 'constant.character.escape');
  await expectScope(text, 3, '%{', 'punctuation.section.embedded.begin');
  await expectScope(text, 3, 'if', 'keyword.control.directive');
  await expectScope(text, 3, 'else', 'keyword.control.directive');
  await expectScope(text, 3, 'endif', 'keyword.control.directive');
  await expectScope(text, 3, 'off', 'string.quoted.double');
  await expectScope(text, 4, '~', 'keyword.operator.template.strip', 0);
  await expectScope(text, 4, '~', 'keyword.operator.template.strip', 1);
  // Braces of an object inside an interpolation do not end it.
  await expectScope(text, 5, 'k', 'variable.other.property.key');
  await expectScope(text, 5, '"', 'punctuation.definition.string.end', 2);
  const { state } = await tokenize(text);
  assert.equal(state.depth, 1);
});

test('an unterminated string ends with its line', async () => {
  const text = 'a = "open\nb = 1\n';
  await expectScope(text, 2, 'b', 'variable.other.property.attribute');
});

test('heredocs: <<EOF and <<-EOF, templates inside, no escapes, the marker ends them', async () => {
  const text = [
    'resource "x" "y" {',
    '  script = <<-EOT',
    '    echo ${var.name} "not a string" # not a comment',
    '    %{ for x in var.xs ~}',
    '    done \\n',
    '    %{ endfor }',
    '    EOT',
    '  raw = <<EOF',
    'EOT',
    'EOF',
    '  after = 1',
    '}',
  ].join('\n');
  await expectScope(text, 2, '<<-', 'keyword.operator.heredoc');
  await expectScope(text, 2, 'EOT', 'keyword.control.heredoc-marker');
  const body = await expectScope(text, 3, '    echo ', 'string.unquoted.heredoc');
  assert.ok(!body.some((s) => s.startsWith('comment')));
  await expectScope(text, 3, 'var', 'variable.language');
  await expectScope(text, 3, ' "not a string" # not a comment', 'string.unquoted.heredoc');
  await expectScope(text, 4, 'for', 'keyword.control.directive');
  await expectScope(text, 4, 'in', 'keyword.control.directive');
  await expectScope(text, 5, '    done \\n', 'string.unquoted.heredoc');
  await expectScope(text, 7, 'EOT', 'keyword.control.heredoc-marker');
  await expectScope(text, 8, '<<', 'keyword.operator.heredoc');
  // Another marker's name inside a heredoc is text.
  await expectScope(text, 9, 'EOT', 'string.unquoted.heredoc');
  await expectScope(text, 10, 'EOF', 'keyword.control.heredoc-marker');
  await expectScope(text, 11, 'after', 'variable.other.property.attribute');
  const { state } = await tokenize(text);
  assert.equal(state.depth, 1);
});

test('numbers, booleans, null, and identifiers that only look like them', async () => {
  const text = 'a = [1, 2.5, 1e3, 6.02E+23, -4, true, false, null, true-ish, t3, null_value]';
  for (const number of ['1', '2.5', '1e3', '6.02E+23', '4']) await expectScope(text, 1, number, 'constant.numeric');
  await expectScope(text, 1, 'true', 'constant.language.boolean');
  await expectScope(text, 1, 'false', 'constant.language.boolean');
  await expectScope(text, 1, 'null', 'constant.language.null');
  // HCL identifiers may contain dashes and digits.
  await expectScope(text, 1, 'true-ish', 'variable.other.readwrite');
  await expectScope(text, 1, 't3', 'variable.other.readwrite');
  await expectScope(text, 1, 'null_value', 'variable.other.readwrite');
});

test('operators', async () => {
  const text = 'a = !x && y || 1 + 2 - 3 * 4 / 5 % 6 == 7 != 8 < 9 > 0 <= 1 >= 2 ? f(z...) : g';
  for (const [op, scope] of [
    ['!', 'keyword.operator.logical'],
    ['&&', 'keyword.operator.logical'],
    ['||', 'keyword.operator.logical'],
    ['+', 'keyword.operator.arithmetic'],
    ['-', 'keyword.operator.arithmetic'],
    ['*', 'keyword.operator.arithmetic'],
    ['/', 'keyword.operator.arithmetic'],
    ['%', 'keyword.operator.arithmetic'],
    ['==', 'keyword.operator.comparison'],
    ['!=', 'keyword.operator.comparison'],
    ['<', 'keyword.operator.comparison'],
    ['>', 'keyword.operator.comparison'],
    ['<=', 'keyword.operator.comparison'],
    ['>=', 'keyword.operator.comparison'],
    ['?', 'keyword.operator.conditional'],
    [':', 'keyword.operator.conditional'],
    ['...', 'keyword.operator.spread'],
  ]) {
    await expectScope(text, 1, op, scope);
  }
  // `==` at the start of a line is no attribute.
  await expectScope('x = (\n  a == b\n)', 2, 'a', 'variable.other.readwrite');
});

test('function calls, provider functions and type constraints', async () => {
  const text = [
    'a = cidrsubnet(var.cidr, 8, length(local.zones))',
    'b = provider::aws::arn_parse(var.arn)',
    'variable "v" {',
    '  type = list(object({ name = string, size = optional(number, 1) }))',
    '}',
  ].join('\n');
  await expectScope(text, 1, 'cidrsubnet', 'support.function.builtin');
  await expectScope(text, 1, 'length', 'support.function.builtin');
  await expectScope(text, 1, '(', 'punctuation.section.arguments.begin');
  await expectScope(text, 1, ',', 'punctuation.separator.comma');
  await expectScope(text, 2, 'provider', 'support.function.provider');
  await expectScope(text, 2, '::', 'punctuation.separator.namespace');
  await expectScope(text, 2, 'arn_parse', 'support.function.provider');
  await expectScope(text, 4, 'list', 'support.type');
  await expectScope(text, 4, 'object', 'support.type');
  await expectScope(text, 4, 'optional', 'support.type');
  await expectScope(text, 4, 'string', 'support.type.primitive');
  await expectScope(text, 4, 'number', 'support.type.primitive');
  await expectScope(text, 4, 'name', 'variable.other.property.key');
});

test('references: var, local, module, data, each, count, self, path, terraform', async () => {
  const text = [
    'a = [var.x, local.y, module.m.out, data.aws_ami.u.id, ephemeral.e.n.v]',
    'b = "${each.key}-${count.index}-${self.id}-${path.module}-${terraform.workspace}"',
    'c = aws_instance.web[0].public_ip',
    'd = aws_subnet.private[*].id',
    'e = var.list.0',
  ].join('\n');
  for (const name of ['var', 'local', 'module', 'data', 'ephemeral']) await expectScope(text, 1, name, 'variable.language');
  for (const name of ['each', 'count', 'self', 'path', 'terraform']) await expectScope(text, 2, name, 'variable.language');
  await expectScope(text, 1, 'x', 'variable.other.member');
  await expectScope(text, 1, '.', 'punctuation.accessor');
  await expectScope(text, 2, 'workspace', 'variable.other.member');
  await expectScope(text, 3, 'aws_instance', 'variable.other.readwrite');
  await expectScope(text, 3, 'public_ip', 'variable.other.member');
  await expectScope(text, 4, '[*]', 'keyword.operator.splat');
  await expectScope(text, 5, '0', 'constant.numeric.index');
  // A name that is only a reference root elsewhere.
  await expectScope('count = 2', 1, 'count', 'variable.other.property.attribute');
});

test('for expressions', async () => {
  const text = [
    'a = [for s in var.list : upper(s) if s != ""]',
    'b = { for k, v in var.map : k => v }',
  ].join('\n');
  await expectScope(text, 1, 'for', 'keyword.control.for');
  await expectScope(text, 1, 's', 'variable.parameter');
  await expectScope(text, 1, 'in', 'keyword.control.in');
  await expectScope(text, 1, 'if', 'keyword.control.conditional');
  await expectScope(text, 2, 'k', 'variable.parameter');
  await expectScope(text, 2, 'v', 'variable.parameter');
  await expectScope(text, 2, '=>', 'keyword.operator.arrow');
});

test('.tfvars: attributes at the top level', async () => {
  const text = 'region = "eu-west-1"\ntags = {\n  team = "infra"\n}\nzones = ["a", "b"]\n';
  await expectScope(text, 1, 'region', 'variable.other.property.attribute');
  await expectScope(text, 3, 'team', 'variable.other.property.key');
  await expectScope(text, 5, 'a', 'string.quoted.double');
});

/** Every `.tf`, `.tofu` and `.tfvars` file under `dir` (symlinks not followed). */
function configFiles(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.terraform') configFiles(file, out);
    else if (entry.isFile() && /\.(tf|tofu|tfvars)$/.test(entry.name)) out.push(file);
  }
  return out;
}

// Files written with a syntax error on purpose (an unclosed block, bracket,
// heredoc, ...) may leave a rule open; every other file must not.
const DELIBERATELY_BROKEN = /unclosed-|syntax-error/;

for (const [what, dir] of [
  ['the repository\'s examples and fixtures', [path.join(root, 'examples'), path.join(root, 'tests')]],
  ['the shared corpus (real modules and OpenTofu\'s own test data)', [path.join(root, '../shared/corpus')]],
]) {
  const present = dir.filter((d) => fs.existsSync(d));
  test(`every file of ${what} ends at the top level`, { skip: present.length === 0 && `${dir.join(', ')} is missing` }, async () => {
    const files = present.flatMap((d) => configFiles(d));
    assert.ok(files.length > 0);
    const open = [];
    for (const file of files) {
      const { state } = await tokenize(fs.readFileSync(file, 'utf8'));
      if (state.depth !== 1 && !DELIBERATELY_BROKEN.test(file)) open.push(`${path.relative(root, file)} (depth ${state.depth})`);
    }
    assert.deepEqual(open, [], `${open.length} of ${files.length} files leave a rule open`);
  });
}
