-- End-to-end test: a real headless Neovim with editors/neovim on its
-- runtimepath, `vim.lsp.enable('tofu_lens')`, and the real `tofu-lens` found
-- on PATH, on a copy of examples/overrides inside a git repository.
--
--   nvim --headless -i NONE -u editors/neovim/test/e2e.lua
--
-- (editors/neovim/test/run.sh sets PATH and an empty XDG home.) Prints one
-- `ok`/`not ok` line per test and a `neovim: N passed, M failed` total;
-- exits non-zero if a test failed. The schema test runs the real
-- hashicorp/time provider from TOFU_LENS_PROVIDER_PLUGINS (as the Rust tests
-- do; CI builds it), and without it is skipped, saying so (`# SKIP`).

local test_dir = vim.fs.dirname(vim.fs.abspath(debug.getinfo(1, 'S').source:sub(2)))
local neovim_dir = vim.fs.dirname(test_dir)
local repo_root = vim.fs.dirname(vim.fs.dirname(neovim_dir))

vim.opt.runtimepath:prepend(neovim_dir)
vim.opt.swapfile = false
vim.opt.shortmess:append('F')

-- What a user's init.lua says.
vim.lsp.enable('tofu_lens')

local TIMEOUT = 20000

local function out(line)
  io.stdout:write(line, '\n')
end

--- Waits until `predicate()` returns a value; fails with `what` after the timeout.
local function wait_for(what, predicate, timeout)
  local value
  local ok = vim.wait(timeout or TIMEOUT, function()
    value = predicate()
    return value ~= nil and value ~= false
  end, 20)
  assert(ok, 'timed out waiting for ' .. what)
  return value
end

local function eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(('%s: expected %s, got %s'):format(what or 'value', vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

local function write_file(path, text)
  local file = assert(io.open(path, 'w'))
  file:write(text)
  file:close()
end

-- The fixture: <tmp>/repo/.git and <tmp>/repo/overrides (examples/overrides),
-- plus a .tofu file with an error of its own.
local tmp = vim.fn.tempname()
local repo = tmp .. '/repo'
local module_dir = repo .. '/overrides'
vim.fn.mkdir(repo .. '/.git', 'p')
vim.fn.system({ 'cp', '-R', repo_root .. '/examples/overrides', module_dir })
assert(vim.v.shell_error == 0, 'copying examples/overrides failed')
write_file(module_dir .. '/zz_extra.tofu', 'variable "region" {\n  default = "x"\n}\n')
vim.fn.chdir(module_dir)

local function tofu_lens_client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'tofu_lens' })[1]
end

--- Opens `file` and waits for tofu-lens to attach to it.
local function edit(file)
  vim.cmd.edit(vim.fn.fnameescape(module_dir .. '/' .. file))
  local bufnr = vim.api.nvim_get_current_buf()
  local client = wait_for('tofu_lens to attach to ' .. file, function()
    local client = tofu_lens_client(bufnr)
    return client and client.initialized and client
  end)
  return bufnr, client
end

--- Sorts diagnostics (anything with lnum, col and code) by position, then code.
local function by_position(diagnostics)
  table.sort(diagnostics, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    if a.col ~= b.col then
      return a.col < b.col
    end
    return a.code < b.code
  end)
  return diagnostics
end

--- What the user sees: the buffer's diagnostics from tofu-lens.
local function tofu_lens_diagnostics(bufnr)
  return by_position(vim.tbl_filter(function(d)
    return d.source == 'tofu-lens'
  end, vim.diagnostic.get(bufnr)))
end

local function codes(diagnostics)
  return vim.tbl_map(function(d)
    return ('%d:%d %s'):format(d.lnum + 1, d.col + 1, d.code)
  end, diagnostics)
end

