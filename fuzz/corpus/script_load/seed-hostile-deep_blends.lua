-- expect: the graph nests nodes 10001 deep; at most 200 levels are allowed
local rig = marionette.rig()
local n = rig.idle
for _ = 1, 10000 do n = blend { { n, 1 } } end
return graph { root = n }
