-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- metatable of frames, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- getmetatable(frames).__index(...)
  pcall(function() getmetatable(frames).__index(12345, 'x', print) end)
  -- getmetatable(frames).__newindex(...)
  pcall(function() getmetatable(frames).__newindex(12345, 'x', print) end)
  -- getmetatable(frames).__call(...)
  pcall(function() getmetatable(frames).__call(12345, 'x', print) end)
  -- getmetatable(frames).__add(...)
  pcall(function() getmetatable(frames).__add(12345, 'x', print) end)
  -- getmetatable(frames).__gc(...)
  pcall(function() getmetatable(frames).__gc(12345, 'x', print) end)
  -- getmetatable(frames).__close(...)
  pcall(function() getmetatable(frames).__close(12345, 'x', print) end)
  error('api_args: 6 wrong calls of metatable of frames made')
  end } } } }
