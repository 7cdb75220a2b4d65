-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:joint, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:joint with one argument too many
  pcall(function() local v = frames; v:joint('head', 1) end)
  -- Frames:joint with one argument too few
  pcall(function() local v = frames; v:joint() end)
  -- Frames:joint(self = nil)
  pcall(function() local v = frames; v.joint(nil, 'head') end)
  -- Frames:joint(self = a number)
  pcall(function() local v = frames; v.joint(12345, 'head') end)
  -- Frames:joint(self = a string)
  pcall(function() local v = frames; v.joint('bogus', 'head') end)
  -- Frames:joint(self = a table)
  pcall(function() local v = frames; v.joint({}, 'head') end)
  -- Frames:joint(self = another userdata)
  pcall(function() local v = frames; v.joint(rig.idle, 'head') end)
  -- Frames:joint(self = a function)
  pcall(function() local v = frames; v.joint(print, 'head') end)
  -- Frames:joint(name = nil)
  pcall(function() local v = frames; v:joint(nil) end)
  -- Frames:joint(name = a number)
  pcall(function() local v = frames; v:joint(12345) end)
  -- Frames:joint(name = a table)
  pcall(function() local v = frames; v:joint({}) end)
  -- Frames:joint(name = another userdata)
  pcall(function() local v = frames; v:joint(rig.idle) end)
  -- Frames:joint(name = a function)
  pcall(function() local v = frames; v:joint(print) end)
  error('api_args: 13 wrong calls of Frames:joint made')
  end } } } }
