-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:translation, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:translation with one argument too many
  pcall(function() local v = frames; v:translation(1, 'head', 1) end)
  -- Frames:translation with one argument too few
  pcall(function() local v = frames; v:translation(1) end)
  -- Frames:translation(self = nil)
  pcall(function() local v = frames; v.translation(nil, 1, 'head') end)
  -- Frames:translation(self = a number)
  pcall(function() local v = frames; v.translation(12345, 1, 'head') end)
  -- Frames:translation(self = a string)
  pcall(function() local v = frames; v.translation('bogus', 1, 'head') end)
  -- Frames:translation(self = a table)
  pcall(function() local v = frames; v.translation({}, 1, 'head') end)
  -- Frames:translation(self = another userdata)
  pcall(function() local v = frames; v.translation(rig.idle, 1, 'head') end)
  -- Frames:translation(self = a function)
  pcall(function() local v = frames; v.translation(print, 1, 'head') end)
  -- Frames:translation(frame = nil)
  pcall(function() local v = frames; v:translation(nil, 'head') end)
  -- Frames:translation(frame = a string)
  pcall(function() local v = frames; v:translation('bogus', 'head') end)
  -- Frames:translation(frame = a table)
  pcall(function() local v = frames; v:translation({}, 'head') end)
  -- Frames:translation(frame = another userdata)
  pcall(function() local v = frames; v:translation(rig.idle, 'head') end)
  -- Frames:translation(frame = a function)
  pcall(function() local v = frames; v:translation(print, 'head') end)
  -- Frames:translation(joint = nil)
  pcall(function() local v = frames; v:translation(1, nil) end)
  -- Frames:translation(joint = a table)
  pcall(function() local v = frames; v:translation(1, {}) end)
  -- Frames:translation(joint = another userdata)
  pcall(function() local v = frames; v:translation(1, rig.idle) end)
  -- Frames:translation(joint = a function)
  pcall(function() local v = frames; v:translation(1, print) end)
  error('api_args: 17 wrong calls of Frames:translation made')
  end } } } }
