-- expect: main.lua:6: the graph nests nodes 10001 deep; at most 200 levels are allowed
local rig = marionette.rig()
local n = rig.idle
for _ = 1, 10000 do n = n:mirror() end

return graph { root = n }
