-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:speed, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:speed with one argument too many
  pcall(function() local v = rig.idle; v:speed(1.5, 1) end)
  -- Node:speed with one argument too few
  pcall(function() local v = rig.idle; v:speed() end)
  -- Node:speed(self = nil)
  pcall(function() local v = rig.idle; v.speed(nil, 1.5) end)
  -- Node:speed(self = a number)
  pcall(function() local v = rig.idle; v.speed(12345, 1.5) end)
  -- Node:speed(self = a string)
  pcall(function() local v = rig.idle; v.speed('bogus', 1.5) end)
  -- Node:speed(self = a table)
  pcall(function() local v = rig.idle; v.speed({}, 1.5) end)
  -- Node:speed(self = another userdata)
  pcall(function() local v = rig.idle; v.speed(mask.all(), 1.5) end)
  -- Node:speed(self = a function)
  pcall(function() local v = rig.idle; v.speed(print, 1.5) end)
  -- Node:speed(rate = nil)
  pcall(function() local v = rig.idle; v:speed(nil) end)
  -- Node:speed(rate = a table)
  pcall(function() local v = rig.idle; v:speed({}) end)
  -- Node:speed(rate = another userdata)
  pcall(function() local v = rig.idle; v:speed(rig.idle) end)
  -- Node:speed(rate = a function)
  pcall(function() local v = rig.idle; v:speed(print) end)
  error('api_args: 12 wrong calls of Node:speed made')
end
