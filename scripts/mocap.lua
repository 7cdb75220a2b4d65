-- A motion capture on the character. capture_walk.bvh (beside this script, made in Blender by
-- tests/fixtures/mocap/make_mocap.py) is what captures look like: another body (1.56 m, long
-- arms), a rest with the hips at the origin and the legs splayed, a Z-up file in centimetres,
-- 120 frames a second. `retarget` lands it on the mannequin's floor, aligns the two rests in a
-- T-pose (they differ by more than 15 degrees: a note says so) and keeps the feet planted.
--
--   marionette check scripts/mocap.lua
--   marionette edit scripts/mocap.lua          (the capture's skeleton walks beside, in green)
--   marionette bake scripts/capture_walk.bvh --retarget-to assets/mannequin.glb --unit cm -o walk_on_mannequin.glb

local me = marionette.rig()                                         -- the character
local capture = marionette.rig("capture_walk.bvh", { unit = "cm" }) -- a BVH: one clip, named after the file

params { mocap = float(1, 0, 1) }                                   -- how much of the capture shows

return graph {
  root = blend1d("mocap", {
    { 0, me.idle },
    { 1, retarget(capture.capture_walk, { from = capture }) },
  }),
  root_motion = "ground",
  takes = {
    capture = {
      duration = 2,
      -- bake passes: run over the whole take before anything shows or bakes it (--no-passes
      -- and the editor's "passes" toggle show the raw graph)
      passes = {
        pass.despike {},                -- a capture's flips (a joint turning > 1500 deg/s and back), each listed
        pass.foot_lock { blend = 0.1 }, -- the feet held over their contacts, knowing what comes next
      },
    },
  },
}
