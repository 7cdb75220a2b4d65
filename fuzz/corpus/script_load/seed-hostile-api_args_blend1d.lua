-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- blend1d, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- blend1d with one argument too many
  pcall(function() blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, { sync = true }, 1) end)
  -- blend1d with one argument too few
  pcall(function() blend1d('speed') end)
  -- blend1d(param = nil)
  pcall(function() blend1d(nil, { {0, rig.idle}, {1, rig.walk} }, { sync = true }) end)
  -- blend1d(param = a number)
  pcall(function() blend1d(12345, { {0, rig.idle}, {1, rig.walk} }, { sync = true }) end)
  -- blend1d(param = a table)
  pcall(function() blend1d({}, { {0, rig.idle}, {1, rig.walk} }, { sync = true }) end)
  -- blend1d(param = another userdata)
  pcall(function() blend1d(rig.idle, { {0, rig.idle}, {1, rig.walk} }, { sync = true }) end)
  -- blend1d(param = a function)
  pcall(function() blend1d(print, { {0, rig.idle}, {1, rig.walk} }, { sync = true }) end)
  -- blend1d(points = nil)
  pcall(function() blend1d('speed', nil, { sync = true }) end)
  -- blend1d(points = a number)
  pcall(function() blend1d('speed', 12345, { sync = true }) end)
  -- blend1d(points = a string)
  pcall(function() blend1d('speed', 'bogus', { sync = true }) end)
  -- blend1d(points = another userdata)
  pcall(function() blend1d('speed', rig.idle, { sync = true }) end)
  -- blend1d(points = a function)
  pcall(function() blend1d('speed', print, { sync = true }) end)
  -- blend1d(opts = a number)
  pcall(function() blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, 12345) end)
  -- blend1d(opts = a string)
  pcall(function() blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, 'bogus') end)
  -- blend1d(opts = another userdata)
  pcall(function() blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, rig.idle) end)
  -- blend1d(opts = a function)
  pcall(function() blend1d('speed', { {0, rig.idle}, {1, rig.walk} }, print) end)
  error('api_args: 16 wrong calls of blend1d made')
end
