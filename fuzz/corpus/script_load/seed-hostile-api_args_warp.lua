-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- warp, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- warp with one argument too many
  pcall(function() warp(rig.walk, { target = 'look', window = { 0.1, 0.5 } }, 1) end)
  -- warp with one argument too few
  pcall(function() warp(rig.walk) end)
  -- warp(node = nil)
  pcall(function() warp(nil, { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(node = a number)
  pcall(function() warp(12345, { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(node = a string)
  pcall(function() warp('bogus', { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(node = a table)
  pcall(function() warp({}, { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(node = another userdata)
  pcall(function() warp(mask.all(), { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(node = a function)
  pcall(function() warp(print, { target = 'look', window = { 0.1, 0.5 } }) end)
  -- warp(opts = nil)
  pcall(function() warp(rig.walk, nil) end)
  -- warp(opts = a number)
  pcall(function() warp(rig.walk, 12345) end)
  -- warp(opts = a string)
  pcall(function() warp(rig.walk, 'bogus') end)
  -- warp(opts = another userdata)
  pcall(function() warp(rig.walk, rig.idle) end)
  -- warp(opts = a function)
  pcall(function() warp(rig.walk, print) end)
  error('api_args: 13 wrong calls of warp made')
end