--- Waits until the buffer's tofu-lens diagnostics are exactly `expected` (as `codes` renders them).
local function wait_for_diagnostics(bufnr, expected)
  local last
  local ok = vim.wait(TIMEOUT, function()
    last = codes(tofu_lens_diagnostics(bufnr))
    return vim.deep_equal(last, expected)
  end, 20)
  if not ok then
    error(('diagnostics of %s: expected %s, still %s'):format(
      vim.fn.bufname(bufnr),
      vim.inspect(expected),
      vim.inspect(last)
    ))
  end
end

--- Hover as the user does it (`K`, i.e. vim.lsp.buf.hover()) at 1-based
--- line, 0-based byte column; returns the lines of the floating window.
local function hover_lines(bufnr, line, col)
  vim.api.nvim_set_current_buf(bufnr)
  vim.api.nvim_win_set_cursor(0, { line, col })
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      vim.api.nvim_win_close(win, true)
    end
  end
  vim.lsp.buf.hover()
  local float = wait_for('the hover window', function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        return win
      end
    end
  end)
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
  vim.api.nvim_win_close(float, true)
  return lines
end

--- The hover request itself, for polling (no window).
local function hover_text(bufnr, line, col)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line - 1, character = col },
  }
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, TIMEOUT) or {}
  for _, response in pairs(responses) do
    if response.result then
      return response.result.contents.value
    end
  end
  return nil
end

local tests = {}
local function test(name, fn)
  table.insert(tests, { name = name, fn = fn })
end

test('filetypes: .tofu is opentofu, .tofu.json, .tf.json and .tfvars.json are json, .tfvars terraform-vars, .tf terraform', function()
  eq('opentofu', vim.filetype.match({ filename = 'versions.tofu' }), '.tofu')
  eq('json', vim.filetype.match({ filename = 'outputs.tofu.json' }), '.tofu.json')
  eq('json', vim.filetype.match({ filename = 'outputs.tf.json' }), '.tf.json')
  eq('terraform-vars', vim.filetype.match({ filename = 'terraform.tfvars' }), '.tfvars')
  eq('json', vim.filetype.match({ filename = 'prod.auto.tfvars.json' }), '.tfvars.json')
  for _, filetype in ipairs({ 'terraform-vars', 'json' }) do
    assert(vim.tbl_contains(vim.lsp.config.tofu_lens.filetypes, filetype), filetype)
  end
  local tf_buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(tf_buf, tmp .. '/scratch.tf')
  vim.api.nvim_buf_set_lines(tf_buf, 0, -1, false, { 'resource "a" "b" {}' })
  eq('terraform', vim.filetype.match({ buf = tf_buf }), '.tf')
  vim.api.nvim_buf_delete(tf_buf, { force = true })
end)

test('root: .terraform, else .git, else the module directory itself', function()
  local root_dir = vim.lsp.config.tofu_lens.root_dir
  local function root_of(path)
    local bufnr = vim.fn.bufadd(path)
    local found = 'root_dir did not call on_dir'
    root_dir(bufnr, function(dir)
      found = dir
    end)
    vim.api.nvim_buf_delete(bufnr, { force = true })
    return found
  end
  local lone = tmp .. '/lone'
  local initialised = repo .. '/envs/prod'
  vim.fn.mkdir(lone, 'p')
  vim.fn.mkdir(initialised .. '/.terraform', 'p')
  eq(repo, root_of(module_dir .. '/main.tf'), 'inside the git repository')
  eq(repo, root_of(module_dir .. '/terraform.tfvars'), 'a variable definitions file')
  eq(repo, root_of(module_dir .. '/prod.auto.tfvars.json'), 'a variable definitions file in JSON')
  eq(repo, root_of(module_dir .. '/tests/main.tftest.hcl'), 'a test file')
  eq(repo, root_of(module_dir .. '/main.tofutest.json'), 'a test file in JSON')
  eq(initialised, root_of(initialised .. '/main.tf'), 'a directory `tofu init` ran in')
  eq(lone, root_of(lone .. '/main.tofu'), 'no marker: the module directory')
  eq('root_dir did not call on_dir', root_of(module_dir .. '/package.json'), 'not a configuration file')
end)

