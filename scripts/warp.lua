-- Motion warping: the mannequin's jump bent so it lands on "landing", a point that moves while
-- the jump is in the air (a take keys it). Over the window (0.2 s to 0.7 s of the jump) the gap
-- between where the clip would land and the target is added step by step; outside it the
-- motion is the clip's own.
--
--   marionette run scripts/warp.lua --take moving --time 0.7 --json   (the root stands on -0.5, 0, 2)
--   marionette edit scripts/warp.lua                                   (drag "landing" and play)

local rig = marionette.rig()

params { landing = vec3(1.5, 0, 0.8) }      -- world metres; where the character started is the origin

return graph {
  root = warp(rig.jump, { target = "landing", window = { 0.2, 0.7 } }),
  root_motion = "ground",
  takes = {
    still = { duration = 1 },
    moving = { duration = 1, landing = { { 0, { 1.5, 0, 0.8 } }, { 0.5, { -0.5, 0, 2 } } } },
  },
}
