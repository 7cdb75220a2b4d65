-- expect: main.lua:4: bad argument #1 to 'setmetatable' (table expected, got userdata)
-- An API value keeps its metatable; the refusal names the script's own call.
local rig = marionette.rig()
setmetatable(rig.idle, {})
