-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- layer, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- layer with one argument too few
  pcall(function() layer() end)
  -- layer(base = nil)
  pcall(function() layer(nil, { rig.walk, mask = mask.all() }) end)
  -- layer(base = a number)
  pcall(function() layer(12345, { rig.walk, mask = mask.all() }) end)
  -- layer(base = a string)
  pcall(function() layer('bogus', { rig.walk, mask = mask.all() }) end)
  -- layer(base = a table)
  pcall(function() layer({}, { rig.walk, mask = mask.all() }) end)
  -- layer(base = another userdata)
  pcall(function() layer(mask.all(), { rig.walk, mask = mask.all() }) end)
  -- layer(base = a function)
  pcall(function() layer(print, { rig.walk, mask = mask.all() }) end)
  -- layer(... = a number)
  pcall(function() layer(rig.idle, 12345) end)
  -- layer(... = a string)
  pcall(function() layer(rig.idle, 'bogus') end)
  -- layer(... = another userdata)
  pcall(function() layer(rig.idle, rig.idle) end)
  -- layer(... = a function)
  pcall(function() layer(rig.idle, print) end)
  error('api_args: 11 wrong calls of layer made')
end
