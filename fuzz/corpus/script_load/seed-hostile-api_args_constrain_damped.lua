-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.damped, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.damped with one argument too many
  pcall(function() constrain.damped('head', 'pelvis', { lag = 0.1 }, 1) end)
  -- constrain.damped with one argument too few
  pcall(function() constrain.damped('head') end)
  -- constrain.damped(joint = nil)
  pcall(function() constrain.damped(nil, 'pelvis', { lag = 0.1 }) end)
  -- constrain.damped(joint = a number)
  pcall(function() constrain.damped(12345, 'pelvis', { lag = 0.1 }) end)
  -- constrain.damped(joint = a table)
  pcall(function() constrain.damped({}, 'pelvis', { lag = 0.1 }) end)
  -- constrain.damped(joint = another userdata)
  pcall(function() constrain.damped(rig.idle, 'pelvis', { lag = 0.1 }) end)
  -- constrain.damped(joint = a function)
  pcall(function() constrain.damped(print, 'pelvis', { lag = 0.1 }) end)
  -- constrain.damped(source = nil)
  pcall(function() constrain.damped('head', nil, { lag = 0.1 }) end)
  -- constrain.damped(source = a number)
  pcall(function() constrain.damped('head', 12345, { lag = 0.1 }) end)
  -- constrain.damped(source = a table)
  pcall(function() constrain.damped('head', {}, { lag = 0.1 }) end)
  -- constrain.damped(source = another userdata)
  pcall(function() constrain.damped('head', rig.idle, { lag = 0.1 }) end)
  -- constrain.damped(source = a function)
  pcall(function() constrain.damped('head', print, { lag = 0.1 }) end)
  -- constrain.damped(opts = a number)
  pcall(function() constrain.damped('head', 'pelvis', 12345) end)
  -- constrain.damped(opts = a string)
  pcall(function() constrain.damped('head', 'pelvis', 'bogus') end)
  -- constrain.damped(opts = another userdata)
  pcall(function() constrain.damped('head', 'pelvis', rig.idle) end)
  -- constrain.damped(opts = a function)
  pcall(function() constrain.damped('head', 'pelvis', print) end)
  error('api_args: 16 wrong calls of constrain.damped made')
end
