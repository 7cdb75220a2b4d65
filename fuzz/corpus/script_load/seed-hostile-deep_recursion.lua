-- expect: memory limit exceeded
-- Lua stops it either at its stack limit or, first here, at the memory limit.
local function f() return 1 + f() end
f()
