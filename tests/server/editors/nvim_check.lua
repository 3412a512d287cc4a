-- Headless Neovim (0.7 to 0.11) with README.md's set-up drives `lintgv server` on one file: waits
-- for lintgv's diagnostics, asks for code actions on the first one, applies the quick fix
-- (not "Ignore ..."), saves the buffer and writes a report.
-- Usage: nvim --headless -u nvim_check.lua FILE
-- Env: LINTGV_SNIPPET (README's Lua set-up), LINTGV_REPORT (report file); `lintgv` on PATH.
local report_path = os.getenv('LINTGV_REPORT') or 'report.txt'
local lines = {}
local function say(text) table.insert(lines, text) end
local function finish(code)
  vim.fn.writefile(lines, report_path)
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local ok, err = pcall(function()
  -- The set-up README.md shows, as a user would put it in init.lua.
  dofile(assert(os.getenv('LINTGV_SNIPPET'), 'LINTGV_SNIPPET names the README snippet'))
  -- Neovim turns file-type detection on after the user's init file; this script runs
  -- inside it, so it turns it on itself, as an ordinary start would have.
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.argv(0)))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = nil
  -- vim.lsp.get_clients came with 0.10, when buf_get_clients was deprecated.
  local function clients()
    if vim.lsp.get_clients then return vim.lsp.get_clients({ bufnr = bufnr }) end
    return vim.lsp.buf_get_clients(bufnr)
  end
  local attached = vim.wait(60000, function()
    for _, client in pairs(clients()) do client_id = client.id end
    return client_id ~= nil
  end, 50)
  assert(attached, 'the snippet started no client for the buffer')
  local got = vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  assert(got, 'no diagnostics arrived')
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    say(string.format('DIAG %d:%d source=%s code=%s %s', d.lnum, d.col, tostring(d.source),
      tostring(d.code), d.message))
  end
  local d = vim.diagnostic.get(bufnr)[1]
  -- The server's own diagnostics on a line: from 0.10 each is kept under user_data.lsp
  -- (and get_line_diagnostics is deprecated); before, only get_line_diagnostics has them.
  local function line_diagnostics(buffer, lnum)
    if vim.fn.has('nvim-0.10') == 0 then
      return vim.lsp.diagnostic.get_line_diagnostics(buffer, lnum)
    end
    return vim.tbl_map(function(x) return x.user_data.lsp end,
                       vim.diagnostic.get(buffer, { lnum = lnum }))
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = d.lnum, character = d.col },
              ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = line_diagnostics(bufnr, d.lnum) },
  }
  local answer = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 60000)
  assert(answer and answer[client_id], 'no code action answer')
  assert(not answer[client_id].err, vim.inspect(answer[client_id].err))
  local chosen = nil
  for _, action in ipairs(answer[client_id].result or {}) do
    say(string.format('ACTION kind=%s title=%s', tostring(action.kind), action.title))
    if chosen == nil and action.kind == 'quickfix' and not vim.startswith(action.title, 'Ignore') then
      chosen = action
    end
  end
  assert(chosen and chosen.edit, 'no quick fix with an edit')
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  vim.cmd('write')
  say('APPLIED ' .. chosen.title)
  vim.lsp.stop_client(client_id)
  vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
end)

if ok then
  say('RESULT PASS')
  finish(0)
else
  say('RESULT ERROR ' .. tostring(err))
  finish(1)
end
