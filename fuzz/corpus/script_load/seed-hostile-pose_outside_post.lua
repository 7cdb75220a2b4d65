-- expect: the pose can only be changed inside post(pose, ctx)
-- take: t
-- The pose handle kept from post and used in a predicate, between post calls: no pose there.
local rig = marionette.rig()
local kept
local sm = state_machine {
  start = "a", states = { a = rig.idle, b = rig.walk },
  transitions = {
    { "a", "b", when = function(p) if kept then kept:position("head") end return false end },
  },
}
return graph {
  root = sm,
  post = function(pose, ctx) kept = pose end,
  takes = { t = { duration = 1 } },
}
