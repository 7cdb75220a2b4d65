-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- ik.rotate, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- ik.rotate with one argument too many
  pcall(function() ik.rotate('head', {0, 10, 0}, { weight = 1 }, 1) end)
  -- ik.rotate with one argument too few
  pcall(function() ik.rotate('head') end)
  -- ik.rotate(joint = nil)
  pcall(function() ik.rotate(nil, {0, 10, 0}, { weight = 1 }) end)
  -- ik.rotate(joint = a number)
  pcall(function() ik.rotate(12345, {0, 10, 0}, { weight = 1 }) end)
  -- ik.rotate(joint = a table)
  pcall(function() ik.rotate({}, {0, 10, 0}, { weight = 1 }) end)
  -- ik.rotate(joint = another userdata)
  pcall(function() ik.rotate(rig.idle, {0, 10, 0}, { weight = 1 }) end)
  -- ik.rotate(joint = a function)
  pcall(function() ik.rotate(print, {0, 10, 0}, { weight = 1 }) end)
  -- ik.rotate(degrees = nil)
  pcall(function() ik.rotate('head', nil, { weight = 1 }) end)
  -- ik.rotate(degrees = a number)
  pcall(function() ik.rotate('head', 12345, { weight = 1 }) end)
  -- ik.rotate(degrees = a string)
  pcall(function() ik.rotate('head', 'bogus', { weight = 1 }) end)
  -- ik.rotate(degrees = another userdata)
  pcall(function() ik.rotate('head', rig.idle, { weight = 1 }) end)
  -- ik.rotate(degrees = a function)
  pcall(function() ik.rotate('head', print, { weight = 1 }) end)
  -- ik.rotate(opts = a number)
  pcall(function() ik.rotate('head', {0, 10, 0}, 12345) end)
  -- ik.rotate(opts = a string)
  pcall(function() ik.rotate('head', {0, 10, 0}, 'bogus') end)
  -- ik.rotate(opts = another userdata)
  pcall(function() ik.rotate('head', {0, 10, 0}, rig.idle) end)
  -- ik.rotate(opts = a function)
  pcall(function() ik.rotate('head', {0, 10, 0}, print) end)
  error('api_args: 16 wrong calls of ik.rotate made')
end
