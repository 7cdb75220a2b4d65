-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- state_machine, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- state_machine with one argument too many
  pcall(function() state_machine({ start = 'a', states = { a = rig.idle } }, 1) end)
  -- state_machine with one argument too few
  pcall(function() state_machine() end)
  -- state_machine(def = nil)
  pcall(function() state_machine(nil) end)
  -- state_machine(def = a number)
  pcall(function() state_machine(12345) end)
  -- state_machine(def = a string)
  pcall(function() state_machine('bogus') end)
  -- state_machine(def = another userdata)
  pcall(function() state_machine(rig.idle) end)
  -- state_machine(def = a function)
  pcall(function() state_machine(print) end)
  error('api_args: 7 wrong calls of state_machine made')
end
