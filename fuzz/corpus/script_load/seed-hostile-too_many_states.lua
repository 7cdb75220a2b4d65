-- expect: state_machine: 65537 states; at most 65536 are allowed
-- The graph numbers states with 16 bits: state 65537 would have been given state 65536's id.
local rig = marionette.rig()
local states = {}
for i = 1, 65537 do states["s" .. i] = rig.idle end
return graph { root = state_machine { start = "s1", states = states } }
