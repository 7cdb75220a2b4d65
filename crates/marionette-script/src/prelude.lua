-- The Lua side of the sandbox (see sandbox.rs and budget.rs): wrappers that need Lua semantics
-- (varargs, file objects) and those that keep every Lua entry under the instruction budget.
local read_file, forbid, check, charge, check_source = ...
local raw_load, raw_setmetatable, raw_pcall = load, setmetatable, pcall
local rawget, type, error, tonumber, select = rawget, type, error, tonumber, select
local pack, unpack = table.pack, table.unpack
local tointeger = math.tointeger
local co_resume = coroutine.resume

local raw_concat = table.concat
load = function(chunk, name, mode, ...)
  if mode ~= nil and mode ~= "t" then
    error("load: binary chunks are not allowed in Marionette scripts (sandbox)", 2)
  end
  if type(chunk) == "function" then
    local parts = {}
    while true do
      local piece = chunk()
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then return nil, "reader function must return a string" end
      parts[#parts + 1] = piece
    end
    chunk = raw_concat(parts)
  end
  if type(chunk) == "string" then
    local refused = check_source(chunk, name)
    if refused then return nil, refused end
  end
  return raw_load(chunk, name, "t", ...)
end

-- Finalisers run with Lua's hooks off, so no budget could stop one: refuse them.
setmetatable = function(t, mt)
  if type(t) ~= "table" then
    error("bad argument #1 to 'setmetatable' (table expected, got " .. type(t) .. ")", 2)
  end
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc finalisers are not allowed in Marionette scripts "
      .. "(sandbox: they would run outside the instruction budget)", 2)
  end
  return raw_setmetatable(t, mt)
end

-- Anything that catches errors raises a spent budget again (check() raises it).
local function checked(ok, ...)
  if not ok then check() end
  return ok, ...
end
pcall = function(f, ...)
  return checked(raw_pcall(f, ...))
end
-- A message handler runs where the error was raised, which for the budget's own error is
-- inside the hook, with hooks off: run the handler after unwinding instead, like a normal call.
xpcall = function(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  local r = pack(raw_pcall(f, ...))
  if r[1] then return unpack(r, 1, r.n) end
  check()
  local ok, v = raw_pcall(handler, r[2])
  if not ok then check() end
  return false, v
end
coroutine.resume = function(co, ...)
  return checked(co_resume(co, ...))
end
-- Library loops that run in C, without VM instructions, are charged by their length.
local function int(v)
  local n = tonumber(v)
  return n and tointeger(n)
end
local function span(i, j)
  i, j = int(i), int(j)
  if i and j and j >= i then return (j + 0.0) - i + 1 end
  return 0
end
local function charge_span(i, j, what)
  local n = span(i, j)
  if n > 0 then charge(n, what) end
end
local raw_move, raw_sort, raw_insert, raw_remove = table.move, table.sort, table.insert,
  table.remove
table.move = function(a1, f, e, t, ...)
  charge_span(f, e, "table.move")
  return raw_move(a1, f, e, t, ...)
end
table.concat = function(list, sep, i, j)
  if type(list) == "table" then
    if i == nil then i = 1 end
    if j == nil then j = #list end
    charge_span(i, j, "table.concat")
  end
  return raw_concat(list, sep, i, j)
end
table.sort = function(list, ...)
  if type(list) == "table" then
    local n = span(1, #list)
    local log2 = 1
    while 2 ^ log2 < n do log2 = log2 + 1 end
    if n > 0 then charge(2 * n * log2, "table.sort") end
  end
  return raw_sort(list, ...)
end
-- Inserting at or removing from a position shifts the elements after it (`#list` may be a
-- __len that says anything).
table.insert = function(list, ...)
  if select("#", ...) >= 2 and type(list) == "table" then
    charge_span((...), #list + 1, "table.insert")
  end
  return raw_insert(list, ...)
end
table.remove = function(list, pos)
  if pos ~= nil and type(list) == "table" then
    charge_span(pos, #list, "table.remove")
  end
  return raw_remove(list, pos)
end

local function file_object(text)
  local pos = 1
  local f = {}
  function f:read(fmt)
    fmt = fmt or "l"
    if type(fmt) == "string" then fmt = fmt:gsub("^%*", "") end
    if fmt == "a" then local s = text:sub(pos); pos = #text + 1; return s end
    if pos > #text then return nil end
    local e = text:find("\n", pos, true)
    local line
    if e then line = text:sub(pos, fmt == "L" and e or e - 1); pos = e + 1
    else line = text:sub(pos); pos = #text + 1 end
    return line
  end
  function f:lines() return function() return f:read("l") end end
  function f:close() return true end
  return f
end
io = {
  open = function(path, mode)
    local text, err = read_file(path, mode)
    if not text then return nil, err end
    return file_object(text)
  end,
  lines = function(path)
    local text, err = read_file(path, "r")
    if not text then error(err, 2) end
    return file_object(text):lines()
  end,
  write = function(...) print(...) end,
  popen = forbid("io.popen"),
  output = forbid("io.output"),
  input = forbid("io.input"),
  tmpfile = forbid("io.tmpfile"),
}
os = {
  clock = os_clock, time = os_time, date = os_date, difftime = os_difftime,
  execute = forbid("os.execute"), remove = forbid("os.remove"), rename = forbid("os.rename"),
  exit = forbid("os.exit"), getenv = forbid("os.getenv"), tmpname = forbid("os.tmpname"),
  setlocale = forbid("os.setlocale"),
}
os_clock, os_time, os_date, os_difftime = nil, nil, nil, nil
dofile = forbid("dofile (use require)")
loadfile = forbid("loadfile (use require)")
string.dump = forbid("string.dump")
package = { loaded = package_loaded, loadlib = forbid("package.loadlib"), searchers = {}, path = "", cpath = "" }
package_loaded = nil
debug = setmetatable({}, { __metatable = false, __index = function(_, k)
  error("debug." .. tostring(k) .. " is not allowed in Marionette scripts (sandbox)", 2)
end })
