-- expect: ok
-- take: t
-- Printing 4 MB every frame keeps at most 1 MiB of text.
local rig = marionette.rig()
local s = ("x"):rep(4 * 1024 * 1024)
return graph {
  root = rig.idle,
  post = function(pose, ctx) print(s) end,
  takes = { t = { duration = 1 } },
}
