-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:once, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:once with one argument too many
  pcall(function() local v = rig.idle; v:once(1) end)
  -- Node:once(self = nil)
  pcall(function() local v = rig.idle; v.once(nil) end)
  -- Node:once(self = a number)
  pcall(function() local v = rig.idle; v.once(12345) end)
  -- Node:once(self = a string)
  pcall(function() local v = rig.idle; v.once('bogus') end)
  -- Node:once(self = a table)
  pcall(function() local v = rig.idle; v.once({}) end)
  -- Node:once(self = another userdata)
  pcall(function() local v = rig.idle; v.once(mask.all()) end)
  -- Node:once(self = a function)
  pcall(function() local v = rig.idle; v.once(print) end)
  error('api_args: 7 wrong calls of Node:once made')
end
