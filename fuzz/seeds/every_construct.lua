-- Fuzz seed: every node kind, mask operation, transition form and post op on the mannequin.
local rig = marionette.rig()
params { x = float(0.2, -1, 1), y = float(0.3, -1, 1), go = trigger(), on = bool(true), aim = vec3(0, 1, 1) }
local space = blend2d("x", "y", { {0, 0, rig.idle}, {1, 0, rig.walk}, {0, 1, rig.run} }, { sync = true })
local mixed = blend { { space, 0.5 }, { rig.walk:mirror():speed(1.5), "x" } }
local added = additive(mixed, rig.wave:at(0.2), { weight = 0.5, reference = rig.wave })
local upper = (mask.subtree("spine_01") - mask.subtree("L_upperarm")) + mask.joints { "head", L_hand = 0.5 }
local m = state_machine {
  start = "a",
  states = { a = added, b = mirror(rig.run), c = rig.jump:once() },
  transitions = {
    { "a", "b", when = "x > 0.1 and on", blend = 0.1, curve = { 0.4, 0, 0.6, 1 } },
    { "b", "c", on = "go", curve = function(t) return t * t end },
    { "*", "a", when = { on = false } },
    { "c", "a", at_end = true, source = "frozen" },
    { "a", "c", exit_time = 0.9, curve = "ease_out" },
  },
}
return graph {
  root = layer(m, { rig.wave, mask = upper * 0.8, weight = "y" }, { rig.idle, additive = true, mask = mask.side("left") }),
  post = { ik.look_at("head", "aim", { limit = 45, axis = "z" }), ik.two_bone("L_hand", { 0.5, 1.5, 0.2 }, { pole = { 0, 1, -1 } }),
           adjust.rotate("spine_01", { 0, 10, 0 }), adjust.translate("pelvis", { 0, -0.1, 0 }, { space = "model", weight = "y" }) },
  root_motion = "whole",
  takes = {
    turn = { duration = 2, x = { { 0, -1 }, { 2, 1 } }, y = { { 0, 0 }, { 1, 1, step = true } }, go = { 0.5, 1.5 },
             aim = { { 0, { 0, 1, 2 } }, { 2, { 1, 1.5, 0 } } }, on = { { 0, true }, { 1.8, false } },
             markers = { { 0.25, "start" }, { 1.0, "middle" } } },
    still = { duration = 0.5, fps = 24 },
  },
}
