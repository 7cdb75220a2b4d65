-- expect: cannot change a protected metatable
-- take: t
-- ctx and its vec3 tables keep their metatables: a script cannot swap them.
local rig = marionette.rig()
params { look = vec3(0, 1, 2) }
return graph {
  root = rig.idle,
  post = function(pose, ctx) setmetatable(ctx.look, {}) end,
  takes = { t = { duration = 0.1 } },
}
