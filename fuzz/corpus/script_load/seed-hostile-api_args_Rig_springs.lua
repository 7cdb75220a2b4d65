-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Rig:springs, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Rig:springs with one argument too many
  pcall(function() local v = rig; v:springs({ weight = 1 }, 1) end)
  -- Rig:springs(self = nil)
  pcall(function() local v = rig; v.springs(nil, { weight = 1 }) end)
  -- Rig:springs(self = a number)
  pcall(function() local v = rig; v.springs(12345, { weight = 1 }) end)
  -- Rig:springs(self = a string)
  pcall(function() local v = rig; v.springs('bogus', { weight = 1 }) end)
  -- Rig:springs(self = a table)
  pcall(function() local v = rig; v.springs({}, { weight = 1 }) end)
  -- Rig:springs(self = another userdata)
  pcall(function() local v = rig; v.springs(rig.idle, { weight = 1 }) end)
  -- Rig:springs(self = a function)
  pcall(function() local v = rig; v.springs(print, { weight = 1 }) end)
  -- Rig:springs(opts = a number)
  pcall(function() local v = rig; v:springs(12345) end)
  -- Rig:springs(opts = a string)
  pcall(function() local v = rig; v:springs('bogus') end)
  -- Rig:springs(opts = another userdata)
  pcall(function() local v = rig; v:springs(rig.idle) end)
  -- Rig:springs(opts = a function)
  pcall(function() local v = rig; v:springs(print) end)
  error('api_args: 11 wrong calls of Rig:springs made')
end
