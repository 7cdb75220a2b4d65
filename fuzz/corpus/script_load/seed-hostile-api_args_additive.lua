-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- additive, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- additive with one argument too many
  pcall(function() additive(rig.idle, rig.walk, { weight = 0.5 }, 1) end)
  -- additive with one argument too few
  pcall(function() additive(rig.idle) end)
  -- additive(base = nil)
  pcall(function() additive(nil, rig.walk, { weight = 0.5 }) end)
  -- additive(base = a number)
  pcall(function() additive(12345, rig.walk, { weight = 0.5 }) end)
  -- additive(base = a string)
  pcall(function() additive('bogus', rig.walk, { weight = 0.5 }) end)
  -- additive(base = a table)
  pcall(function() additive({}, rig.walk, { weight = 0.5 }) end)
  -- additive(base = another userdata)
  pcall(function() additive(mask.all(), rig.walk, { weight = 0.5 }) end)
  -- additive(base = a function)
  pcall(function() additive(print, rig.walk, { weight = 0.5 }) end)
  -- additive(add = nil)
  pcall(function() additive(rig.idle, nil, { weight = 0.5 }) end)
  -- additive(add = a number)
  pcall(function() additive(rig.idle, 12345, { weight = 0.5 }) end)
  -- additive(add = a string)
  pcall(function() additive(rig.idle, 'bogus', { weight = 0.5 }) end)
  -- additive(add = a table)
  pcall(function() additive(rig.idle, {}, { weight = 0.5 }) end)
  -- additive(add = another userdata)
  pcall(function() additive(rig.idle, mask.all(), { weight = 0.5 }) end)
  -- additive(add = a function)
  pcall(function() additive(rig.idle, print, { weight = 0.5 }) end)
  -- additive(opts = a number)
  pcall(function() additive(rig.idle, rig.walk, 12345) end)
  -- additive(opts = a string)
  pcall(function() additive(rig.idle, rig.walk, 'bogus') end)
  -- additive(opts = another userdata)
  pcall(function() additive(rig.idle, rig.walk, rig.idle) end)
  -- additive(opts = a function)
  pcall(function() additive(rig.idle, rig.walk, print) end)
  error('api_args: 18 wrong calls of additive made')
end
