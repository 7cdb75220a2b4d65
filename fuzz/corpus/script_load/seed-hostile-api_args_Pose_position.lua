-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Pose:position, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05 } },
  post = function(pose, ctx)
  -- Pose:position with one argument too many
  pcall(function() local v = pose; v:position('head', 1) end)
  -- Pose:position with one argument too few
  pcall(function() local v = pose; v:position() end)
  -- Pose:position(self = nil)
  pcall(function() local v = pose; v.position(nil, 'head') end)
  -- Pose:position(self = a number)
  pcall(function() local v = pose; v.position(12345, 'head') end)
  -- Pose:position(self = a string)
  pcall(function() local v = pose; v.position('bogus', 'head') end)
  -- Pose:position(self = a table)
  pcall(function() local v = pose; v.position({}, 'head') end)
  -- Pose:position(self = another userdata)
  pcall(function() local v = pose; v.position(rig.idle, 'head') end)
  -- Pose:position(self = a function)
  pcall(function() local v = pose; v.position(print, 'head') end)
  -- Pose:position(joint = nil)
  pcall(function() local v = pose; v:position(nil) end)
  -- Pose:position(joint = a number)
  pcall(function() local v = pose; v:position(12345) end)
  -- Pose:position(joint = a table)
  pcall(function() local v = pose; v:position({}) end)
  -- Pose:position(joint = another userdata)
  pcall(function() local v = pose; v:position(rig.idle) end)
  -- Pose:position(joint = a function)
  pcall(function() local v = pose; v:position(print) end)
  error('api_args: 13 wrong calls of Pose:position made')
  end }
