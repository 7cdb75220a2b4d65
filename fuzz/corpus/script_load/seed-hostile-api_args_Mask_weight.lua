-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Mask:weight, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Mask:weight with one argument too many
  pcall(function() local v = mask.all(); v:weight('head', 1) end)
  -- Mask:weight with one argument too few
  pcall(function() local v = mask.all(); v:weight() end)
  -- Mask:weight(self = nil)
  pcall(function() local v = mask.all(); v.weight(nil, 'head') end)
  -- Mask:weight(self = a number)
  pcall(function() local v = mask.all(); v.weight(12345, 'head') end)
  -- Mask:weight(self = a string)
  pcall(function() local v = mask.all(); v.weight('bogus', 'head') end)
  -- Mask:weight(self = a table)
  pcall(function() local v = mask.all(); v.weight({}, 'head') end)
  -- Mask:weight(self = another userdata)
  pcall(function() local v = mask.all(); v.weight(rig.idle, 'head') end)
  -- Mask:weight(self = a function)
  pcall(function() local v = mask.all(); v.weight(print, 'head') end)
  -- Mask:weight(joint = nil)
  pcall(function() local v = mask.all(); v:weight(nil) end)
  -- Mask:weight(joint = a number)
  pcall(function() local v = mask.all(); v:weight(12345) end)
  -- Mask:weight(joint = a table)
  pcall(function() local v = mask.all(); v:weight({}) end)
  -- Mask:weight(joint = another userdata)
  pcall(function() local v = mask.all(); v:weight(rig.idle) end)
  -- Mask:weight(joint = a function)
  pcall(function() local v = mask.all(); v:weight(print) end)
  error('api_args: 13 wrong calls of Mask:weight made')
end