local network_buf, client
test('diagnostics in network.tf, and the negotiated encoding is UTF-8', function()
  network_buf, client = edit('network.tf')
  eq('terraform', vim.bo[network_buf].filetype, 'filetype')
  eq(repo, client.root_dir, 'root_dir')
  eq('utf-8', client.offset_encoding, 'Neovim offers UTF-8 first; server.md picks it')
  wait_for_diagnostics(network_buf, { '3:3 duplicate-local', '8:1 duplicate-block' })
  local diagnostics = tofu_lens_diagnostics(network_buf)
  eq(vim.diagnostic.severity.ERROR, diagnostics[2].severity, 'severity')
  eq('Duplicate resource "aws_security_group" configuration', vim.split(diagnostics[2].message, '\n')[1], 'summary')
end)

local main_buf
test('hover on the overridden resource in main.tf shows the effective block', function()
  main_buf = edit('main.tf')
  local lines = table.concat(hover_lines(main_buf, 1, 10), '\n')
  assert(lines:find('resource "aws_instance" "web" {', 1, true), lines)
  assert(lines:find('instance_type = "t3.large"  # override.tf:3', 1, true), lines)
  assert(lines:find('device_name = "/dev/sdc"', 1, true), lines)
  assert(not lines:find('var.instance_type', 1, true), 'superseded value shown:\n' .. lines)
end)

test('a .tofu file: filetype opentofu, its diagnostics and hover', function()
  local tofu_buf = edit('zz_extra.tofu')
  eq('opentofu', vim.bo[tofu_buf].filetype, 'filetype')
  wait_for_diagnostics(tofu_buf, { '1:1 duplicate-block' })
  local versions_buf = edit('versions.tofu')
  wait_for_diagnostics(versions_buf, {})
  local text = hover_text(versions_buf, 14, 4)
  assert(text and text:find('provider "aws" {', 1, true), tostring(text))
end)

test('a .tofu.json file attaches; another JSON file does not', function()
  write_file(module_dir .. '/outputs.tofu.json', vim.json.encode({ output = { web_arn = { value = '${aws_instance.web.arn}' } } }))
  local json_buf = edit('outputs.tofu.json')
  eq('json', vim.bo[json_buf].filetype, 'filetype')
  wait_for_diagnostics(json_buf, {})
  write_file(module_dir .. '/package.json', '{}\n')
  vim.cmd.edit(vim.fn.fnameescape(module_dir .. '/package.json'))
  vim.wait(200)
  eq(nil, tofu_lens_client(0), 'tofu_lens attached to package.json')
end)

test('a file created on disk is seen by the server', function()
  -- Neovim registers no file watchers on Linux (didChangeWatchedFiles
  -- dynamicRegistration = false): the server has to watch by itself.
  eq(false, client.capabilities.workspace.didChangeWatchedFiles.dynamicRegistration, 'Neovim watches no files here')
  write_file(module_dir .. '/zz_override.tf', 'resource "aws_instance" "web" {\n  ami = "ami-from-disk"\n}\n')
  local text = wait_for('hover to show zz_override.tf', function()
    local text = hover_text(main_buf, 1, 10)
    return text and text:find('# zz_override.tf:2', 1, true) and text
  end)
  assert(text:find('ami-from-disk', 1, true), text)
end)

--- Neovim 0.11 offers textDocument/diagnostic but has no
--- workspace/diagnostic/refresh, so the server pushes to it: a change on disk
--- reaches an open buffer without the buffer being edited.
local function server_then_buffer(bufnr, expected)
  wait_for_diagnostics(bufnr, expected)
end

test('a file created on disk changes the diagnostics of an open buffer', function()
  -- aa_dup.tf sorts before main.tf: main.tf's aws_instance.web becomes the duplicate.
  write_file(module_dir .. '/aa_dup.tf', 'resource "aws_instance" "web" {\n  ami = "a"\n}\n')
  server_then_buffer(main_buf, { '1:1 duplicate-block' })
  os.remove(module_dir .. '/aa_dup.tf')
  server_then_buffer(main_buf, {})
end)

