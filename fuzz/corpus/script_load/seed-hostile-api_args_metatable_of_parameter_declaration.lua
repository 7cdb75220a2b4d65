-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- metatable of parameter declaration, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- getmetatable(parameter declaration).__index(...)
  pcall(function() getmetatable(float(0, 0, 1)).__index(12345, 'x', print) end)
  -- getmetatable(parameter declaration).__newindex(...)
  pcall(function() getmetatable(float(0, 0, 1)).__newindex(12345, 'x', print) end)
  -- getmetatable(parameter declaration).__call(...)
  pcall(function() getmetatable(float(0, 0, 1)).__call(12345, 'x', print) end)
  -- getmetatable(parameter declaration).__add(...)
  pcall(function() getmetatable(float(0, 0, 1)).__add(12345, 'x', print) end)
  -- getmetatable(parameter declaration).__gc(...)
  pcall(function() getmetatable(float(0, 0, 1)).__gc(12345, 'x', print) end)
  -- getmetatable(parameter declaration).__close(...)
  pcall(function() getmetatable(float(0, 0, 1)).__close(12345, 'x', print) end)
  error('api_args: 6 wrong calls of metatable of parameter declaration made')
end
