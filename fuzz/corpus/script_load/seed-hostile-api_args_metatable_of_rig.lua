-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- metatable of rig, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- getmetatable(rig).__index(...)
  pcall(function() getmetatable(rig).__index(12345, 'x', print) end)
  -- getmetatable(rig).__newindex(...)
  pcall(function() getmetatable(rig).__newindex(12345, 'x', print) end)
  -- getmetatable(rig).__call(...)
  pcall(function() getmetatable(rig).__call(12345, 'x', print) end)
  -- getmetatable(rig).__add(...)
  pcall(function() getmetatable(rig).__add(12345, 'x', print) end)
  -- getmetatable(rig).__gc(...)
  pcall(function() getmetatable(rig).__gc(12345, 'x', print) end)
  -- getmetatable(rig).__close(...)
  pcall(function() getmetatable(rig).__close(12345, 'x', print) end)
  error('api_args: 6 wrong calls of metatable of rig made')
end
