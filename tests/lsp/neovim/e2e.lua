-- Driven by run.sh: Neovim's own LSP client (vim.lsp.start_client, which
-- Debian bookworm's Neovim 0.7 has) against `devport lsp`.
local function fail(msg)
  io.stdout:write("e2e: FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local devport, file = os.getenv("DEVPORT"), os.getenv("FILE")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "devport",
  cmd = { devport, "lsp" },
  root_dir = vim.fn.fnamemodify(file, ":h"),
})
if not id then fail("the client did not start") end
vim.lsp.buf_attach_client(buf, id)

-- 1. The diagnostic appears.
if not vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  fail("no diagnostics within 20 s")
end
local d = vim.diagnostic.get(buf)[1]
local code = (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or d.code
io.stdout:write(string.format("e2e: diagnostic %s at %d:%d: %s\n", tostring(code), d.lnum, d.col, d.message))
if code ~= "cuda-device-count" or d.lnum ~= 2 or d.col ~= 4 then fail("unexpected diagnostic") end

-- 2. The preferred quick fix at the diagnostic edits the buffer.
vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = {}, only = { "quickfix" } }
local results = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000)
local applied = false
for _, res in pairs(results or {}) do
  for _, action in ipairs(res.result or {}) do
    if action.isPreferred and action.edit and not applied then
      io.stdout:write("e2e: applying '" .. action.title .. "'\n")
      vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      applied = true
    end
  end
end
if not applied then fail("no preferred quick fix") end
local line = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
if line ~= "n = torch.accelerator.device_count()" then fail("buffer line is '" .. line .. "'") end

-- 3. The server sees the edit (didChange) and the diagnostic goes away.
if not vim.wait(20000, function() return #vim.diagnostic.get(buf) == 0 end, 20) then
  fail("the diagnostic stayed after the fix")
end
vim.cmd("write")
vim.lsp.stop_client(id)
vim.wait(5000, function() return vim.lsp.get_client_by_id(id) == nil end, 20)
io.stdout:write("e2e: ok\n")
vim.cmd("qall!")
