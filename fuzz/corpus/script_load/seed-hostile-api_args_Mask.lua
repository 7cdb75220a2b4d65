-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- Mask, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- Mask + nil
  pcall(function() local x = mask.all() + nil end)
  -- nil + Mask
  pcall(function() local x = nil + mask.all() end)
  -- Mask + a number
  pcall(function() local x = mask.all() + 12345 end)
  -- a number + Mask
  pcall(function() local x = 12345 + mask.all() end)
  -- Mask + a string
  pcall(function() local x = mask.all() + 'bogus' end)
  -- a string + Mask
  pcall(function() local x = 'bogus' + mask.all() end)
  -- Mask + a table
  pcall(function() local x = mask.all() + {} end)
  -- a table + Mask
  pcall(function() local x = {} + mask.all() end)
  -- Mask + another userdata
  pcall(function() local x = mask.all() + rig.idle end)
  -- another userdata + Mask
  pcall(function() local x = rig.idle + mask.all() end)
  -- Mask + a function
  pcall(function() local x = mask.all() + print end)
  -- a function + Mask
  pcall(function() local x = print + mask.all() end)
  -- Mask - nil
  pcall(function() local x = mask.all() - nil end)
  -- nil - Mask
  pcall(function() local x = nil - mask.all() end)
  -- Mask - a number
  pcall(function() local x = mask.all() - 12345 end)
  -- a number - Mask
  pcall(function() local x = 12345 - mask.all() end)
  -- Mask - a string
  pcall(function() local x = mask.all() - 'bogus' end)
  -- a string - Mask
  pcall(function() local x = 'bogus' - mask.all() end)
  -- Mask - a table
  pcall(function() local x = mask.all() - {} end)
  -- a table - Mask
  pcall(function() local x = {} - mask.all() end)
  -- Mask - another userdata
  pcall(function() local x = mask.all() - rig.idle end)
  -- another userdata - Mask
  pcall(function() local x = rig.idle - mask.all() end)
  -- Mask - a function
  pcall(function() local x = mask.all() - print end)
  -- a function - Mask
  pcall(function() local x = print - mask.all() end)
  -- Mask * nil
  pcall(function() local x = mask.all() * nil end)
  -- nil * Mask
  pcall(function() local x = nil * mask.all() end)
  -- Mask * a string
  pcall(function() local x = mask.all() * 'bogus' end)
  -- a string * Mask
  pcall(function() local x = 'bogus' * mask.all() end)
  -- Mask * a table
  pcall(function() local x = mask.all() * {} end)
  -- a table * Mask
  pcall(function() local x = {} * mask.all() end)
  -- Mask * another userdata
  pcall(function() local x = mask.all() * rig.idle end)
  -- another userdata * Mask
  pcall(function() local x = rig.idle * mask.all() end)
  -- Mask * a function
  pcall(function() local x = mask.all() * print end)
  -- a function * Mask
  pcall(function() local x = print * mask.all() end)
  error('api_args: 34 wrong calls of Mask made')
end
