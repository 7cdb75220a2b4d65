-- expect: the graph nests nodes 100001 deep; at most 200 levels are allowed
local rig = marionette.rig()
local n = rig.idle
for _ = 1, 100000 do n = n:mirror() end
return graph { root = n }
