-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- params, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- params with one argument too many
  pcall(function() params({ extra = float(0, 0, 1) }, 1) end)
  -- params with one argument too few
  pcall(function() params() end)
  -- params(decls = nil)
  pcall(function() params(nil) end)
  -- params(decls = a number)
  pcall(function() params(12345) end)
  -- params(decls = a string)
  pcall(function() params('bogus') end)
  -- params(decls = another userdata)
  pcall(function() params(rig.idle) end)
  -- params(decls = a function)
  pcall(function() params(print) end)
  error('api_args: 7 wrong calls of params made')
end
