-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:mirror, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:mirror with one argument too many
  pcall(function() local v = rig.idle; v:mirror(1) end)
  -- Node:mirror(self = nil)
  pcall(function() local v = rig.idle; v.mirror(nil) end)
  -- Node:mirror(self = a number)
  pcall(function() local v = rig.idle; v.mirror(12345) end)
  -- Node:mirror(self = a string)
  pcall(function() local v = rig.idle; v.mirror('bogus') end)
  -- Node:mirror(self = a table)
  pcall(function() local v = rig.idle; v.mirror({}) end)
  -- Node:mirror(self = another userdata)
  pcall(function() local v = rig.idle; v.mirror(mask.all()) end)
  -- Node:mirror(self = a function)
  pcall(function() local v = rig.idle; v.mirror(print) end)
  error('api_args: 7 wrong calls of Node:mirror made')
end
