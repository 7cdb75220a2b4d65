-- expect: the take's total instruction budget of 3000000 exceeded (take 'long', frame 
-- take: long
-- A heavy post on a long take: each frame is within its budget, the take is not.
local rig = marionette.rig()
return graph {
  root = rig.idle,
  post = function(pose, ctx) for _ = 1, 20000 do end end,
  takes = { long = { duration = 120, fps = 120 } },
}
