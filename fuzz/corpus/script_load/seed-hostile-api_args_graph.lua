-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- graph, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- graph with one argument too many
  pcall(function() graph({ root = rig.idle }, 1) end)
  -- graph with one argument too few
  pcall(function() graph() end)
  -- graph(def = nil)
  pcall(function() graph(nil) end)
  -- graph(def = a number)
  pcall(function() graph(12345) end)
  -- graph(def = a string)
  pcall(function() graph('bogus') end)
  -- graph(def = another userdata)
  pcall(function() graph(rig.idle) end)
  -- graph(def = a function)
  pcall(function() graph(print) end)
  error('api_args: 7 wrong calls of graph made')
end
