-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- adjust.rotate, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- adjust.rotate with one argument too many
  pcall(function() adjust.rotate('head', {0, 10, 0}, { weight = 1 }, 1) end)
  -- adjust.rotate with one argument too few
  pcall(function() adjust.rotate('head') end)
  -- adjust.rotate(joint = nil)
  pcall(function() adjust.rotate(nil, {0, 10, 0}, { weight = 1 }) end)
  -- adjust.rotate(joint = a number)
  pcall(function() adjust.rotate(12345, {0, 10, 0}, { weight = 1 }) end)
  -- adjust.rotate(joint = a table)
  pcall(function() adjust.rotate({}, {0, 10, 0}, { weight = 1 }) end)
  -- adjust.rotate(joint = another userdata)
  pcall(function() adjust.rotate(rig.idle, {0, 10, 0}, { weight = 1 }) end)
  -- adjust.rotate(joint = a function)
  pcall(function() adjust.rotate(print, {0, 10, 0}, { weight = 1 }) end)
  -- adjust.rotate(degrees = nil)
  pcall(function() adjust.rotate('head', nil, { weight = 1 }) end)
  -- adjust.rotate(degrees = a number)
  pcall(function() adjust.rotate('head', 12345, { weight = 1 }) end)
  -- adjust.rotate(degrees = a string)
  pcall(function() adjust.rotate('head', 'bogus', { weight = 1 }) end)
  -- adjust.rotate(degrees = another userdata)
  pcall(function() adjust.rotate('head', rig.idle, { weight = 1 }) end)
  -- adjust.rotate(degrees = a function)
  pcall(function() adjust.rotate('head', print, { weight = 1 }) end)
  -- adjust.rotate(opts = a number)
  pcall(function() adjust.rotate('head', {0, 10, 0}, 12345) end)
  -- adjust.rotate(opts = a string)
  pcall(function() adjust.rotate('head', {0, 10, 0}, 'bogus') end)
  -- adjust.rotate(opts = another userdata)
  pcall(function() adjust.rotate('head', {0, 10, 0}, rig.idle) end)
  -- adjust.rotate(opts = a function)
  pcall(function() adjust.rotate('head', {0, 10, 0}, print) end)
  error('api_args: 16 wrong calls of adjust.rotate made')
end
