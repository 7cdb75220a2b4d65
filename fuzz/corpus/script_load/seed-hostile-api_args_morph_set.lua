-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- morph.set, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- morph.set with one argument too many
  pcall(function() morph.set('smile', 0.5, { weight = 1 }, 1) end)
  -- morph.set with one argument too few
  pcall(function() morph.set('smile') end)
  -- morph.set(target = nil)
  pcall(function() morph.set(nil, 0.5, { weight = 1 }) end)
  -- morph.set(target = a number)
  pcall(function() morph.set(12345, 0.5, { weight = 1 }) end)
  -- morph.set(target = a table)
  pcall(function() morph.set({}, 0.5, { weight = 1 }) end)
  -- morph.set(target = another userdata)
  pcall(function() morph.set(rig.idle, 0.5, { weight = 1 }) end)
  -- morph.set(target = a function)
  pcall(function() morph.set(print, 0.5, { weight = 1 }) end)
  -- morph.set(value = nil)
  pcall(function() morph.set('smile', nil, { weight = 1 }) end)
  -- morph.set(value = a table)
  pcall(function() morph.set('smile', {}, { weight = 1 }) end)
  -- morph.set(value = another userdata)
  pcall(function() morph.set('smile', rig.idle, { weight = 1 }) end)
  -- morph.set(value = a function)
  pcall(function() morph.set('smile', print, { weight = 1 }) end)
  -- morph.set(opts = a number)
  pcall(function() morph.set('smile', 0.5, 12345) end)
  -- morph.set(opts = a string)
  pcall(function() morph.set('smile', 0.5, 'bogus') end)
  -- morph.set(opts = another userdata)
  pcall(function() morph.set('smile', 0.5, rig.idle) end)
  -- morph.set(opts = a function)
  pcall(function() morph.set('smile', 0.5, print) end)
  error('api_args: 15 wrong calls of morph.set made')
end
