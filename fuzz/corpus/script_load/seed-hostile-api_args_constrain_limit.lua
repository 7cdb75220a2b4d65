-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.limit, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.limit with one argument too many
  pcall(function() constrain.limit('head', { cone = 30 }, 1) end)
  -- constrain.limit with one argument too few
  pcall(function() constrain.limit('head') end)
  -- constrain.limit(joint = nil)
  pcall(function() constrain.limit(nil, { cone = 30 }) end)
  -- constrain.limit(joint = a number)
  pcall(function() constrain.limit(12345, { cone = 30 }) end)
  -- constrain.limit(joint = a table)
  pcall(function() constrain.limit({}, { cone = 30 }) end)
  -- constrain.limit(joint = another userdata)
  pcall(function() constrain.limit(rig.idle, { cone = 30 }) end)
  -- constrain.limit(joint = a function)
  pcall(function() constrain.limit(print, { cone = 30 }) end)
  -- constrain.limit(opts = nil)
  pcall(function() constrain.limit('head', nil) end)
  -- constrain.limit(opts = a number)
  pcall(function() constrain.limit('head', 12345) end)
  -- constrain.limit(opts = a string)
  pcall(function() constrain.limit('head', 'bogus') end)
  -- constrain.limit(opts = another userdata)
  pcall(function() constrain.limit('head', rig.idle) end)
  -- constrain.limit(opts = a function)
  pcall(function() constrain.limit('head', print) end)
  error('api_args: 12 wrong calls of constrain.limit made')
end
