-- expect: any error
-- take: t
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Pose:set_morph, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
return graph { root = rig.idle, takes = { t = { duration = 0.05 } },
  post = function(pose, ctx)
  -- Pose:set_morph with one argument too many
  pcall(function() local v = pose; v:set_morph('smile', 0.5, 1) end)
  -- Pose:set_morph with one argument too few
  pcall(function() local v = pose; v:set_morph('smile') end)
  -- Pose:set_morph(self = nil)
  pcall(function() local v = pose; v.set_morph(nil, 'smile', 0.5) end)
  -- Pose:set_morph(self = a number)
  pcall(function() local v = pose; v.set_morph(12345, 'smile', 0.5) end)
  -- Pose:set_morph(self = a string)
  pcall(function() local v = pose; v.set_morph('bogus', 'smile', 0.5) end)
  -- Pose:set_morph(self = a table)
  pcall(function() local v = pose; v.set_morph({}, 'smile', 0.5) end)
  -- Pose:set_morph(self = another userdata)
  pcall(function() local v = pose; v.set_morph(rig.idle, 'smile', 0.5) end)
  -- Pose:set_morph(self = a function)
  pcall(function() local v = pose; v.set_morph(print, 'smile', 0.5) end)
  -- Pose:set_morph(target = nil)
  pcall(function() local v = pose; v:set_morph(nil, 0.5) end)
  -- Pose:set_morph(target = a number)
  pcall(function() local v = pose; v:set_morph(12345, 0.5) end)
  -- Pose:set_morph(target = a table)
  pcall(function() local v = pose; v:set_morph({}, 0.5) end)
  -- Pose:set_morph(target = another userdata)
  pcall(function() local v = pose; v:set_morph(rig.idle, 0.5) end)
  -- Pose:set_morph(target = a function)
  pcall(function() local v = pose; v:set_morph(print, 0.5) end)
  -- Pose:set_morph(weight = nil)
  pcall(function() local v = pose; v:set_morph('smile', nil) end)
  -- Pose:set_morph(weight = a string)
  pcall(function() local v = pose; v:set_morph('smile', 'bogus') end)
  -- Pose:set_morph(weight = a table)
  pcall(function() local v = pose; v:set_morph('smile', {}) end)
  -- Pose:set_morph(weight = another userdata)
  pcall(function() local v = pose; v:set_morph('smile', rig.idle) end)
  -- Pose:set_morph(weight = a function)
  pcall(function() local v = pose; v:set_morph('smile', print) end)
  error('api_args: 18 wrong calls of Pose:set_morph made')
  end }
