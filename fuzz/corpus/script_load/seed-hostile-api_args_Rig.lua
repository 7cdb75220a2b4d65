-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Rig, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Rig[nil]
  pcall(function() local x = rig[nil]; assert(x ~= nil, 'no value') end)
  -- Rig[a number]
  pcall(function() local x = rig[12345]; assert(x ~= nil, 'no value') end)
  -- Rig[a table]
  pcall(function() local x = rig[{}]; assert(x ~= nil, 'no value') end)
  -- Rig[another userdata]
  pcall(function() local x = rig[rig.idle]; assert(x ~= nil, 'no value') end)
  -- Rig[a function]
  pcall(function() local x = rig[print]; assert(x ~= nil, 'no value') end)
  error('api_args: 5 wrong calls of Rig made')
end
