-- Fuzz seed: a Lua post function using every pose method and the ctx fields, clip events,
-- custom sides, a Lua predicate and a clip built in Lua.
local rig = marionette.rig()
marionette.sides { left = "L_", right = "R_" }
params { speed = float(1, 0, 6), jump = trigger(), look = vec3(0, 1.6, 2), crouch = bool(false) }
local walk = rig.walk:event("foot_l", 0.12):event("foot_r", 0.62)
local keys = {}
for i = 0, 10 do keys[#keys + 1] = { i * 0.1, rotation = { 10 * math.sin(i), 0, 0 }, translation = { 0, 0.01 * i, 0 } } end
local nod = clip("nod", { head = keys })
local move = blend1d("speed", { { 0, rig.idle }, { 1.4, walk }, { 4.0, rig.run } }, { sync = true })
local body = state_machine {
  start = "move",
  states = { move = move, jump = rig.jump:once(), nod = nod:loop() },
  transitions = {
    { "move", "jump", on = "jump", blend = 0.15, curve = "smoothstep" },
    { "jump", "move", at_end = true, blend = 0.25 },
    { "move", "nod", when = function(p) return p.crouch and p.speed < 0.5 end, blend = 0.2 },
    { "nod", "move", when = function(p) return not p.crouch end },
  },
}
return graph {
  root = layer(body, { mirror(rig.wave), mask = mask.side("right"), weight = 0.5 }),
  post = function(pose, ctx)
    pose:look_at("head", ctx.look, { weight = 0.7, limit = 60 })
    pose:two_bone_ik("R_foot", { 0.2, 0.1 + 0.05 * math.sin(ctx.time), 0.1 }, { pole = { 0.2, 0.5, 1 } })
    pose:rotate("spine_02", { 0, 5 * ctx.speed, 0 })
    pose:translate("pelvis", { 0, -0.02, 0 })
    local p = pose:position("L_hand")
    pose:set_translation("R_hand", { p[1] or p.x, 1.2, 0.3 }, { space = "model" })
  end,
  takes = {
    walk_to_run = { duration = 3, speed = { { 0, 0 }, { 1, 1.4 }, { 3, 4.0 } }, jump = { 2.0 },
                    look = { { 0, { 0, 1.6, 2 } }, { 3, { 1, 1.6, 2 } } },
                    crouch = { { 0, false }, { 0.5, true }, { 1, false } },
                    markers = { { 1.0, "walking" } } },
  },
}
