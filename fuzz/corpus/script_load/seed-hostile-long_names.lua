-- expect: blend1d: unknown parameter
-- A long name near another long one: the "did you mean" search must not compare them letter
-- by letter (30000 x 30000 cells: gigabytes, seconds).
params { [string.rep("a", 30000)] = float() }
local rig = marionette.rig()
return graph { root = blend1d(string.rep("a", 29999) .. "b", { { 0, rig.idle } }) }
