-- expect: ok
-- take: t
-- Huge translations push the arm's bones to infinite length; two-bone IK then leaves the pose
-- as it is instead of clamping with NaN bounds (a panic).
local rig = marionette.rig()
return graph {
  root = rig.idle,
  takes = { t = { duration = 0.05 } },
  post = function(pose, ctx)
    pose:translate("L_upperarm", {3e38, 0, 0})
    pose:translate("L_upperarm", {3e38, 0, 0})
    pose:two_bone_ik("L_hand", {0.3, 1, 0.3}, { pole = {0, 1, 1} })
  end,
}
