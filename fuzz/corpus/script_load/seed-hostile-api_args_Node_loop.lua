-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:loop, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:loop with one argument too many
  pcall(function() local v = rig.idle; v:loop(1) end)
  -- Node:loop(self = nil)
  pcall(function() local v = rig.idle; v.loop(nil) end)
  -- Node:loop(self = a number)
  pcall(function() local v = rig.idle; v.loop(12345) end)
  -- Node:loop(self = a string)
  pcall(function() local v = rig.idle; v.loop('bogus') end)
  -- Node:loop(self = a table)
  pcall(function() local v = rig.idle; v.loop({}) end)
  -- Node:loop(self = another userdata)
  pcall(function() local v = rig.idle; v.loop(mask.all()) end)
  -- Node:loop(self = a function)
  pcall(function() local v = rig.idle; v.loop(print) end)
  error('api_args: 7 wrong calls of Node:loop made')
end
