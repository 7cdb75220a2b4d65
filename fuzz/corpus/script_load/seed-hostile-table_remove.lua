-- expect: instruction budget of 5000000 exceeded in table.remove
local t = setmetatable({}, { __len = function() return 1e15 end })
table.remove(t, 1)
