-- referee's language server in Neovim, without plugins: copy this file to
-- ~/.config/nvim/plugin/referee.lua (or paste it into your init.lua).
-- Tried with Neovim 0.7.2 and 0.12.0-dev (editors/try-neovim.sh); the 0.8 to
-- 0.10 branch is written from their documentation of vim.lsp.start.
--
-- Record files are plain text, so no extension tells them apart: here every
-- `.txt` under a folder named `records` gets the filetype `gamerecord`. Change
-- the pattern to where you keep yours, or run `:set filetype=gamerecord`.

local cmd = { 'referee', 'lsp' }

-- The filetype. vim.filetype.add is only used by default from 0.8 on.
if vim.fn.has('nvim-0.8') == 1 then
  vim.filetype.add({ pattern = { ['.*/records/.*%.txt'] = 'gamerecord' } })
else
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    pattern = '*/records/*.txt',
    command = 'setfiletype gamerecord',
  })
end

-- The server. The folder of the file is its root: records need no project.
if vim.fn.has('nvim-0.11') == 1 then
  vim.lsp.config('referee', { cmd = cmd, filetypes = { 'gamerecord' } })
  vim.lsp.enable('referee')
else
  local clients = {} -- root folder -> client id, for 0.7
  vim.api.nvim_create_autocmd('FileType', {
    pattern = 'gamerecord',
    callback = function(args)
      local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h')
      local config = { name = 'referee', cmd = cmd, root_dir = root }
      if vim.lsp.start then
        -- 0.8 to 0.10: starts the server once per root and attaches the buffer.
        vim.lsp.start(config, { bufnr = args.buf })
      else
        -- 0.7: one server per root, kept here so that a second file reuses it.
        local id = clients[root]
        if id == nil or vim.lsp.get_client_by_id(id) == nil then
          id = vim.lsp.start_client(config)
          clients[root] = id
        end
        if id then
          vim.lsp.buf_attach_client(args.buf, id)
        end
      end
    end,
  })
end
