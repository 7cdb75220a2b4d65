-- expect: the graph nests nodes 302 deep; at most 200 levels are allowed
-- Each layered input adds a level (the layers are applied one over the other).
local rig = marionette.rig()
local layers = {}
for i = 1, 300 do layers[i] = { rig.wave, weight = 0.5 } end
local n = layer(rig.idle, table.unpack(layers))
return graph { root = layer(n, { rig.walk }) }
