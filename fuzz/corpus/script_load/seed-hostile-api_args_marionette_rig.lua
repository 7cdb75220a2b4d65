-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- marionette.rig, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- marionette.rig with one argument too many
  pcall(function() marionette.rig(nil, nil, 1) end)
  -- marionette.rig(path = a number)
  pcall(function() marionette.rig(12345) end)
  -- marionette.rig(path = a table)
  pcall(function() marionette.rig({}) end)
  -- marionette.rig(path = another userdata)
  pcall(function() marionette.rig(rig.idle) end)
  -- marionette.rig(path = a function)
  pcall(function() marionette.rig(print) end)
  -- marionette.rig(opts = a number)
  pcall(function() marionette.rig(nil, 12345) end)
  -- marionette.rig(opts = a string)
  pcall(function() marionette.rig(nil, 'bogus') end)
  -- marionette.rig(opts = another userdata)
  pcall(function() marionette.rig(nil, rig.idle) end)
  -- marionette.rig(opts = a function)
  pcall(function() marionette.rig(nil, print) end)
  error('api_args: 9 wrong calls of marionette.rig made')
end
