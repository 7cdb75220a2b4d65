-- expect: nodes (a node used twice is compiled twice); at most 100000 are allowed
-- A node used twice is compiled twice: 60 doublings describe 2^60 nodes in 60 lines of work.
local rig = marionette.rig()
local n = rig.idle
for _ = 1, 60 do n = blend { { n, 1 }, { n, 1 } } end
return graph { root = n }
