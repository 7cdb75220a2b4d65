-- expect: ok
-- A __gc added after setmetatable does not mark the object (Lua 5.4): harmless, never runs.
local mt = {}
KEEP = setmetatable({}, mt)
mt.__gc = function() while true do end end
collectgarbage()
local rig = marionette.rig()
return graph { root = rig.idle }
