-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- ik.foot_lock, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- ik.foot_lock with one argument too many
  pcall(function() ik.foot_lock({ 'L_hand' }, { release = 0.1 }, 1) end)
  -- ik.foot_lock with one argument too few
  pcall(function() ik.foot_lock() end)
  -- ik.foot_lock(feet = nil)
  pcall(function() ik.foot_lock(nil, { release = 0.1 }) end)
  -- ik.foot_lock(feet = a number)
  pcall(function() ik.foot_lock(12345, { release = 0.1 }) end)
  -- ik.foot_lock(feet = a string)
  pcall(function() ik.foot_lock('bogus', { release = 0.1 }) end)
  -- ik.foot_lock(feet = another userdata)
  pcall(function() ik.foot_lock(rig.idle, { release = 0.1 }) end)
  -- ik.foot_lock(feet = a function)
  pcall(function() ik.foot_lock(print, { release = 0.1 }) end)
  -- ik.foot_lock(opts = a number)
  pcall(function() ik.foot_lock({ 'L_hand' }, 12345) end)
  -- ik.foot_lock(opts = a string)
  pcall(function() ik.foot_lock({ 'L_hand' }, 'bogus') end)
  -- ik.foot_lock(opts = another userdata)
  pcall(function() ik.foot_lock({ 'L_hand' }, rig.idle) end)
  -- ik.foot_lock(opts = a function)
  pcall(function() ik.foot_lock({ 'L_hand' }, print) end)
  error('api_args: 11 wrong calls of ik.foot_lock made')
end
