-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Node:event, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Node:event with one argument too many
  pcall(function() local v = rig.idle; v:event('step', 0.1, 1) end)
  -- Node:event with one argument too few
  pcall(function() local v = rig.idle; v:event('step') end)
  -- Node:event(self = nil)
  pcall(function() local v = rig.idle; v.event(nil, 'step', 0.1) end)
  -- Node:event(self = a number)
  pcall(function() local v = rig.idle; v.event(12345, 'step', 0.1) end)
  -- Node:event(self = a string)
  pcall(function() local v = rig.idle; v.event('bogus', 'step', 0.1) end)
  -- Node:event(self = a table)
  pcall(function() local v = rig.idle; v.event({}, 'step', 0.1) end)
  -- Node:event(self = another userdata)
  pcall(function() local v = rig.idle; v.event(mask.all(), 'step', 0.1) end)
  -- Node:event(self = a function)
  pcall(function() local v = rig.idle; v.event(print, 'step', 0.1) end)
  -- Node:event(name = nil)
  pcall(function() local v = rig.idle; v:event(nil, 0.1) end)
  -- Node:event(name = a number)
  pcall(function() local v = rig.idle; v:event(12345, 0.1) end)
  -- Node:event(name = a table)
  pcall(function() local v = rig.idle; v:event({}, 0.1) end)
  -- Node:event(name = another userdata)
  pcall(function() local v = rig.idle; v:event(rig.idle, 0.1) end)
  -- Node:event(name = a function)
  pcall(function() local v = rig.idle; v:event(print, 0.1) end)
  -- Node:event(seconds = nil)
  pcall(function() local v = rig.idle; v:event('step', nil) end)
  -- Node:event(seconds = a string)
  pcall(function() local v = rig.idle; v:event('step', 'bogus') end)
  -- Node:event(seconds = a table)
  pcall(function() local v = rig.idle; v:event('step', {}) end)
  -- Node:event(seconds = another userdata)
  pcall(function() local v = rig.idle; v:event('step', rig.idle) end)
  -- Node:event(seconds = a function)
  pcall(function() local v = rig.idle; v:event('step', print) end)
  error('api_args: 18 wrong calls of Node:event made')
end
