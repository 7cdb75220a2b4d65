-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- retarget, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- retarget with one argument too many
  pcall(function() retarget(src.idle, { from = src }, 1) end)
  -- retarget with one argument too few
  pcall(function() retarget() end)
  -- retarget(source = nil)
  pcall(function() retarget(nil, { from = src }) end)
  -- retarget(source = a number)
  pcall(function() retarget(12345, { from = src }) end)
  -- retarget(source = a string)
  pcall(function() retarget('bogus', { from = src }) end)
  -- retarget(source = a table)
  pcall(function() retarget({}, { from = src }) end)
  -- retarget(source = another userdata)
  pcall(function() retarget(mask.all(), { from = src }) end)
  -- retarget(source = a function)
  pcall(function() retarget(print, { from = src }) end)
  -- retarget(opts = a number)
  pcall(function() retarget(src.idle, 12345) end)
  -- retarget(opts = a string)
  pcall(function() retarget(src.idle, 'bogus') end)
  -- retarget(opts = another userdata)
  pcall(function() retarget(src.idle, rig.idle) end)
  -- retarget(opts = a function)
  pcall(function() retarget(src.idle, print) end)
  error('api_args: 12 wrong calls of retarget made')
end
