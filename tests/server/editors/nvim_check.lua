-- Headless Neovim 0.7 drives `lintgv server` on one file: waits for lintgv's
-- diagnostics, asks for code actions on the first one, applies the quick fix (not
-- "Ignore ..."), saves the buffer and writes a report.
-- Usage: nvim --headless -u nvim_check.lua FILE
-- Env: LINTGV_PYTHON (a Python with lintgv installed), LINTGV_REPORT (report file).
local python = os.getenv('LINTGV_PYTHON') or 'python3'
local report_path = os.getenv('LINTGV_REPORT') or 'report.txt'
local lines = {}
local function say(text) table.insert(lines, text) end
local function finish(code)
  vim.fn.writefile(lines, report_path)
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.fn.argv(0)))
  local bufnr = vim.api.nvim_get_current_buf()
  -- Neovim 0.7 has no vim.lsp.start: start the client, then attach the buffer.
  local client_id = vim.lsp.start_client({
    name = 'lintgv',
    cmd = { python, '-m', 'lintgv', 'server' },
    root_dir = vim.fn.getcwd(),
  })
  assert(client_id, 'the client did not start')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'the buffer was not attached')
  local got = vim.wait(60000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50)
  assert(got, 'no diagnostics arrived')
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    say(string.format('DIAG %d:%d source=%s code=%s %s', d.lnum, d.col, tostring(d.source),
      tostring(d.code), d.message))
  end
  local d = vim.diagnostic.get(bufnr)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = d.lnum, character = d.col },
              ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, d.lnum) },
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
