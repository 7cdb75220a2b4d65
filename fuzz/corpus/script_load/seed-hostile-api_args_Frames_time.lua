-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:time, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:time with one argument too many
  pcall(function() local v = frames; v:time(1, 1) end)
  -- Frames:time with one argument too few
  pcall(function() local v = frames; v:time() end)
  -- Frames:time(self = nil)
  pcall(function() local v = frames; v.time(nil, 1) end)
  -- Frames:time(self = a number)
  pcall(function() local v = frames; v.time(12345, 1) end)
  -- Frames:time(self = a string)
  pcall(function() local v = frames; v.time('bogus', 1) end)
  -- Frames:time(self = a table)
  pcall(function() local v = frames; v.time({}, 1) end)
  -- Frames:time(self = another userdata)
  pcall(function() local v = frames; v.time(rig.idle, 1) end)
  -- Frames:time(self = a function)
  pcall(function() local v = frames; v.time(print, 1) end)
  -- Frames:time(frame = nil)
  pcall(function() local v = frames; v:time(nil) end)
  -- Frames:time(frame = a string)
  pcall(function() local v = frames; v:time('bogus') end)
  -- Frames:time(frame = a table)
  pcall(function() local v = frames; v:time({}) end)
  -- Frames:time(frame = another userdata)
  pcall(function() local v = frames; v:time(rig.idle) end)
  -- Frames:time(frame = a function)
  pcall(function() local v = frames; v:time(print) end)
  error('api_args: 13 wrong calls of Frames:time made')
  end } } } }
