-- tofu-lens for Neovim >= 0.11, in the format of nvim-lspconfig's lsp/ files:
-- with this directory on 'runtimepath' (or this file copied to
-- ~/.config/nvim/lsp/tofu_lens.lua), `vim.lsp.enable('tofu_lens')` is all it
-- takes; `vim.lsp.config('tofu_lens', { ... })` changes any field.
--
-- The server reads files ending in .tf, .tofu, .tf.json and .tofu.json
-- (server.md, "Languages served"), the variable definitions files
-- .tfvars and .tfvars.json, and the test files .tftest.hcl, .tofutest.hcl
-- and their .json forms. Neovim calls them terraform (or tf, when the
-- first line starts with / or ;), opentofu (plugin/tofu_lens.lua),
-- terraform-vars, hcl and json; root_dir attaches only to those file names, so
-- other JSON files never start the server.

---@param name string
---@return boolean
local function is_config_file(name)
  for _, suffix in ipairs({ '.tf', '.tofu', '.tf.json', '.tofu.json', '.tfvars', '.tfvars.json', '.tftest.hcl', '.tftest.json', '.tofutest.hcl', '.tofutest.json' }) do
    if name:sub(-#suffix) == suffix then
      return true
    end
  end
  return false
end

---@type vim.lsp.Config
return {
  cmd = { 'tofu-lens', 'serve' },
  filetypes = { 'terraform', 'tf', 'opentofu', 'terraform-vars', 'hcl', 'json' },
  -- Searched in this order: the nearest directory that `tofu init` ran in,
  -- else the repository; else the module directory of the file itself.
  root_markers = { '.terraform', '.git' },
  root_dir = function(bufnr, on_dir)
    local name = vim.api.nvim_buf_get_name(bufnr)
    if not is_config_file(name) then
      return
    end
    local markers = vim.lsp.config.tofu_lens.root_markers or {}
    on_dir(vim.fs.root(bufnr, markers) or vim.fs.dirname(name))
  end,
  -- The server's settings (server.md, "Settings"), with its defaults. They go
  -- out as initializationOptions and answer `workspace/configuration`.
  settings = {
    tofuLens = {
      tofuVersion = '1.12.6',
      diagnostics = { scope = 'workspace' },
      exclude = { '.terraform/**' },
    },
  },
  before_init = function(params, config)
    params.initializationOptions = config.settings.tofuLens
  end,
}
