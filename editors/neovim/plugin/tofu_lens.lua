-- Filetype detection for OpenTofu's own file names, which Neovim does not
-- know: .tofu files are `opentofu` (highlighted as terraform), and .tofu.json
-- files stay `json` (a pattern, because the extension alone is `json`).
vim.filetype.add({
  extension = { tofu = 'opentofu' },
  pattern = { ['.*%.tofu%.json'] = 'json' },
})

-- Highlight and comment `opentofu` buffers as `terraform` ones: Vim's syntax
-- file and, with nvim-treesitter's terraform parser, tree-sitter.
vim.treesitter.language.register('terraform', 'opentofu')
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'opentofu',
  group = vim.api.nvim_create_augroup('tofu_lens_filetype', { clear = true }),
  callback = function(args)
    vim.bo[args.buf].syntax = 'terraform'
    vim.bo[args.buf].commentstring = '# %s'
  end,
})

-- Neovim skips a server whose `cmd` is not executable without a word: say
-- once, clearly, that tofu-lens is missing and how to install it, when a
-- configuration file is opened with the server enabled.
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'terraform', 'tf', 'opentofu', 'terraform-vars', 'hcl', 'json' },
  group = vim.api.nvim_create_augroup('tofu_lens_missing_binary', { clear = true }),
  callback = function(args)
    if vim.g.tofu_lens_missing_reported or not (vim.lsp.is_enabled and vim.lsp.is_enabled('tofu_lens')) then
      return
    end
    local name = vim.api.nvim_buf_get_name(args.buf)
    local served = false
    for _, suffix in ipairs({ '.tf', '.tofu', '.tf.json', '.tofu.json', '.tfvars', '.tfvars.json', '.tftest.hcl', '.tftest.json', '.tofutest.hcl', '.tofutest.json' }) do
      served = served or name:sub(-#suffix) == suffix
    end
    local cmd = vim.lsp.config.tofu_lens and vim.lsp.config.tofu_lens.cmd
    if not served or type(cmd) ~= 'table' or vim.fn.executable(cmd[1]) == 1 then
      return
    end
    vim.g.tofu_lens_missing_reported = true
    vim.notify(
      ('tofu-lens: `%s` is not on PATH. Install it with `cargo install --locked --path crates/tofu-lens` '
        .. "from the tofu-lens repository, or point `vim.lsp.config('tofu_lens', { cmd = { '/path/to/tofu-lens', 'serve' } })` at it."):format(
        cmd[1]
      ),
      vim.log.levels.WARN
    )
  end,
})
