-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- mirror, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- mirror with one argument too many
  pcall(function() mirror(rig.walk, 1) end)
  -- mirror with one argument too few
  pcall(function() mirror() end)
  -- mirror(node = nil)
  pcall(function() mirror(nil) end)
  -- mirror(node = a number)
  pcall(function() mirror(12345) end)
  -- mirror(node = a string)
  pcall(function() mirror('bogus') end)
  -- mirror(node = a table)
  pcall(function() mirror({}) end)
  -- mirror(node = another userdata)
  pcall(function() mirror(mask.all()) end)
  -- mirror(node = a function)
  pcall(function() mirror(print) end)
  error('api_args: 8 wrong calls of mirror made')
end
