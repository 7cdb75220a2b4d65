-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- pass.loop_close, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- pass.loop_close with one argument too many
  pcall(function() pass.loop_close({ blend = 0.2 }, 1) end)
  -- pass.loop_close(opts = a number)
  pcall(function() pass.loop_close(12345) end)
  -- pass.loop_close(opts = a string)
  pcall(function() pass.loop_close('bogus') end)
  -- pass.loop_close(opts = another userdata)
  pcall(function() pass.loop_close(rig.idle) end)
  -- pass.loop_close(opts = a function)
  pcall(function() pass.loop_close(print) end)
  error('api_args: 5 wrong calls of pass.loop_close made')
end