test('inlay hints in main.tf show what override.tf changed', function()
  local buf = edit('main.tf')
  vim.lsp.inlay_hint.enable(true, { bufnr = buf })
  local labels = wait_for('inlay hints', function()
    local found = {}
    for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
      local label = item.inlay_hint.label
      if type(label) == 'table' then
        label = table.concat(vim.tbl_map(function(part)
          return part.value
        end, label))
      end
      found[#found + 1] = label
    end
    return #found > 0 and found
  end)
  assert(vim.tbl_contains(labels, '⟵ "t3.large" (override.tf:3)'), vim.inspect(labels))
end)

test('semantic tokens colour main.tf by meaning', function()
  local buf = edit('main.tf')
  -- Neovim asks for semantic tokens by itself once the server offers them.
  local function type_at(row, col)
    for _, token in ipairs(vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}) do
      return token.type
    end
  end
  wait_for('semantic tokens in main.tf', function()
    return type_at(0, 0)
  end)
  eq('keyword', type_at(0, 0), '`resource`')
  eq('type', type_at(0, 10), '"aws_instance"')
  local line = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
  eq('parameter', type_at(2, assert(line:find('var.instance_type', 1, true)) - 1), 'var.instance_type')
end)

test('the name under the cursor is highlighted: its declaration written, its uses read', function()
  local buf = edit('main.tf')
  local line = vim.api.nvim_buf_get_lines(buf, 10, 11, false)[1]
  vim.api.nvim_win_set_cursor(0, { 11, assert(line:find('local.name', 1, true)) + 6 })
  local params = vim.lsp.util.make_position_params(0, 'utf-8')
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/documentHighlight', params, TIMEOUT) or {}
  local found = {}
  for _, response in pairs(responses) do
    for _, highlight in ipairs(response.result or {}) do
      table.insert(found, { highlight.range.start.line + 1, highlight.kind })
    end
  end
  eq({ { 11, 2 }, { 16, 2 }, { 20, 3 } }, found, 'lines and kinds (2 read, 3 write)')
end)

test('folds come from the server with vim.lsp.foldexpr()', function()
  local buf = edit('main.tf')
  vim.wo.foldmethod = 'expr'
  vim.wo.foldexpr = 'v:lua.vim.lsp.foldexpr()'
  -- The resource block (lines 1-13) and its nested block (5-8).
  wait_for('folding ranges', function()
    return vim.fn.foldlevel(6) == 2 and vim.fn.foldlevel(2) == 1
  end)
  eq(0, vim.fn.foldlevel(14), 'between blocks')
  vim.wo.foldmethod = 'manual'
  vim.api.nvim_set_current_buf(buf)
end)

test('format on save, as the README configures it', function()
  -- The README's snippet, word for word.
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('tofu_lens.format_on_save', {}),
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if not client or client.name ~= 'tofu_lens' then
        return
      end
      vim.api.nvim_create_autocmd('BufWritePre', {
        group = vim.api.nvim_create_augroup('tofu_lens.format_on_save.' .. args.buf, {}),
        buffer = args.buf,
        callback = function()
          vim.lsp.buf.format({ bufnr = args.buf, id = client.id, timeout_ms = 2000 })
        end,
      })
    end,
  })
  local path = module_dir .. '/zz_fmt.tf'
  write_file(path, 'variable "x" {\n    default="a"\n  type   = string\n}\n')
  edit('zz_fmt.tf')
  vim.cmd('silent write')
  local file = assert(io.open(path))
  local written = file:read('a')
  file:close()
  eq('variable "x" {\n  default = "a"\n  type    = string\n}\n', written, 'the file on disk')
  vim.cmd('bwipeout!')
  os.remove(path)
end)

