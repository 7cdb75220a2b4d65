-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- ik.translate, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- ik.translate with one argument too many
  pcall(function() ik.translate('pelvis', {0, 0.1, 0}, { weight = 1 }, 1) end)
  -- ik.translate with one argument too few
  pcall(function() ik.translate('pelvis') end)
  -- ik.translate(joint = nil)
  pcall(function() ik.translate(nil, {0, 0.1, 0}, { weight = 1 }) end)
  -- ik.translate(joint = a number)
  pcall(function() ik.translate(12345, {0, 0.1, 0}, { weight = 1 }) end)
  -- ik.translate(joint = a table)
  pcall(function() ik.translate({}, {0, 0.1, 0}, { weight = 1 }) end)
  -- ik.translate(joint = another userdata)
  pcall(function() ik.translate(rig.idle, {0, 0.1, 0}, { weight = 1 }) end)
  -- ik.translate(joint = a function)
  pcall(function() ik.translate(print, {0, 0.1, 0}, { weight = 1 }) end)
  -- ik.translate(offset = nil)
  pcall(function() ik.translate('pelvis', nil, { weight = 1 }) end)
  -- ik.translate(offset = a number)
  pcall(function() ik.translate('pelvis', 12345, { weight = 1 }) end)
  -- ik.translate(offset = a string)
  pcall(function() ik.translate('pelvis', 'bogus', { weight = 1 }) end)
  -- ik.translate(offset = another userdata)
  pcall(function() ik.translate('pelvis', rig.idle, { weight = 1 }) end)
  -- ik.translate(offset = a function)
  pcall(function() ik.translate('pelvis', print, { weight = 1 }) end)
  -- ik.translate(opts = a number)
  pcall(function() ik.translate('pelvis', {0, 0.1, 0}, 12345) end)
  -- ik.translate(opts = a string)
  pcall(function() ik.translate('pelvis', {0, 0.1, 0}, 'bogus') end)
  -- ik.translate(opts = another userdata)
  pcall(function() ik.translate('pelvis', {0, 0.1, 0}, rig.idle) end)
  -- ik.translate(opts = a function)
  pcall(function() ik.translate('pelvis', {0, 0.1, 0}, print) end)
  error('api_args: 16 wrong calls of ik.translate made')
end
