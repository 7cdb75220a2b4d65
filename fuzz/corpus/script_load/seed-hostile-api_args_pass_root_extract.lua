-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- pass.root_extract, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- pass.root_extract with one argument too many
  pcall(function() pass.root_extract({ drop = true }, 1) end)
  -- pass.root_extract with one argument too few
  pcall(function() pass.root_extract() end)
  -- pass.root_extract(opts = nil)
  pcall(function() pass.root_extract(nil) end)
  -- pass.root_extract(opts = a number)
  pcall(function() pass.root_extract(12345) end)
  -- pass.root_extract(opts = a string)
  pcall(function() pass.root_extract('bogus') end)
  -- pass.root_extract(opts = another userdata)
  pcall(function() pass.root_extract(rig.idle) end)
  -- pass.root_extract(opts = a function)
  pcall(function() pass.root_extract(print) end)
  error('api_args: 7 wrong calls of pass.root_extract made')
end