test('rename a local value and its uses through the client', function()
  local buf = edit('main.tf')
  -- The cursor on `name` of `Name = local.name` (line 11).
  local line = vim.api.nvim_buf_get_lines(buf, 10, 11, false)[1]
  local column = assert(line:find('local.name', 1, true)) + 6
  vim.api.nvim_win_set_cursor(0, { 11, column - 1 })
  vim.lsp.buf.rename('label')
  wait_for('the rename to be applied', function()
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    return text:find('Name = local.label', 1, true) and text:find('label = "demo"', 1, true)
  end)
  -- The duplicate entry in network.tf was renamed too (the client opened it).
  local network = vim.fn.bufnr(module_dir .. '/network.tf')
  local text = table.concat(vim.api.nvim_buf_get_lines(network, 0, -1, false), '\n')
  assert(text:find('label = "network"', 1, true), text)
end)

test('renaming a resource writes a moved block; renaming it back removes it', function()
  -- main.tf is open, changed by the rename before (not saved).
  local buf = vim.fn.bufnr(module_dir .. '/main.tf')
  assert(buf > 0, 'main.tf is not open')
  vim.api.nvim_set_current_buf(buf)
  local function text()
    return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
  end
  local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  local column = assert(first:find('"web"', 1, true))
  vim.api.nvim_win_set_cursor(0, { 1, column })
  vim.lsp.buf.rename('app')
  wait_for('the moved block', function()
    return text():find('moved {\n  from = aws_instance.web\n  to   = aws_instance.app\n}', 1, true)
  end)
  assert(text():find('resource "aws_instance" "app"', 1, true), text())
  vim.api.nvim_win_set_cursor(0, { 1, column })
  vim.lsp.buf.rename('web')
  wait_for('the moved block to go', function()
    local now = text()
    return not now:find('moved {', 1, true) and now:find('resource "aws_instance" "web"', 1, true)
  end)
end)

test('extracting a resource into a module, applied by the client, leaves check clean', function()
  local dir = repo .. '/extract'
  vim.fn.mkdir(dir, 'p')
  write_file(dir .. '/main.tf', table.concat({
    'resource "terraform_data" "base" {',
    '  input = "base"',
    '}',
    '',
    'resource "terraform_data" "web" {',
    '  input = terraform_data.base.output',
    '}',
    '',
    'output "web" {',
    '  value = terraform_data.web.id',
    '}',
    '',
  }, '\n'))
  vim.cmd.edit(vim.fn.fnameescape(dir .. '/main.tf'))
  local buf = vim.api.nvim_get_current_buf()
  wait_for('tofu_lens to attach to extract/main.tf', function()
    local client = tofu_lens_client(buf)
    return client and client.initialized
  end)
  vim.api.nvim_win_set_cursor(0, { 5, 30 })
  vim.lsp.buf.code_action({
    context = { only = { 'refactor.extract' }, diagnostics = {} },
    filter = function(action)
      return action.title == 'Extract into module `modules/web`'
    end,
    apply = true,
  })
  wait_for('the module block in place of the resource', function()
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    return text:find('module "web" {', 1, true) and text:find('value = module.web.web.id', 1, true)
  end)
  -- The client created the new module's files; save everything, as a user would.
  for _, other in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(other)
    if vim.startswith(name, dir) and vim.api.nvim_buf_is_loaded(other) and vim.bo[other].modified then
      vim.api.nvim_buf_call(other, function()
        vim.cmd('silent write')
      end)
    end
  end
  local child = assert(io.open(dir .. '/modules/web/main.tf')):read('*a')
  assert(child:find('input = var.base.output', 1, true), child)
  local check = vim.system({ 'tofu-lens', 'check', dir }, { text = true }):wait()
  eq(0, check.code, 'tofu-lens check exit code (' .. (check.stdout or '') .. (check.stderr or '') .. ')')
end)

