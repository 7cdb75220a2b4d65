-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- metatable of post op, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- getmetatable(post op).__index(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__index(12345, 'x', print) end)
  -- getmetatable(post op).__newindex(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__newindex(12345, 'x', print) end)
  -- getmetatable(post op).__call(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__call(12345, 'x', print) end)
  -- getmetatable(post op).__add(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__add(12345, 'x', print) end)
  -- getmetatable(post op).__gc(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__gc(12345, 'x', print) end)
  -- getmetatable(post op).__close(...)
  pcall(function() getmetatable(ik.look_at('head', {0, 1, 2})).__close(12345, 'x', print) end)
  error('api_args: 6 wrong calls of metatable of post op made')
end
