-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- adjust.translate, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- adjust.translate with one argument too many
  pcall(function() adjust.translate('pelvis', {0, 0.1, 0}, { weight = 1 }, 1) end)
  -- adjust.translate with one argument too few
  pcall(function() adjust.translate('pelvis') end)
  -- adjust.translate(joint = nil)
  pcall(function() adjust.translate(nil, {0, 0.1, 0}, { weight = 1 }) end)
  -- adjust.translate(joint = a number)
  pcall(function() adjust.translate(12345, {0, 0.1, 0}, { weight = 1 }) end)
  -- adjust.translate(joint = a table)
  pcall(function() adjust.translate({}, {0, 0.1, 0}, { weight = 1 }) end)
  -- adjust.translate(joint = another userdata)
  pcall(function() adjust.translate(rig.idle, {0, 0.1, 0}, { weight = 1 }) end)
  -- adjust.translate(joint = a function)
  pcall(function() adjust.translate(print, {0, 0.1, 0}, { weight = 1 }) end)
  -- adjust.translate(offset = nil)
  pcall(function() adjust.translate('pelvis', nil, { weight = 1 }) end)
  -- adjust.translate(offset = a number)
  pcall(function() adjust.translate('pelvis', 12345, { weight = 1 }) end)
  -- adjust.translate(offset = a string)
  pcall(function() adjust.translate('pelvis', 'bogus', { weight = 1 }) end)
  -- adjust.translate(offset = another userdata)
  pcall(function() adjust.translate('pelvis', rig.idle, { weight = 1 }) end)
  -- adjust.translate(offset = a function)
  pcall(function() adjust.translate('pelvis', print, { weight = 1 }) end)
  -- adjust.translate(opts = a number)
  pcall(function() adjust.translate('pelvis', {0, 0.1, 0}, 12345) end)
  -- adjust.translate(opts = a string)
  pcall(function() adjust.translate('pelvis', {0, 0.1, 0}, 'bogus') end)
  -- adjust.translate(opts = another userdata)
  pcall(function() adjust.translate('pelvis', {0, 0.1, 0}, rig.idle) end)
  -- adjust.translate(opts = a function)
  pcall(function() adjust.translate('pelvis', {0, 0.1, 0}, print) end)
  error('api_args: 16 wrong calls of adjust.translate made')
end