test('a .tfvars file attaches: its diagnostics, hover and definition', function()
  write_file(module_dir .. '/zz.auto.tfvars', 'instance_type = "t3.small"\nzone          = "a"\n')
  local values_buf = edit('zz.auto.tfvars')
  eq('terraform-vars', vim.bo[values_buf].filetype, 'filetype')
  wait_for_diagnostics(values_buf, { '2:1 undeclared-value' })
  local text = hover_text(values_buf, 1, 2)
  assert(text and text:find('variable "instance_type" {', 1, true), tostring(text))
  vim.api.nvim_win_set_cursor(0, { 1, 2 })
  vim.lsp.buf.definition()
  wait_for('gd to open variables.tf', function()
    return vim.api.nvim_buf_get_name(0) == module_dir .. '/variables.tf'
  end)
  eq(6, vim.api.nvim_win_get_cursor(0)[1], 'the line of variable "instance_type"')
end)

test('plan-time: a value in terraform.tfvars fails a validation, and hover shows the value', function()
  vim.fn.mkdir(module_dir .. '/planned', 'p')
  write_file(
    module_dir .. '/planned/main.tf',
    'variable "replicas" {\n  type = number\n  validation {\n    condition     = var.replicas <= 3\n'
      .. '    error_message = "At most three replicas."\n  }\n}\n\noutput "replicas" {\n  value = var.replicas\n}\n'
  )
  write_file(module_dir .. '/planned/terraform.tfvars', 'replicas = 5\n')
  local buf = edit('planned/main.tf')
  wait_for_diagnostics(buf, { '1:1 plan-variable-validation' })
  local message = tofu_lens_diagnostics(buf)[1].message
  assert(message:find('Invalid value for variable', 1, true), message)
  -- `  value = var.replicas`: the cursor on `replicas`.
  local text = wait_for('the value on hover', function()
    local found = hover_text(buf, 10, 16)
    return found and found:find('set in `terraform.tfvars`', 1, true) and found
  end)
  assert(text:find('\n5\n', 1, true), text)
end)

test('definition from a module argument opens the called module', function()
  vim.fn.mkdir(module_dir .. '/modules/net', 'p')
  write_file(module_dir .. '/modules/net/inputs.tf', 'variable "cidr" {\n  type = string\n}\n')
  write_file(module_dir .. '/zz_calls.tf', 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n')
  edit('zz_calls.tf')
  vim.api.nvim_win_set_cursor(0, { 3, 3 })
  vim.lsp.buf.definition()
  wait_for('gd to open modules/net/inputs.tf', function()
    return vim.api.nvim_buf_get_name(0) == module_dir .. '/modules/net/inputs.tf'
  end)
  eq(1, vim.api.nvim_win_get_cursor(0)[1], 'the line of variable "cidr"')
end)

--- Marks the running test as skipped, saying why (a TAP `# SKIP`).
local function skip(reason)
  return { skipped = reason }
end

test('a root with the time provider installed: completion, hover and "Did you mean" from its schema', function()
  -- Laid out as `tofu init -plugin-dir` leaves it, by the helper the three
  -- editors' tests share; its own root (.terraform), so a client of its own.
  local schedule = tmp .. '/schedule'
  local laid_out = vim.system({ 'python3', repo_root .. '/editors/test/time_provider_root.py', schedule }):wait()
  if laid_out.code == 77 then
    return skip(vim.trim(laid_out.stderr))
  end
  assert(laid_out.code == 0, laid_out.stderr)
  vim.cmd.edit(vim.fn.fnameescape(schedule .. '/rotation.tf'))
  local buf = vim.api.nvim_get_current_buf()
  local schedule_client = wait_for('tofu_lens to attach to rotation.tf', function()
    local found = tofu_lens_client(buf)
    return found and found.initialized and found
  end)
  eq(schedule, schedule_client.root_dir, 'root_dir: the directory `tofu init` ran in')
  -- Stopped whatever happens below: the last test counts the clients.
  local ok, err = xpcall(function()
    -- The provider runs once the workspace is scanned; hover has the schema then.
    local description = 'Number of days to add to the base timestamp to configure the rotation timestamp.'
    wait_for('the time provider\'s schema', function()
      local text = hover_text(buf, 11, 4)
      return text and text:find('**rotation_days**', 1, true)
    end, 60000)
    local hover = table.concat(hover_lines(buf, 11, 4), '\n')
    assert(hover:find('**rotation_days** `number` (optional)', 1, true), hover)
    assert(hover:find(description, 1, true), hover)
    wait_for_diagnostics(buf, {})

    -- `rotation_days` becomes `rotation_dayz`: recorded from OpenTofu 1.12.6
    -- `tofu validate`, rotation.tf line 11, column 3.
    vim.api.nvim_buf_set_text(buf, 10, 14, 10, 15, { 'z' })
    wait_for_diagnostics(buf, { '11:3 unsupported-argument' })
    local message = tofu_lens_diagnostics(buf)[1].message
    eq('Unsupported argument', vim.split(message, '\n')[1], 'summary')
    assert(message:find('An argument named "rotation_dayz" is not expected here. Did you mean "rotation_days"?', 1, true), message)

    -- The line retyped as `rot`: completion (what omnifunc and
    -- vim.lsp.completion ask for) offers `rotation_days`, its type and description.
    vim.api.nvim_buf_set_text(buf, 10, 2, 10, 20, { 'rot' })
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 10, character = 5 } }
    local items = {}
    for _, response in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, TIMEOUT) or {}) do
      local result = response.result or {}
      for _, item in ipairs(result.items or result) do
        items[item.label] = item
      end
    end
    local days = items.rotation_days
    assert(days, 'no rotation_days among ' .. vim.inspect(vim.tbl_keys(items)))
    eq('number, optional', days.detail, 'detail')
    assert(days.documentation and days.documentation.value:find(description, 1, true), vim.inspect(days))
  end, debug.traceback)
  vim.cmd('bwipeout!')
  schedule_client:stop()
  wait_for('the client of the schedule root to stop', function()
    return schedule_client:is_stopped()
  end)
  assert(ok, err)
