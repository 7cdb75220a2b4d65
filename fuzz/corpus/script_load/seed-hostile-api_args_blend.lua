-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- blend, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- blend with one argument too many
  pcall(function() blend({ {rig.idle, 0.5}, {rig.walk, 0.5} }, 1) end)
  -- blend with one argument too few
  pcall(function() blend() end)
  -- blend(inputs = nil)
  pcall(function() blend(nil) end)
  -- blend(inputs = a number)
  pcall(function() blend(12345) end)
  -- blend(inputs = a string)
  pcall(function() blend('bogus') end)
  -- blend(inputs = another userdata)
  pcall(function() blend(rig.idle) end)
  -- blend(inputs = a function)
  pcall(function() blend(print) end)
  error('api_args: 7 wrong calls of blend made')
end
