-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- pass.despike, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- pass.despike with one argument too many
  pcall(function() pass.despike({ max_speed = 1500 }, 1) end)
  -- pass.despike(opts = a number)
  pcall(function() pass.despike(12345) end)
  -- pass.despike(opts = a string)
  pcall(function() pass.despike('bogus') end)
  -- pass.despike(opts = another userdata)
  pcall(function() pass.despike(rig.idle) end)
  -- pass.despike(opts = a function)
  pcall(function() pass.despike(print) end)
  error('api_args: 5 wrong calls of pass.despike made')
end