end)

test('a module with nothing installed: its provider fetched, then completion from its schema', function()
  -- The test registry (editors/test/fetch_registry.py) serves the real time
  -- provider over HTTPS; the server finds it through the CLI configuration
  -- and trusts its CA through SSL_CERT_FILE, as OpenTofu would.
  local started = vim.system({ 'python3', repo_root .. '/editors/test/fetch_registry.py', tmp .. '/fetch' }):wait()
  if started.code == 77 then
    return skip(vim.trim(started.stderr))
  end
  assert(started.code == 0, started.stderr)
  local registry = vim.json.decode(started.stdout)
  local restore_env = {}
  for name in pairs(registry.env) do
    restore_env[name] = vim.env[name] or ''
  end
  vim.lsp.config('tofu_lens', {
    cmd_env = registry.env,
    settings = { tofuLens = { schemas = { fetchProviders = true } } },
  })
  vim.cmd.edit(vim.fn.fnameescape(registry.module .. '/rotation.tf'))
  local buf = vim.api.nvim_get_current_buf()
  local fetch_client = wait_for('tofu_lens to attach to the unfetched module', function()
    local found = tofu_lens_client(buf)
    return found and found.initialized and found
  end)
  local ok, err = xpcall(function()
    assert(vim.fn.isdirectory(registry.module .. '/.terraform') == 0, 'nothing installed')
    wait_for('the fetched provider\'s schema', function()
      local text = hover_text(buf, 11, 4)
      return text and text:find('**rotation_days**', 1, true)
    end, 60000)
    local hover = table.concat(hover_lines(buf, 11, 4), '\n')
    assert(hover:find('fetched and verified by tofu-lens', 1, true), hover)
    -- The line retyped as `rot`: completion offers `rotation_days`.
    vim.api.nvim_buf_set_text(buf, 10, 2, 10, 20, { 'rot' })
    local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 10, character = 5 } }
    local items = {}
    for _, response in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, TIMEOUT) or {}) do
      local result = response.result or {}
      for _, item in ipairs(result.items or result) do
        items[item.label] = item
      end
    end
    assert(items.rotation_days, 'no rotation_days among ' .. vim.inspect(vim.tbl_keys(items)))
    eq('number, optional', items.rotation_days.detail, 'detail')
    assert(vim.fn.isdirectory(registry.module .. '/.terraform') == 0, 'the module is never written to')
  end, debug.traceback)
  vim.cmd('bwipeout!')
  fetch_client:stop()
  wait_for('the client of the fetched module to stop', function()
    return fetch_client:is_stopped()
  end)
  vim.lsp.config('tofu_lens', {
    cmd_env = restore_env,
    settings = { tofuLens = { schemas = { fetchProviders = false } } },
  })
  vim.uv.kill(registry.pid, 'sigterm')
  assert(ok, err)
