-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:rotation, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:rotation with one argument too many
  pcall(function() local v = frames; v:rotation(1, 'head', 1) end)
  -- Frames:rotation with one argument too few
  pcall(function() local v = frames; v:rotation(1) end)
  -- Frames:rotation(self = nil)
  pcall(function() local v = frames; v.rotation(nil, 1, 'head') end)
  -- Frames:rotation(self = a number)
  pcall(function() local v = frames; v.rotation(12345, 1, 'head') end)
  -- Frames:rotation(self = a string)
  pcall(function() local v = frames; v.rotation('bogus', 1, 'head') end)
  -- Frames:rotation(self = a table)
  pcall(function() local v = frames; v.rotation({}, 1, 'head') end)
  -- Frames:rotation(self = another userdata)
  pcall(function() local v = frames; v.rotation(rig.idle, 1, 'head') end)
  -- Frames:rotation(self = a function)
  pcall(function() local v = frames; v.rotation(print, 1, 'head') end)
  -- Frames:rotation(frame = nil)
  pcall(function() local v = frames; v:rotation(nil, 'head') end)
  -- Frames:rotation(frame = a string)
  pcall(function() local v = frames; v:rotation('bogus', 'head') end)
  -- Frames:rotation(frame = a table)
  pcall(function() local v = frames; v:rotation({}, 'head') end)
  -- Frames:rotation(frame = another userdata)
  pcall(function() local v = frames; v:rotation(rig.idle, 'head') end)
  -- Frames:rotation(frame = a function)
  pcall(function() local v = frames; v:rotation(print, 'head') end)
  -- Frames:rotation(joint = nil)
  pcall(function() local v = frames; v:rotation(1, nil) end)
  -- Frames:rotation(joint = a table)
  pcall(function() local v = frames; v:rotation(1, {}) end)
  -- Frames:rotation(joint = another userdata)
  pcall(function() local v = frames; v:rotation(1, rig.idle) end)
  -- Frames:rotation(joint = a function)
  pcall(function() local v = frames; v:rotation(1, print) end)
  error('api_args: 17 wrong calls of Frames:rotation made')
  end } } } }
