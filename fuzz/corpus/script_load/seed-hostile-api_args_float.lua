-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- float, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- float with one argument too many
  pcall(function() float(0.5, 0, 1, 1) end)
  -- float(default = a string)
  pcall(function() float('bogus', 0, 1) end)
  -- float(default = a table)
  pcall(function() float({}, 0, 1) end)
  -- float(default = another userdata)
  pcall(function() float(rig.idle, 0, 1) end)
  -- float(default = a function)
  pcall(function() float(print, 0, 1) end)
  -- float(min = a string)
  pcall(function() float(0.5, 'bogus', 1) end)
  -- float(min = a table)
  pcall(function() float(0.5, {}, 1) end)
  -- float(min = another userdata)
  pcall(function() float(0.5, rig.idle, 1) end)
  -- float(min = a function)
  pcall(function() float(0.5, print, 1) end)
  -- float(max = a string)
  pcall(function() float(0.5, 0, 'bogus') end)
  -- float(max = a table)
  pcall(function() float(0.5, 0, {}) end)
  -- float(max = another userdata)
  pcall(function() float(0.5, 0, rig.idle) end)
  -- float(max = a function)
  pcall(function() float(0.5, 0, print) end)
  error('api_args: 13 wrong calls of float made')
end
