-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- sphere, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- sphere with one argument too many
  pcall(function() sphere('pelvis', 0.1, {0, 0, 0}, 1) end)
  -- sphere with one argument too few
  pcall(function() sphere('pelvis') end)
  -- sphere(joint = nil)
  pcall(function() sphere(nil, 0.1, {0, 0, 0}) end)
  -- sphere(joint = a number)
  pcall(function() sphere(12345, 0.1, {0, 0, 0}) end)
  -- sphere(joint = a table)
  pcall(function() sphere({}, 0.1, {0, 0, 0}) end)
  -- sphere(joint = another userdata)
  pcall(function() sphere(rig.idle, 0.1, {0, 0, 0}) end)
  -- sphere(joint = a function)
  pcall(function() sphere(print, 0.1, {0, 0, 0}) end)
  -- sphere(radius = nil)
  pcall(function() sphere('pelvis', nil, {0, 0, 0}) end)
  -- sphere(radius = a string)
  pcall(function() sphere('pelvis', 'bogus', {0, 0, 0}) end)
  -- sphere(radius = a table)
  pcall(function() sphere('pelvis', {}, {0, 0, 0}) end)
  -- sphere(radius = another userdata)
  pcall(function() sphere('pelvis', rig.idle, {0, 0, 0}) end)
  -- sphere(radius = a function)
  pcall(function() sphere('pelvis', print, {0, 0, 0}) end)
  -- sphere(offset = a number)
  pcall(function() sphere('pelvis', 0.1, 12345) end)
  -- sphere(offset = a string)
  pcall(function() sphere('pelvis', 0.1, 'bogus') end)
  -- sphere(offset = another userdata)
  pcall(function() sphere('pelvis', 0.1, rig.idle) end)
  -- sphere(offset = a function)
  pcall(function() sphere('pelvis', 0.1, print) end)
  error('api_args: 16 wrong calls of sphere made')
end
