-- Fuzz seed: every sandbox refusal, caught, then a minimal graph.
local refused = {}
for _, f in ipairs {
  function() os.execute("ls") end, function() io.popen("ls") end, function() os.remove("x") end,
  function() os.exit(1) end, function() package.loadlib("x", "y") end, function() dofile("x.lua") end,
  function() loadfile("x.lua") end, function() string.dump(print) end, function() debug.getinfo(1) end,
  function() load("return 1", "x", "b") end, function() assert(io.open("/etc/passwd")) end,
  function() assert(io.open("../x.lua")) end, function() assert(io.open("data.txt", "w")) end,
  function() require("../evil") end, function() require("/etc/passwd") end,
  function() setmetatable(_G, nil).x = 1 end, function() collectgarbage("count") end,
} do
  local ok, err = pcall(f)
  refused[#refused + 1] = tostring(ok) .. " " .. tostring(err)
end
print(table.concat(refused, "\n"))
local t = setmetatable({}, { __index = function(_, k) return k end, __gc = function() end })
assert(t.abc == "abc")
assert(("x"):rep(3) == "xxx" and ("a,b"):find(",", 1, true) == 2)
local rig = marionette.rig()
return graph { root = rig.idle }
