-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- assert_motion, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- assert_motion with one argument too many
  pcall(function() assert_motion({ max_joint_speed = 1500 }, 1) end)
  -- assert_motion with one argument too few
  pcall(function() assert_motion() end)
  -- assert_motion(def = nil)
  pcall(function() assert_motion(nil) end)
  -- assert_motion(def = a number)
  pcall(function() assert_motion(12345) end)
  -- assert_motion(def = a string)
  pcall(function() assert_motion('bogus') end)
  -- assert_motion(def = another userdata)
  pcall(function() assert_motion(rig.idle) end)
  -- assert_motion(def = a function)
  pcall(function() assert_motion(print) end)
  error('api_args: 7 wrong calls of assert_motion made')
end
