-- Clips from another rig, on the character. The puppet (puppet.glb beside this script, made by
-- `marionette mannequin --puppet`) differs from the mannequin in everything a retarget copes
-- with: Mixamo-style names, no root joint, a two-joint spine, longer legs, an A-pose rest,
-- other bone rolls and a Z-up armature in centimetres. Its own clips (March, Bow) play on the
-- mannequin through `retarget`, beside the mannequin's own idle; feet are placed by IK.
--
--   marionette check scripts/retarget.lua
--   marionette edit scripts/retarget.lua        (the puppet's skeleton stands beside, and the map)
--   marionette retarget-map scripts/puppet.glb assets/mannequin.glb   (the map, to paste and edit)
--   marionette bake scripts/puppet.glb --retarget-to assets/mannequin.glb --rest tpose   (every clip, no script)

local me = marionette.rig()                -- the character (the mannequin)
local puppet = marionette.rig("puppet.glb") -- a source rig: its clips go through retarget

params {
  march = float(0, 0, 1),                  -- how much of the puppet's march shows
  bow   = trigger(),
}

-- both rigs aligned in a T-pose first: the puppet rests in an A-pose, the mannequin in a T-pose
local from_puppet = { from = puppet, rest = "tpose" }

local move = blend1d("march", {
  { 0, me.idle },
  { 1, retarget(puppet.March, from_puppet) },
})

local body = state_machine {
  start = "move",
  states = {
    move = move,
    bow = retarget(puppet.Bow:once(), from_puppet),
  },
  transitions = {
    { "move", "bow", on = "bow", blend = 0.3, curve = "smoothstep" },
    { "bow", "move", at_end = true, blend = 0.4, curve = "ease_in_out" },
  },
}

return graph {
  root = body,
  root_motion = "ground",
  takes = {
    march_and_bow = {
      duration = 5, fps = 30,
      march = { { 0, 0 }, { 0.8, 1 }, { 2.6, 1 }, { 3.0, 0 } },
      bow   = { 3.0 },
    },
  },
}
