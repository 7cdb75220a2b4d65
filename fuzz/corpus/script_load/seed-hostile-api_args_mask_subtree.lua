-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mask.subtree, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mask.subtree with one argument too many
  pcall(function() mask.subtree('pelvis', 0.5, 1) end)
  -- mask.subtree with one argument too few
  pcall(function() mask.subtree() end)
  -- mask.subtree(joint = nil)
  pcall(function() mask.subtree(nil, 0.5) end)
  -- mask.subtree(joint = a number)
  pcall(function() mask.subtree(12345, 0.5) end)
  -- mask.subtree(joint = a table)
  pcall(function() mask.subtree({}, 0.5) end)
  -- mask.subtree(joint = another userdata)
  pcall(function() mask.subtree(rig.idle, 0.5) end)
  -- mask.subtree(joint = a function)
  pcall(function() mask.subtree(print, 0.5) end)
  -- mask.subtree(weight = a string)
  pcall(function() mask.subtree('pelvis', 'bogus') end)
  -- mask.subtree(weight = a table)
  pcall(function() mask.subtree('pelvis', {}) end)
  -- mask.subtree(weight = another userdata)
  pcall(function() mask.subtree('pelvis', rig.idle) end)
  -- mask.subtree(weight = a function)
  pcall(function() mask.subtree('pelvis', print) end)
  error('api_args: 11 wrong calls of mask.subtree made')
end
