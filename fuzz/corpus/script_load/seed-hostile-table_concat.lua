-- expect: instruction budget of 5000000 exceeded in table.concat
-- Every index reads "" through a C __index: the loop runs in C and allocates nothing.
local t = setmetatable({}, { __index = table.concat })
local _ = table.concat(t, "", 1, 1e15)
