-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- takes, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- takes with one argument too many
  pcall(function() takes({ extra_take = { duration = 1 } }, 1) end)
  -- takes with one argument too few
  pcall(function() takes() end)
  -- takes(defs = nil)
  pcall(function() takes(nil) end)
  -- takes(defs = a number)
  pcall(function() takes(12345) end)
  -- takes(defs = a string)
  pcall(function() takes('bogus') end)
  -- takes(defs = another userdata)
  pcall(function() takes(rig.idle) end)
  -- takes(defs = a function)
  pcall(function() takes(print) end)
  error('api_args: 7 wrong calls of takes made')
end
