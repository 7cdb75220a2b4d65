-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Rig:joint, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Rig:joint with one argument too many
  pcall(function() local v = rig; v:joint('head', 1) end)
  -- Rig:joint with one argument too few
  pcall(function() local v = rig; v:joint() end)
  -- Rig:joint(self = nil)
  pcall(function() local v = rig; v.joint(nil, 'head') end)
  -- Rig:joint(self = a number)
  pcall(function() local v = rig; v.joint(12345, 'head') end)
  -- Rig:joint(self = a string)
  pcall(function() local v = rig; v.joint('bogus', 'head') end)
  -- Rig:joint(self = a table)
  pcall(function() local v = rig; v.joint({}, 'head') end)
  -- Rig:joint(self = another userdata)
  pcall(function() local v = rig; v.joint(rig.idle, 'head') end)
  -- Rig:joint(self = a function)
  pcall(function() local v = rig; v.joint(print, 'head') end)
  -- Rig:joint(name = nil)
  pcall(function() local v = rig; v:joint(nil) end)
  -- Rig:joint(name = a number)
  pcall(function() local v = rig; v:joint(12345) end)
  -- Rig:joint(name = a table)
  pcall(function() local v = rig; v:joint({}) end)
  -- Rig:joint(name = another userdata)
  pcall(function() local v = rig; v:joint(rig.idle) end)
  -- Rig:joint(name = a function)
  pcall(function() local v = rig; v:joint(print) end)
  error('api_args: 13 wrong calls of Rig:joint made')
end
