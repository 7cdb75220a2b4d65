-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.multi_aim, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.multi_aim with one argument too many
  pcall(function() constrain.multi_aim('head', { { {0, 1, 2}, 1 } }, { limit = 60 }, 1) end)
  -- constrain.multi_aim with one argument too few
  pcall(function() constrain.multi_aim('head') end)
  -- constrain.multi_aim(joint = nil)
  pcall(function() constrain.multi_aim(nil, { { {0, 1, 2}, 1 } }, { limit = 60 }) end)
  -- constrain.multi_aim(joint = a number)
  pcall(function() constrain.multi_aim(12345, { { {0, 1, 2}, 1 } }, { limit = 60 }) end)
  -- constrain.multi_aim(joint = a table)
  pcall(function() constrain.multi_aim({}, { { {0, 1, 2}, 1 } }, { limit = 60 }) end)
  -- constrain.multi_aim(joint = another userdata)
  pcall(function() constrain.multi_aim(rig.idle, { { {0, 1, 2}, 1 } }, { limit = 60 }) end)
  -- constrain.multi_aim(joint = a function)
  pcall(function() constrain.multi_aim(print, { { {0, 1, 2}, 1 } }, { limit = 60 }) end)
  -- constrain.multi_aim(targets = nil)
  pcall(function() constrain.multi_aim('head', nil, { limit = 60 }) end)
  -- constrain.multi_aim(targets = a number)
  pcall(function() constrain.multi_aim('head', 12345, { limit = 60 }) end)
  -- constrain.multi_aim(targets = a string)
  pcall(function() constrain.multi_aim('head', 'bogus', { limit = 60 }) end)
  -- constrain.multi_aim(targets = another userdata)
  pcall(function() constrain.multi_aim('head', rig.idle, { limit = 60 }) end)
  -- constrain.multi_aim(targets = a function)
  pcall(function() constrain.multi_aim('head', print, { limit = 60 }) end)
  -- constrain.multi_aim(opts = a number)
  pcall(function() constrain.multi_aim('head', { { {0, 1, 2}, 1 } }, 12345) end)
  -- constrain.multi_aim(opts = a string)
  pcall(function() constrain.multi_aim('head', { { {0, 1, 2}, 1 } }, 'bogus') end)
  -- constrain.multi_aim(opts = another userdata)
  pcall(function() constrain.multi_aim('head', { { {0, 1, 2}, 1 } }, rig.idle) end)
  -- constrain.multi_aim(opts = a function)
  pcall(function() constrain.multi_aim('head', { { {0, 1, 2}, 1 } }, print) end)
  error('api_args: 16 wrong calls of constrain.multi_aim made')
end
