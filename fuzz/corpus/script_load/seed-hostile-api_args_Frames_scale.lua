-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:scale, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:scale with one argument too many
  pcall(function() local v = frames; v:scale(1, 'head', 1) end)
  -- Frames:scale with one argument too few
  pcall(function() local v = frames; v:scale(1) end)
  -- Frames:scale(self = nil)
  pcall(function() local v = frames; v.scale(nil, 1, 'head') end)
  -- Frames:scale(self = a number)
  pcall(function() local v = frames; v.scale(12345, 1, 'head') end)
  -- Frames:scale(self = a string)
  pcall(function() local v = frames; v.scale('bogus', 1, 'head') end)
  -- Frames:scale(self = a table)
  pcall(function() local v = frames; v.scale({}, 1, 'head') end)
  -- Frames:scale(self = another userdata)
  pcall(function() local v = frames; v.scale(rig.idle, 1, 'head') end)
  -- Frames:scale(self = a function)
  pcall(function() local v = frames; v.scale(print, 1, 'head') end)
  -- Frames:scale(frame = nil)
  pcall(function() local v = frames; v:scale(nil, 'head') end)
  -- Frames:scale(frame = a string)
  pcall(function() local v = frames; v:scale('bogus', 'head') end)
  -- Frames:scale(frame = a table)
  pcall(function() local v = frames; v:scale({}, 'head') end)
  -- Frames:scale(frame = another userdata)
  pcall(function() local v = frames; v:scale(rig.idle, 'head') end)
  -- Frames:scale(frame = a function)
  pcall(function() local v = frames; v:scale(print, 'head') end)
  -- Frames:scale(joint = nil)
  pcall(function() local v = frames; v:scale(1, nil) end)
  -- Frames:scale(joint = a table)
  pcall(function() local v = frames; v:scale(1, {}) end)
  -- Frames:scale(joint = another userdata)
  pcall(function() local v = frames; v:scale(1, rig.idle) end)
  -- Frames:scale(joint = a function)
  pcall(function() local v = frames; v:scale(1, print) end)
  error('api_args: 17 wrong calls of Frames:scale made')
  end } } } }
