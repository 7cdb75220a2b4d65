-- expect: any error
-- Generated from scripts/marionette.d.lua by tests/api_family: do not edit
-- (MARIONETTE_BLESS=1 cargo test --test cli script_api_args writes it again).
-- ik.two_bone, called with each wrong kind of argument.
local rig = marionette.rig()
local src = marionette.rig('source.glb')
params { speed = float(0, 0, 2), side = float(0, -1, 1), look = vec3(0, 1, 2), go = trigger() }
do
  -- ik.two_bone with one argument too many
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, { pole = {0, 1, 1} }, 1) end)
  -- ik.two_bone with one argument too few
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}) end)
  -- ik.two_bone(tip = nil)
  pcall(function() ik.two_bone(nil, {0.3, 1, 0.3}, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(tip = a number)
  pcall(function() ik.two_bone(12345, {0.3, 1, 0.3}, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(tip = a table)
  pcall(function() ik.two_bone({}, {0.3, 1, 0.3}, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(tip = another userdata)
  pcall(function() ik.two_bone(rig.idle, {0.3, 1, 0.3}, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(tip = a function)
  pcall(function() ik.two_bone(print, {0.3, 1, 0.3}, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(target = nil)
  pcall(function() ik.two_bone('L_hand', nil, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(target = a number)
  pcall(function() ik.two_bone('L_hand', 12345, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(target = another userdata)
  pcall(function() ik.two_bone('L_hand', rig.idle, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(target = a function)
  pcall(function() ik.two_bone('L_hand', print, { pole = {0, 1, 1} }) end)
  -- ik.two_bone(opts = nil)
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, nil) end)
  -- ik.two_bone(opts = a number)
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, 12345) end)
  -- ik.two_bone(opts = a string)
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, 'bogus') end)
  -- ik.two_bone(opts = another userdata)
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, rig.idle) end)
  -- ik.two_bone(opts = a function)
  pcall(function() ik.two_bone('L_hand', {0.3, 1, 0.3}, print) end)
  error('api_args: 16 wrong calls of ik.two_bone made')
end
