-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- marionette.sides, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- marionette.sides with one argument too many
  pcall(function() marionette.sides({ pairs = { L_hand = 'R_hand' } }, 1) end)
  -- marionette.sides with one argument too few
  pcall(function() marionette.sides() end)
  -- marionette.sides(def = nil)
  pcall(function() marionette.sides(nil) end)
  -- marionette.sides(def = a number)
  pcall(function() marionette.sides(12345) end)
  -- marionette.sides(def = a string)
  pcall(function() marionette.sides('bogus') end)
  -- marionette.sides(def = another userdata)
  pcall(function() marionette.sides(rig.idle) end)
  -- marionette.sides(def = a function)
  pcall(function() marionette.sides(print) end)
  error('api_args: 7 wrong calls of marionette.sides made')
end
