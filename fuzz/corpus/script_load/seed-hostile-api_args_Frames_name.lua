-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Frames:name, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05,
  passes = { function(frames)
  -- Frames:name with one argument too many
  pcall(function() local v = frames; v:name('head', 1) end)
  -- Frames:name with one argument too few
  pcall(function() local v = frames; v:name() end)
  -- Frames:name(self = nil)
  pcall(function() local v = frames; v.name(nil, 'head') end)
  -- Frames:name(self = a number)
  pcall(function() local v = frames; v.name(12345, 'head') end)
  -- Frames:name(self = a string)
  pcall(function() local v = frames; v.name('bogus', 'head') end)
  -- Frames:name(self = a table)
  pcall(function() local v = frames; v.name({}, 'head') end)
  -- Frames:name(self = another userdata)
  pcall(function() local v = frames; v.name(rig.idle, 'head') end)
  -- Frames:name(self = a function)
  pcall(function() local v = frames; v.name(print, 'head') end)
  -- Frames:name(joint = nil)
  pcall(function() local v = frames; v:name(nil) end)
  -- Frames:name(joint = a table)
  pcall(function() local v = frames; v:name({}) end)
  -- Frames:name(joint = another userdata)
  pcall(function() local v = frames; v:name(rig.idle) end)
  -- Frames:name(joint = a function)
  pcall(function() local v = frames; v:name(print) end)
  error('api_args: 12 wrong calls of Frames:name made')
  end } } } }
