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
