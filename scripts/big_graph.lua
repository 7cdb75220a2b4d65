-- A large graph made by a loop (about 200 nodes): eight "moods", each a blend of six speed
-- blend spaces, as the states of one state machine that walks through them as `mood` rises,
-- with a waving layer on top. Open it with the graph view to see a graph of this size live:
--   marionette edit scripts/big_graph.lua --panel graph
-- and `--stats` to measure the editor's time per frame on it (README: the figures).

local rig = marionette.rig()

params {
  speed = float(1, 0, 6),                 -- metres per second
  mood  = float(0, 0, 1),                 -- which mood state (0..1 across the eight)
  wave  = float(0, 0, 1),
}

local MOODS, SPACES = 8, 6

-- one mood: SPACES speed blend spaces (each idle, walk and run), blended evenly
local function mood()
  local inputs = {}
  for k = 1, SPACES do
    local space = blend1d("speed", {
      { 0.0, rig.idle },
      { 1.4 + 0.05 * k, rig.walk },
      { 4.0, rig.run },
    }, { sync = true })
    inputs[k] = { space, 1 / SPACES }
  end
  return blend(inputs)
end

local states, transitions = {}, {}
for m = 1, MOODS do
  states["mood_" .. m] = mood()
  if m > 1 then
    local edge = (m - 1) / MOODS
    transitions[#transitions + 1] =
      { "mood_" .. (m - 1), "mood_" .. m, when = { mood = { ">", edge } }, blend = 0.3 }
    transitions[#transitions + 1] =
      { "mood_" .. m, "mood_" .. (m - 1), when = { mood = { "<", edge } }, blend = 0.3 }
  end
end

local moods = state_machine { start = "mood_1", states = states, transitions = transitions }

return graph {
  root = layer(moods, { rig.wave, mask = mask.subtree("R_clavicle"), weight = "wave" }),
  root_motion = "ground",
  takes = {
    -- keys with tangents: "auto" is smooth through a key, "flat" eases in and out of it,
    -- slope_in / slope_out give the slope (value per second); the editor draws the same curves
    moods = {
      duration = 8,
      speed = { { 0, 0.5, ease = "flat" }, { 4, 3, ease = "auto" }, { 8, 1, ease = "flat" } },
      mood  = { { 0, 0, ease = "flat" }, { 8, 1, ease = "flat" } },
      wave  = { { 0, 0 }, { 2, 1, slope_in = 0.2, slope_out = 0 }, { 6, 1, ease = "flat" }, { 8, 0 } },
    },
  },
}
