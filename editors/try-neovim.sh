#!/usr/bin/env bash
# Tries the Neovim set-ups of README.md ("#### Neovim") on the blog page sample:
# opens it headless with editors/neovim/referee.lua as the init file, waits for
# the diagnostics of `referee lsp`, asks for a hover and the quick fixes at
# 28:31 (an illegal move), counts the symbols and formatting edits, and prints
# them all; then the same with editors/neovim/lspconfig.lua when NVIM_LSPCONFIG
# names a copy of nvim-lspconfig.
#
#   editors/try-neovim.sh path/to/referee
#   NVIM_LSPCONFIG=~/src/nvim-lspconfig editors/try-neovim.sh target/debug/referee
#   NVIM=/opt/nvim-0.11/bin/nvim editors/try-neovim.sh target/debug/referee
#
# Needs nvim (from PATH, or NVIM; tried with 0.7.2 and 0.12.0-dev), so it is
# not part of .ci/run.
# Exit 0 when every set-up tried gave diagnostics, the hover, a quick fix,
# a symbol and an answer to formatting, 1 otherwise.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/referee" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
nvim=${NVIM:-nvim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The set-ups run `referee lsp` from PATH, as a user's would.
mkdir "$work/bin" "$work/records"
ln -s "$(realpath "$1")" "$work/bin/referee"
export PATH="$work/bin:$PATH"
# Nothing of the user's own set-up (plugins, shada, logs) comes in or is written.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
# The set-ups give the filetype to .txt files under a folder named records.
cp "$repo/samples/quadraphages/blog-page.txt" "$work/records/"

cat > "$work/check.lua" <<'LUA'
local out = assert(io.open(os.getenv('TRY_OUT'), 'w'))
local got = vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50)
-- Each call below in the form of the version running (0.7 has only the old ones).
local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = 0 }) or vim.lsp.buf_get_clients(0)
out:write(('filetype %s, %d client(s)\n'):format(vim.bo.filetype, vim.tbl_count(clients)))
for _, d in ipairs(vim.diagnostic.get(0)) do
  out:write(('diagnostic %d:%d %s\n'):format(d.lnum + 1, d.col + 1, d.message))
end
local params = {
  textDocument = { uri = vim.uri_from_bufnr(0) },
  position = { line = 27, character = 30 },
}
local hovered = false
for _, response in pairs(vim.lsp.buf_request_sync(0, 'textDocument/hover', params, 10000) or {}) do
  if response.result then
    local contents = response.result.contents
    out:write('hover at 28:31:\n' .. (contents.value or vim.inspect(contents)) .. '\n')
    hovered = true
  end
end
-- The quick fixes of the diagnostic there, as `vim.lsp.buf.code_action()` asks for them.
params.range = { start = params.position, ['end'] = params.position }
local line = {}
if vim.fn.has('nvim-0.10') == 1 then -- each diagnostic keeps the server's own
  for _, d in ipairs(vim.diagnostic.get(0, { lnum = 27 })) do
    table.insert(line, d.user_data.lsp)
  end
else
  line = vim.lsp.diagnostic.get_line_diagnostics(0, 27)
end
params.context = { diagnostics = line }
params.position = nil
local fixes = 0
for _, response in pairs(vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 10000) or {}) do
  for _, action in ipairs(response.result or {}) do
    out:write('quick fix: ' .. action.title .. '\n')
    fixes = fixes + 1
  end
end
-- The outline and the formatting, counted.
local document = { textDocument = params.textDocument }
local symbols = 0
for _, response in pairs(vim.lsp.buf_request_sync(0, 'textDocument/documentSymbol', document, 10000) or {}) do
  symbols = symbols + #(response.result or {})
end
document.options = { tabSize = 8, insertSpaces = true }
local edits, formatted = 0, false
for _, response in pairs(vim.lsp.buf_request_sync(0, 'textDocument/formatting', document, 10000) or {}) do
  formatted = formatted or response.err == nil
  edits = edits + #(response.result or {})
end
out:write(('%d symbol(s); formatting %s, %d edit(s)\n')
  :format(symbols, formatted and 'answered' or 'not answered', edits))
out:close()
vim.cmd(got and hovered and fixes > 0 and symbols > 0 and formatted and 'qall!' or 'cquit!')
LUA

status=0
try() { # name, extra nvim arguments...
  local name=$1
  shift
  echo "== $name"
  if TRY_OUT="$work/out" "$nvim" --headless "$@" -c "luafile $work/check.lua" \
    "$work/records/blog-page.txt" </dev/null >"$work/nvim.log" 2>&1; then
    cat "$work/out"
    grep -v "^$" "$work/nvim.log" || true
  else
    cat "$work/out" "$work/nvim.log" 2>/dev/null
    echo "FAILED: $name"
    status=1
  fi
}

"$nvim" --version | head -n 1
try "editors/neovim/referee.lua" -u "$repo/editors/neovim/referee.lua"
if [ -n "${NVIM_LSPCONFIG:-}" ]; then
  try "editors/neovim/lspconfig.lua with $NVIM_LSPCONFIG" \
    --cmd "set runtimepath^=$NVIM_LSPCONFIG" -u "$repo/editors/neovim/lspconfig.lua"
fi
exit $status
