-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- spring, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- spring with one argument too many
  pcall(function() spring({ 'head' }, { stiffness = 2 }, 1) end)
  -- spring with one argument too few
  pcall(function() spring() end)
  -- spring(joints = nil)
  pcall(function() spring(nil, { stiffness = 2 }) end)
  -- spring(joints = a number)
  pcall(function() spring(12345, { stiffness = 2 }) end)
  -- spring(joints = another userdata)
  pcall(function() spring(rig.idle, { stiffness = 2 }) end)
  -- spring(joints = a function)
  pcall(function() spring(print, { stiffness = 2 }) end)
  -- spring(opts = a number)
  pcall(function() spring({ 'head' }, 12345) end)
  -- spring(opts = a string)
  pcall(function() spring({ 'head' }, 'bogus') end)
  -- spring(opts = another userdata)
  pcall(function() spring({ 'head' }, rig.idle) end)
  -- spring(opts = a function)
  pcall(function() spring({ 'head' }, print) end)
  error('api_args: 10 wrong calls of spring made')
end
