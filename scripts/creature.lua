-- Procedural rigging on a creature: the mannequin with a tail and ears (creature.glb, beside
-- this script, made by `marionette mannequin --creature`). Its clips leave the tail and ears
-- at rest; everything they do comes from the post operations below, evaluated in Rust every
-- frame, in order, after the blend: an aim, a joint limit, a spring chain with colliders, and
-- the ears' springs as the file sets them.
--
--   marionette check scripts/creature.lua
--   marionette edit scripts/creature.lua           (drag "look"; change stiffness live)
--   marionette bake scripts/creature.lua -o creature_walk.glb

local me = marionette.rig("creature.glb")

params {
  speed = float(0, 0, 1),                 -- idle .. walk
  look = vec3(0.8, 1.6, 2.0),             -- where the head looks (model space, metres)
  tail_stiffness = float(2.5, 0.5, 10),   -- Hz: how fast the tail returns to its pose
}

-- the post operations, in order: the head first, then what hangs from the body
local post = {
  -- the head turns to "look" (at most 70 degrees), its up axis kept up
  constrain.aim("head", "look", { axis = "z", up = "y", limit = 70 }),
  constrain.limit("neck", { cone = 35 }),
  -- the tail: a spring chain that swings behind the body, sags a little and stays clear of
  -- the legs (capsules along the thighs)
  spring("tail_01", {
    stiffness = "tail_stiffness", damping = 0.45, gravity = 2.0, radius = 0.03,
    colliders = {
      capsule("L_thigh", 0.08, { 0, 0, 0 }, { 0, 0.42, 0 }),
      capsule("R_thigh", 0.08, { 0, 0, 0 }, { 0, 0.42, 0 }),
    },
  }),
}
-- the ears: the file's own springs (VRMC_springBone, as a VRM avatar carries them: about 4 Hz,
-- lightly damped, kept off a sphere on the head); they flick when the head turns
for _, ear in ipairs(me:springs()) do post[#post + 1] = ear end

return graph {
  root = blend1d("speed", { { 0, me.idle }, { 1, me.walk } }),
  root_motion = "ground",
  post = post,
  takes = {
    -- stands, turns its head from side to side, then walks off: the tail and ears follow
    look_and_walk = {
      duration = 6,
      look = { { 0, { 0.8, 1.6, 2.0 } }, { 1.2, { -1.2, 1.4, 1.5 } }, { 2.4, { 0.8, 1.8, 2.0 } } },
      speed = { { 2.6, 0 }, { 3.4, 1 } },
    },
  },
}
