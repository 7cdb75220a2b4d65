-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Rig:clip, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Rig:clip with one argument too many
  pcall(function() local v = rig; v:clip('idle', 1) end)
  -- Rig:clip with one argument too few
  pcall(function() local v = rig; v:clip() end)
  -- Rig:clip(self = nil)
  pcall(function() local v = rig; v.clip(nil, 'idle') end)
  -- Rig:clip(self = a number)
  pcall(function() local v = rig; v.clip(12345, 'idle') end)
  -- Rig:clip(self = a string)
  pcall(function() local v = rig; v.clip('bogus', 'idle') end)
  -- Rig:clip(self = a table)
  pcall(function() local v = rig; v.clip({}, 'idle') end)
  -- Rig:clip(self = another userdata)
  pcall(function() local v = rig; v.clip(rig.idle, 'idle') end)
  -- Rig:clip(self = a function)
  pcall(function() local v = rig; v.clip(print, 'idle') end)
  -- Rig:clip(name = nil)
  pcall(function() local v = rig; v:clip(nil) end)
  -- Rig:clip(name = a number)
  pcall(function() local v = rig; v:clip(12345) end)
  -- Rig:clip(name = a table)
  pcall(function() local v = rig; v:clip({}) end)
  -- Rig:clip(name = another userdata)
  pcall(function() local v = rig; v:clip(rig.idle) end)
  -- Rig:clip(name = a function)
  pcall(function() local v = rig; v:clip(print) end)
  error('api_args: 13 wrong calls of Rig:clip made')
end
