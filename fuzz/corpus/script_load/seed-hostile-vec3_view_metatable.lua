-- expect: main.lua:9: attempt to index a boolean value
-- take: t
-- The metatable of ctx's vec3 tables is protected: getmetatable gives false, so its C
-- functions cannot be fetched and called with a non-table (which read through a wild pointer).
local rig = marionette.rig()
params { look = vec3(0, 1, 2) }
return graph {
  root = rig.idle,
  post = function(pose, ctx) local mt = getmetatable(ctx.look); mt.__index(42, "x") end,
  takes = { t = { duration = 0.1 } },
}
