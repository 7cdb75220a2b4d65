-- expect: cannot change a protected metatable
-- take: t
local rig = marionette.rig()
params { speed = float(0, 0, 1) }
return graph {
  root = rig.idle,
  post = function(pose, ctx) assert(getmetatable(ctx) == false); setmetatable(ctx, nil) end,
  takes = { t = { duration = 0.1 } },
}
