-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- stepped, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- stepped with one argument too many
  pcall(function() stepped(rig.walk, 12, 1) end)
  -- stepped with one argument too few
  pcall(function() stepped(rig.walk) end)
  -- stepped(node = nil)
  pcall(function() stepped(nil, 12) end)
  -- stepped(node = a number)
  pcall(function() stepped(12345, 12) end)
  -- stepped(node = a string)
  pcall(function() stepped('bogus', 12) end)
  -- stepped(node = a table)
  pcall(function() stepped({}, 12) end)
  -- stepped(node = another userdata)
  pcall(function() stepped(mask.all(), 12) end)
  -- stepped(node = a function)
  pcall(function() stepped(print, 12) end)
  -- stepped(fps = nil)
  pcall(function() stepped(rig.walk, nil) end)
  -- stepped(fps = a table)
  pcall(function() stepped(rig.walk, {}) end)
  -- stepped(fps = another userdata)
  pcall(function() stepped(rig.walk, rig.idle) end)
  -- stepped(fps = a function)
  pcall(function() stepped(rig.walk, print) end)
  error('api_args: 12 wrong calls of stepped made')
end
