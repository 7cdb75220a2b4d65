-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.aim, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.aim with one argument too many
  pcall(function() constrain.aim('head', {0, 1, 2}, { limit = 60 }, 1) end)
  -- constrain.aim with one argument too few
  pcall(function() constrain.aim('head') end)
  -- constrain.aim(joint = nil)
  pcall(function() constrain.aim(nil, {0, 1, 2}, { limit = 60 }) end)
  -- constrain.aim(joint = a number)
  pcall(function() constrain.aim(12345, {0, 1, 2}, { limit = 60 }) end)
  -- constrain.aim(joint = a table)
  pcall(function() constrain.aim({}, {0, 1, 2}, { limit = 60 }) end)
  -- constrain.aim(joint = another userdata)
  pcall(function() constrain.aim(rig.idle, {0, 1, 2}, { limit = 60 }) end)
  -- constrain.aim(joint = a function)
  pcall(function() constrain.aim(print, {0, 1, 2}, { limit = 60 }) end)
  -- constrain.aim(target = nil)
  pcall(function() constrain.aim('head', nil, { limit = 60 }) end)
  -- constrain.aim(target = a number)
  pcall(function() constrain.aim('head', 12345, { limit = 60 }) end)
  -- constrain.aim(target = another userdata)
  pcall(function() constrain.aim('head', rig.idle, { limit = 60 }) end)
  -- constrain.aim(target = a function)
  pcall(function() constrain.aim('head', print, { limit = 60 }) end)
  -- constrain.aim(opts = a number)
  pcall(function() constrain.aim('head', {0, 1, 2}, 12345) end)
  -- constrain.aim(opts = a string)
  pcall(function() constrain.aim('head', {0, 1, 2}, 'bogus') end)
  -- constrain.aim(opts = another userdata)
  pcall(function() constrain.aim('head', {0, 1, 2}, rig.idle) end)
  -- constrain.aim(opts = a function)
  pcall(function() constrain.aim('head', {0, 1, 2}, print) end)
  error('api_args: 15 wrong calls of constrain.aim made')
end
