-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- metatable of pose:position, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05 } },
  post = function(pose, ctx)
  -- getmetatable(pose:position).__index(...)
  pcall(function() getmetatable(pose:position('head')).__index(12345, 'x', print) end)
  -- getmetatable(pose:position).__newindex(...)
  pcall(function() getmetatable(pose:position('head')).__newindex(12345, 'x', print) end)
  -- getmetatable(pose:position).__call(...)
  pcall(function() getmetatable(pose:position('head')).__call(12345, 'x', print) end)
  -- getmetatable(pose:position).__add(...)
  pcall(function() getmetatable(pose:position('head')).__add(12345, 'x', print) end)
  -- getmetatable(pose:position).__gc(...)
  pcall(function() getmetatable(pose:position('head')).__gc(12345, 'x', print) end)
  -- getmetatable(pose:position).__close(...)
  pcall(function() getmetatable(pose:position('head')).__close(12345, 'x', print) end)
  error('api_args: 6 wrong calls of metatable of pose:position made')
  end }