end)

test('settings: tofuVersion from vim.lsp.config, then changed while running', function()
  -- A new client with the user's setting (versions.tofu wants >= 1.10).
  client:stop()
  wait_for('the client to stop', function()
    return client:is_stopped()
  end)
  vim.lsp.config('tofu_lens', { settings = { tofuLens = { tofuVersion = '1.9.0' } } })
  vim.cmd('bufdo bwipeout!')
  local versions_buf
  versions_buf, client = edit('versions.tofu')
  eq('1.9.0', client.settings.tofuLens.tofuVersion, 'merged setting')
  eq('workspace', client.settings.tofuLens.diagnostics.scope, 'default kept')
  wait_for_diagnostics(versions_buf, { '3:3 incompatible-tofu-version' })
  -- Changed at run time, as `:lua` would: the server asks for the section again.
  client.settings.tofuLens.tofuVersion = '1.12.6'
  client:notify('workspace/didChangeConfiguration', { settings = client.settings })
  server_then_buffer(versions_buf, {})
end)

test('without the binary on PATH, one clear message and no client', function()
  client:stop()
  wait_for('the client to stop', function()
    return client:is_stopped()
  end)
  vim.lsp.config('tofu_lens', { cmd = { 'tofu-lens-not-installed', 'serve' } })
  vim.g.tofu_lens_missing_reported = nil
  local messages = {}
  local notify = vim.notify
  vim.notify = function(message, level)
    table.insert(messages, { message, level })
  end
  local ok, err = pcall(function()
    vim.cmd('bufdo bwipeout!')
    vim.cmd.edit(vim.fs.joinpath(module_dir, 'network.tf'))
    vim.cmd.edit(vim.fs.joinpath(module_dir, 'main.tf'))
    vim.wait(200)
  end)
  vim.notify = notify
  assert(ok, err)
  eq(1, #messages, 'one message for two files')
  assert(messages[1][1]:find('`tofu-lens-not-installed` is not on PATH', 1, true), messages[1][1])
  assert(messages[1][1]:find('cargo install --locked', 1, true), messages[1][1])
  eq(0, #vim.lsp.get_clients({ name = 'tofu_lens' }), 'no client started')
end)

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = vim.schedule_wrap(function()
    local passed, failed, skipped = 0, 0, 0
    for index, case in ipairs(tests) do
      local ok, err = xpcall(case.fn, debug.traceback)
      if ok and type(err) == 'table' and err.skipped then
        skipped = skipped + 1
        out(('ok %d - %s # SKIP %s'):format(index, case.name, err.skipped))
      elseif ok then
        passed = passed + 1
        out(('ok %d - %s'):format(index, case.name))
      else
        failed = failed + 1
        out(('not ok %d - %s'):format(index, case.name))
        for _, line in ipairs(vim.split(tostring(err), '\n')) do
          out('  # ' .. line)
        end
      end
    end
    if skipped > 0 then
      out(('neovim: %d skipped'):format(skipped))
    end
    out(('neovim: %d passed, %d failed'):format(passed, failed))
    for _, running in ipairs(vim.lsp.get_clients()) do
      running:stop()
    end
    vim.wait(2000, function()
      return #vim.lsp.get_clients() == 0
    end)
    vim.fn.delete(tmp, 'rf')
    if failed > 0 then
      vim.cmd('cquit 1')
    else
      vim.cmd('qall!')
    end
  end),
})
