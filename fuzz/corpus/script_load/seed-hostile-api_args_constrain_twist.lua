-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.twist, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.twist with one argument too many
  pcall(function() constrain.twist('pelvis', { 'head' }, { axis = 'y' }, 1) end)
  -- constrain.twist with one argument too few
  pcall(function() constrain.twist('pelvis') end)
  -- constrain.twist(joint = nil)
  pcall(function() constrain.twist(nil, { 'head' }, { axis = 'y' }) end)
  -- constrain.twist(joint = a number)
  pcall(function() constrain.twist(12345, { 'head' }, { axis = 'y' }) end)
  -- constrain.twist(joint = a table)
  pcall(function() constrain.twist({}, { 'head' }, { axis = 'y' }) end)
  -- constrain.twist(joint = another userdata)
  pcall(function() constrain.twist(rig.idle, { 'head' }, { axis = 'y' }) end)
  -- constrain.twist(joint = a function)
  pcall(function() constrain.twist(print, { 'head' }, { axis = 'y' }) end)
  -- constrain.twist(twist_joints = nil)
  pcall(function() constrain.twist('pelvis', nil, { axis = 'y' }) end)
  -- constrain.twist(twist_joints = a number)
  pcall(function() constrain.twist('pelvis', 12345, { axis = 'y' }) end)
  -- constrain.twist(twist_joints = a string)
  pcall(function() constrain.twist('pelvis', 'bogus', { axis = 'y' }) end)
  -- constrain.twist(twist_joints = another userdata)
  pcall(function() constrain.twist('pelvis', rig.idle, { axis = 'y' }) end)
  -- constrain.twist(twist_joints = a function)
  pcall(function() constrain.twist('pelvis', print, { axis = 'y' }) end)
  -- constrain.twist(opts = a number)
  pcall(function() constrain.twist('pelvis', { 'head' }, 12345) end)
  -- constrain.twist(opts = a string)
  pcall(function() constrain.twist('pelvis', { 'head' }, 'bogus') end)
  -- constrain.twist(opts = another userdata)
  pcall(function() constrain.twist('pelvis', { 'head' }, rig.idle) end)
  -- constrain.twist(opts = a function)
  pcall(function() constrain.twist('pelvis', { 'head' }, print) end)
  error('api_args: 16 wrong calls of constrain.twist made')
end
