-- Animation on twos: stepped(node, fps) runs a node's time in whole steps of 1/fps seconds, so
-- the pose holds between steps (12 steps a second: each pose shows for five 60 Hz frames).
-- A parameter fades the stepped walk over the smooth one, and another sets the steps.
--
--   marionette run scripts/stepped.lua --take on_twos --time 0.5 --json
--   marionette edit scripts/stepped.lua

local rig = marionette.rig()

params {
  choppy = float(1, 0, 1),                -- 1: all stepped, 0: the smooth walk
  steps  = float(12, 0, 30),              -- steps a second (0: continuous)
}

return graph {
  root = layer(rig.walk, { stepped(rig.walk, "steps"), weight = "choppy" }),
  takes = {
    on_twos   = { duration = 2, choppy = { {0, 1}, {1.5, 1}, {2, 0} } },
    on_threes = { duration = 2, steps = { {0, 8} } },
  },
}
