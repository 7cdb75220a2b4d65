-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:at, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:at with one argument too many
  pcall(function() local v = rig.idle; v:at(0.1, 1) end)
  -- Node:at with one argument too few
  pcall(function() local v = rig.idle; v:at() end)
  -- Node:at(self = nil)
  pcall(function() local v = rig.idle; v.at(nil, 0.1) end)
  -- Node:at(self = a number)
  pcall(function() local v = rig.idle; v.at(12345, 0.1) end)
  -- Node:at(self = a string)
  pcall(function() local v = rig.idle; v.at('bogus', 0.1) end)
  -- Node:at(self = a table)
  pcall(function() local v = rig.idle; v.at({}, 0.1) end)
  -- Node:at(self = another userdata)
  pcall(function() local v = rig.idle; v.at(mask.all(), 0.1) end)
  -- Node:at(self = a function)
  pcall(function() local v = rig.idle; v.at(print, 0.1) end)
  -- Node:at(seconds = nil)
  pcall(function() local v = rig.idle; v:at(nil) end)
  -- Node:at(seconds = a string)
  pcall(function() local v = rig.idle; v:at('bogus') end)
  -- Node:at(seconds = a table)
  pcall(function() local v = rig.idle; v:at({}) end)
  -- Node:at(seconds = another userdata)
  pcall(function() local v = rig.idle; v:at(rig.idle) end)
  -- Node:at(seconds = a function)
  pcall(function() local v = rig.idle; v:at(print) end)
  error('api_args: 13 wrong calls of Node:at made')
end
