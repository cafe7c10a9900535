-- referee's language server through nvim-lspconfig, which has no entry for
-- referee: the entry is defined here, then set up like any other. Copy this
-- into your init.lua after nvim-lspconfig is installed. Tried with Neovim 0.7.2
-- and nvim-lspconfig v0.1.7 (its last tag for 0.7), and with 0.12.0-dev and
-- nvim-lspconfig v2.11.0-49-g221c4388. On Neovim 0.11+ nvim-lspconfig prefers
-- vim.lsp.config, which editors/neovim/referee.lua uses without any plugin.

-- Record files are plain text: here every `.txt` under a folder named `records`
-- is one. Change the pattern to where you keep yours.
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = '*/records/*.txt',
  command = 'setfiletype gamerecord',
})

local configs = require('lspconfig.configs')
if not configs.referee then
  configs.referee = {
    default_config = {
      cmd = { 'referee', 'lsp' },
      filetypes = { 'gamerecord' },
      -- The folder of the file: records need no project around them.
      root_dir = function(fname)
        return vim.fn.fnamemodify(fname, ':p:h')
      end,
      single_file_support = true,
    },
  }
end
require('lspconfig').referee.setup({})
