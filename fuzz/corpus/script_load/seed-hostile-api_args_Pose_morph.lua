-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Pose:morph, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05 } },
  post = function(pose, ctx)
  -- Pose:morph with one argument too many
  pcall(function() local v = pose; v:morph('smile', 1) end)
  -- Pose:morph with one argument too few
  pcall(function() local v = pose; v:morph() end)
  -- Pose:morph(self = nil)
  pcall(function() local v = pose; v.morph(nil, 'smile') end)
  -- Pose:morph(self = a number)
  pcall(function() local v = pose; v.morph(12345, 'smile') end)
  -- Pose:morph(self = a string)
  pcall(function() local v = pose; v.morph('bogus', 'smile') end)
  -- Pose:morph(self = a table)
  pcall(function() local v = pose; v.morph({}, 'smile') end)
  -- Pose:morph(self = another userdata)
  pcall(function() local v = pose; v.morph(rig.idle, 'smile') end)
  -- Pose:morph(self = a function)
  pcall(function() local v = pose; v.morph(print, 'smile') end)
  -- Pose:morph(target = nil)
  pcall(function() local v = pose; v:morph(nil) end)
  -- Pose:morph(target = a number)
  pcall(function() local v = pose; v:morph(12345) end)
  -- Pose:morph(target = a table)
  pcall(function() local v = pose; v:morph({}) end)
  -- Pose:morph(target = another userdata)
  pcall(function() local v = pose; v:morph(rig.idle) end)
  -- Pose:morph(target = a function)
  pcall(function() local v = pose; v:morph(print) end)
  error('api_args: 13 wrong calls of Pose:morph made')
  end }
