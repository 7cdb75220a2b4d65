-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- ik.look_at, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- ik.look_at with one argument too many
  pcall(function() ik.look_at('head', {0, 1, 2}, { weight = 1 }, 1) end)
  -- ik.look_at with one argument too few
  pcall(function() ik.look_at('head') end)
  -- ik.look_at(joint = nil)
  pcall(function() ik.look_at(nil, {0, 1, 2}, { weight = 1 }) end)
  -- ik.look_at(joint = a number)
  pcall(function() ik.look_at(12345, {0, 1, 2}, { weight = 1 }) end)
  -- ik.look_at(joint = a table)
  pcall(function() ik.look_at({}, {0, 1, 2}, { weight = 1 }) end)
  -- ik.look_at(joint = another userdata)
  pcall(function() ik.look_at(rig.idle, {0, 1, 2}, { weight = 1 }) end)
  -- ik.look_at(joint = a function)
  pcall(function() ik.look_at(print, {0, 1, 2}, { weight = 1 }) end)
  -- ik.look_at(target = nil)
  pcall(function() ik.look_at('head', nil, { weight = 1 }) end)
  -- ik.look_at(target = a number)
  pcall(function() ik.look_at('head', 12345, { weight = 1 }) end)
  -- ik.look_at(target = another userdata)
  pcall(function() ik.look_at('head', rig.idle, { weight = 1 }) end)
  -- ik.look_at(target = a function)
  pcall(function() ik.look_at('head', print, { weight = 1 }) end)
  -- ik.look_at(opts = a number)
  pcall(function() ik.look_at('head', {0, 1, 2}, 12345) end)
  -- ik.look_at(opts = a string)
  pcall(function() ik.look_at('head', {0, 1, 2}, 'bogus') end)
  -- ik.look_at(opts = another userdata)
  pcall(function() ik.look_at('head', {0, 1, 2}, rig.idle) end)
  -- ik.look_at(opts = a function)
  pcall(function() ik.look_at('head', {0, 1, 2}, print) end)
  error('api_args: 15 wrong calls of ik.look_at made')
end
