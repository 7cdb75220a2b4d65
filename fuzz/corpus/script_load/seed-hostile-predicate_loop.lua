-- expect: main.lua:7: instruction budget of 200000 exceeded (infinite loop?)
-- take: t
local rig = marionette.rig()
local sm = state_machine {
  start = "a", states = { a = rig.idle, b = rig.walk },
  transitions = {
    { "a", "b", when = function(p) while true do end end },
  },
}
return graph { root = sm, takes = { t = { duration = 1 } } }
