-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mask.side, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mask.side with one argument too many
  pcall(function() mask.side('left', 1) end)
  -- mask.side with one argument too few
  pcall(function() mask.side() end)
  -- mask.side(side = nil)
  pcall(function() mask.side(nil) end)
  -- mask.side(side = a number)
  pcall(function() mask.side(12345) end)
  -- mask.side(side = a table)
  pcall(function() mask.side({}) end)
  -- mask.side(side = another userdata)
  pcall(function() mask.side(rig.idle) end)
  -- mask.side(side = a function)
  pcall(function() mask.side(print) end)
  error('api_args: 7 wrong calls of mask.side made')
end
