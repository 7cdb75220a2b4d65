-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- pass.foot_lock, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- pass.foot_lock with one argument too many
  pcall(function() pass.foot_lock({ feet = { 'L_hand' } }, 1) end)
  -- pass.foot_lock(opts = a number)
  pcall(function() pass.foot_lock(12345) end)
  -- pass.foot_lock(opts = a string)
  pcall(function() pass.foot_lock('bogus') end)
  -- pass.foot_lock(opts = another userdata)
  pcall(function() pass.foot_lock(rig.idle) end)
  -- pass.foot_lock(opts = a function)
  pcall(function() pass.foot_lock(print) end)
  error('api_args: 5 wrong calls of pass.foot_lock made')
end
