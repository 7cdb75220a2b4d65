-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- bool, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- bool with one argument too many
  pcall(function() bool(true, 1) end)
  -- bool(default = a number)
  pcall(function() bool(12345) end)
  -- bool(default = a string)
  pcall(function() bool('bogus') end)
  -- bool(default = a table)
  pcall(function() bool({}) end)
  -- bool(default = another userdata)
  pcall(function() bool(rig.idle) end)
  -- bool(default = a function)
  pcall(function() bool(print) end)
  error('api_args: 6 wrong calls of bool made')
end
