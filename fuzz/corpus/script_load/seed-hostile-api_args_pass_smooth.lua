-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- pass.smooth, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- pass.smooth with one argument too many
  pcall(function() pass.smooth({ window = 0.1 }, 1) end)
  -- pass.smooth(opts = a number)
  pcall(function() pass.smooth(12345) end)
  -- pass.smooth(opts = a string)
  pcall(function() pass.smooth('bogus') end)
  -- pass.smooth(opts = another userdata)
  pcall(function() pass.smooth(rig.idle) end)
  -- pass.smooth(opts = a function)
  pcall(function() pass.smooth(print) end)
  error('api_args: 5 wrong calls of pass.smooth made')
end
