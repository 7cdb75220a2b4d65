-- Locomotion for the bundled mannequin: idle -> walk -> run by speed, a jump on a trigger
-- (inertial transitions), planted feet held by a foot lock, a waving right arm layered over the
-- upper body, the head looking at a point, and a face (morph targets: blink, smile, jaw_open)
-- that smiles while waving and blinks. It asserts its own motion quality, so CI holds it.
--
--   marionette check scripts/locomotion.lua --report quality.json
--   marionette run scripts/locomotion.lua --take walk_to_run --time 2.5 --json

local rig = marionette.rig()              -- the character being edited (default: the mannequin)

params {
  speed = float(0, 0, 6),                 -- metres per second
  jump  = trigger(),
  look  = vec3(0, 1.6, 2),                -- model-space point the head turns to
  wave  = float(0, 0, 1),                 -- how much of the wave shows
  smile = float(0, 0, 1),                 -- morph target weights, keyed by the takes
  blink = float(0, 0, 1),
}

-- checked on every frame of every take by `check` and `bake` (exit 1, nothing written)
assert_motion {
  foot_slide_mm = 2.5,                    -- planted feet travel at most 2.5 mm (1.99 today)
  max_joint_speed = 1500,                 -- degrees per second
  limits = { L_calf = { max = 150 }, R_calf = { max = 150 } },  -- degrees from rest
}

-- feet stay in step when walk and run blend (sync)
local move = blend1d("speed", {
  { 0.0, rig.idle },
  { 1.4, rig.walk },
  { 4.0, rig.run },
}, { sync = true })

local body = state_machine {
  start = "move",
  states = {
    move = move,
    jump = rig.jump:once(),
  },
  transitions = {
    -- inertial: the new state plays at once and the old pose's offset fades out, smooth in
    -- velocity, for the cost of one pose
    { "move", "jump", on = "jump", blend = 0.15, mode = "inertial" },
    { "jump", "move", at_end = true, blend = 0.25, mode = "inertial" },
  },
}

return graph {
  root = layer(body, { rig.wave, mask = mask.subtree("R_clavicle"), weight = "wave" }),

  -- evaluated in Rust every frame; no Lua runs per frame
  post = {
    ik.look_at("head", "look", { weight = 0.7, limit = 60 }),
    ik.foot_lock({ "L_foot", "R_foot" }),  -- planted feet stay put (world space)
    morph.set("smile", "smile"),
    morph.set("blink", "blink"),
  },

  root_motion = "ground",

  takes = {
    walk_to_run = {
      duration = 4,
      speed = { { 0, 0 }, { 1, 1.4 }, { 3, 4.0 } },
      jump  = { 2.0 },
      look  = { { 0, { -1, 1.6, 2 } }, { 4, { 1, 1.6, 2 } } },
      blink = { { 0.8, 0 }, { 0.9, 1 }, { 1.0, 0 }, { 3.2, 0 }, { 3.3, 1 }, { 3.4, 0 } },
    },
    hello = {
      duration = 3, fps = 30,
      wave  = { { 0, 0 }, { 0.5, 1 }, { 2.5, 1 }, { 3, 0 } },
      smile = { { 0, 0 }, { 0.6, 1 }, { 2.4, 1 }, { 3, 0 } },
      look  = { { 0, { 0, 1.7, 2 } } },
    },
  },
}
