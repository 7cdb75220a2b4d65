-- expect: instruction budget of 5000000 exceeded in table.insert
-- Inserting at the front shifts every element up to the length a __len claims, in C.
local t = setmetatable({}, { __len = function() return 1e15 end })
table.insert(t, 1, "x")
