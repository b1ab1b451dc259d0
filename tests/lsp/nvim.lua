-- Neovim's built-in LSP client against `sm-preflight lsp`, headless:
--   SMP_CLI=build/sm-preflight SMP_SPEC=/tmp/ws/spec.yaml SMP_ROOT=/tmp/ws \
--     nvim --headless --clean -c 'luafile tests/lsp/nvim.lua'
-- Opens a broken spec, waits for diagnostics with rule ids, asks for the
-- code actions on the GPU_NUM_DEVICES line, applies the preferred fix,
-- checks the buffer, and hovers on the instance type. Exits 0 or 1.
local cli, spec, root = os.getenv('SMP_CLI'), os.getenv('SMP_SPEC'),
	os.getenv('SMP_ROOT')
local failed = 0

local function check(cond, what)
	io.stdout:write((cond and 'ok   ' or 'FAIL ') .. what .. '\n')
	if not cond then failed = failed + 1 end
end

local function finish()
	io.stdout:flush()
	vim.cmd(failed == 0 and 'qall!' or 'cquit 1')
end

vim.cmd('edit ' .. vim.fn.fnameescape(spec))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
	name = 'sm-preflight',
	cmd = { cli, 'lsp' },
	root_dir = root,
	init_options = { debounceMs = 50 },
})
check(id ~= nil, 'the client started the server')
vim.lsp.buf_attach_client(buf, id)

local function codes()
	local t = {}
	for _, d in ipairs(vim.diagnostic.get(buf)) do t[d.code] = d end
	return t
end

vim.wait(10000, function() return codes()['gpu-num-devices-mismatch'] end, 50)
local d = codes()['gpu-num-devices-mismatch']
check(d ~= nil, 'diagnostics with rule ids')
if not d then return finish() end
check(d.lnum == 16 and d.col == 19 and d.source == 'sm-preflight',
	('at line 17, column 20 (lnum %d col %d)'):format(d.lnum, d.col))
check(codes()['compiler-debug'] ~= nil, 'compiler-debug too')

local params = {
	textDocument = { uri = vim.uri_from_bufnr(buf) },
	range = { start = { line = 16, character = 20 },
		['end'] = { line = 16, character = 20 } },
	context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, 16) },
}
local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params,
	10000)
local fix
for _, r in pairs(res or {}) do
	for _, a in ipairs(r.result or {}) do
		if a.isPreferred then fix = a end
	end
end
check(fix ~= nil, 'a preferred quickfix: ' .. (fix and fix.title or 'none'))
if fix then
	vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
	local line = vim.api.nvim_buf_get_lines(buf, 16, 17, false)[1]
	check(line == '  GPU_NUM_DEVICES: "4"', 'the buffer after the fix: ' .. line)
	vim.wait(10000, function()
		return codes()['gpu-num-devices-mismatch'] == nil
	end, 50)
	check(codes()['gpu-num-devices-mismatch'] == nil,
		'the finding is gone after the edit')
end

local h = vim.lsp.buf_request_sync(buf, 'textDocument/hover', {
	textDocument = { uri = vim.uri_from_bufnr(buf) },
	position = { line = 5, character = 20 },
}, 10000)
local text = ''
for _, r in pairs(h or {}) do
	if r.result then text = r.result.contents.value end
end
check(text:find('4 x V100', 1, true) ~= nil, 'hover on the instance type')

vim.lsp.stop_client(id)
finish()
