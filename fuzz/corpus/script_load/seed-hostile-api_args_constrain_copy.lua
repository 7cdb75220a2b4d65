-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- constrain.copy, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- constrain.copy with one argument too many
  pcall(function() constrain.copy('head', 'pelvis', { channel = 'rotation' }, 1) end)
  -- constrain.copy with one argument too few
  pcall(function() constrain.copy('head') end)
  -- constrain.copy(joint = nil)
  pcall(function() constrain.copy(nil, 'pelvis', { channel = 'rotation' }) end)
  -- constrain.copy(joint = a number)
  pcall(function() constrain.copy(12345, 'pelvis', { channel = 'rotation' }) end)
  -- constrain.copy(joint = a table)
  pcall(function() constrain.copy({}, 'pelvis', { channel = 'rotation' }) end)
  -- constrain.copy(joint = another userdata)
  pcall(function() constrain.copy(rig.idle, 'pelvis', { channel = 'rotation' }) end)
  -- constrain.copy(joint = a function)
  pcall(function() constrain.copy(print, 'pelvis', { channel = 'rotation' }) end)
  -- constrain.copy(source = nil)
  pcall(function() constrain.copy('head', nil, { channel = 'rotation' }) end)
  -- constrain.copy(source = a number)
  pcall(function() constrain.copy('head', 12345, { channel = 'rotation' }) end)
  -- constrain.copy(source = a table)
  pcall(function() constrain.copy('head', {}, { channel = 'rotation' }) end)
  -- constrain.copy(source = another userdata)
  pcall(function() constrain.copy('head', rig.idle, { channel = 'rotation' }) end)
  -- constrain.copy(source = a function)
  pcall(function() constrain.copy('head', print, { channel = 'rotation' }) end)
  -- constrain.copy(opts = a number)
  pcall(function() constrain.copy('head', 'pelvis', 12345) end)
  -- constrain.copy(opts = a string)
  pcall(function() constrain.copy('head', 'pelvis', 'bogus') end)
  -- constrain.copy(opts = another userdata)
  pcall(function() constrain.copy('head', 'pelvis', rig.idle) end)
  -- constrain.copy(opts = a function)
  pcall(function() constrain.copy('head', 'pelvis', print) end)
  error('api_args: 16 wrong calls of constrain.copy made')
end
