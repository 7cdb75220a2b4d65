-- expect: main.lua:6: instruction budget of 200000 exceeded (infinite loop?)
-- take: t
local rig = marionette.rig()
return graph {
  root = rig.idle,
  post = function(pose, ctx) while true do end end,
  takes = { t = { duration = 1 } },
}
