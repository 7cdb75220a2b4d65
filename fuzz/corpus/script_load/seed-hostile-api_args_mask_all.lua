-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mask.all, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mask.all with one argument too many
  pcall(function() mask.all(0.5, 1) end)
  -- mask.all(weight = a string)
  pcall(function() mask.all('bogus') end)
  -- mask.all(weight = a table)
  pcall(function() mask.all({}) end)
  -- mask.all(weight = another userdata)
  pcall(function() mask.all(rig.idle) end)
  -- mask.all(weight = a function)
  pcall(function() mask.all(print) end)
  error('api_args: 5 wrong calls of mask.all made')
end
