-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- clip, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- clip with one argument too many
  pcall(function() clip('made', { head = { {0, rotation = {0, 10, 0}} } }, 1) end)
  -- clip with one argument too few
  pcall(function() clip('made') end)
  -- clip(name = nil)
  pcall(function() clip(nil, { head = { {0, rotation = {0, 10, 0}} } }) end)
  -- clip(name = a number)
  pcall(function() clip(12345, { head = { {0, rotation = {0, 10, 0}} } }) end)
  -- clip(name = a table)
  pcall(function() clip({}, { head = { {0, rotation = {0, 10, 0}} } }) end)
  -- clip(name = another userdata)
  pcall(function() clip(rig.idle, { head = { {0, rotation = {0, 10, 0}} } }) end)
  -- clip(name = a function)
  pcall(function() clip(print, { head = { {0, rotation = {0, 10, 0}} } }) end)
  -- clip(joints = nil)
  pcall(function() clip('made', nil) end)
  -- clip(joints = a number)
  pcall(function() clip('made', 12345) end)
  -- clip(joints = a string)
  pcall(function() clip('made', 'bogus') end)
  -- clip(joints = another userdata)
  pcall(function() clip('made', rig.idle) end)
  -- clip(joints = a function)
  pcall(function() clip('made', print) end)
  error('api_args: 12 wrong calls of clip made')
end
