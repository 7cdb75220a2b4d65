-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mask.morphs, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mask.morphs with one argument too many
  pcall(function() mask.morphs('smile', 0.5, 1) end)
  -- mask.morphs with one argument too few
  pcall(function() mask.morphs() end)
  -- mask.morphs(targets = nil)
  pcall(function() mask.morphs(nil, 0.5) end)
  -- mask.morphs(targets = a number)
  pcall(function() mask.morphs(12345, 0.5) end)
  -- mask.morphs(targets = another userdata)
  pcall(function() mask.morphs(rig.idle, 0.5) end)
  -- mask.morphs(targets = a function)
  pcall(function() mask.morphs(print, 0.5) end)
  -- mask.morphs(weight = a string)
  pcall(function() mask.morphs('smile', 'bogus') end)
  -- mask.morphs(weight = a table)
  pcall(function() mask.morphs('smile', {}) end)
  -- mask.morphs(weight = another userdata)
  pcall(function() mask.morphs('smile', rig.idle) end)
  -- mask.morphs(weight = a function)
  pcall(function() mask.morphs('smile', print) end)
  error('api_args: 10 wrong calls of mask.morphs made')
end
