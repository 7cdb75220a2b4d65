-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- vec3, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- vec3 with one argument too many
  pcall(function() vec3(1, 2, 3, 1) end)
  -- vec3(x = a string)
  pcall(function() vec3('bogus', 2, 3) end)
  -- vec3(x = a table)
  pcall(function() vec3({}, 2, 3) end)
  -- vec3(x = another userdata)
  pcall(function() vec3(rig.idle, 2, 3) end)
  -- vec3(x = a function)
  pcall(function() vec3(print, 2, 3) end)
  -- vec3(y = a string)
  pcall(function() vec3(1, 'bogus', 3) end)
  -- vec3(y = a table)
  pcall(function() vec3(1, {}, 3) end)
  -- vec3(y = another userdata)
  pcall(function() vec3(1, rig.idle, 3) end)
  -- vec3(y = a function)
  pcall(function() vec3(1, print, 3) end)
  -- vec3(z = a string)
  pcall(function() vec3(1, 2, 'bogus') end)
  -- vec3(z = a table)
  pcall(function() vec3(1, 2, {}) end)
  -- vec3(z = another userdata)
  pcall(function() vec3(1, 2, rig.idle) end)
  -- vec3(z = a function)
  pcall(function() vec3(1, 2, print) end)
  error('api_args: 13 wrong calls of vec3 made')
end
