-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mask.joints, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mask.joints with one argument too many
  pcall(function() mask.joints({ 'head' }, 1) end)
  -- mask.joints with one argument too few
  pcall(function() mask.joints() end)
  -- mask.joints(joints = nil)
  pcall(function() mask.joints(nil) end)
  -- mask.joints(joints = a number)
  pcall(function() mask.joints(12345) end)
  -- mask.joints(joints = a string)
  pcall(function() mask.joints('bogus') end)
  -- mask.joints(joints = another userdata)
  pcall(function() mask.joints(rig.idle) end)
  -- mask.joints(joints = a function)
  pcall(function() mask.joints(print) end)
  error('api_args: 7 wrong calls of mask.joints made')
end
