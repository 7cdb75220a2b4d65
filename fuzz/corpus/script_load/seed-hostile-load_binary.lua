-- expect: load: binary chunks are not allowed in Marionette scripts (sandbox)
local _ = load("\27Lua\84\0", "x", "bt")
