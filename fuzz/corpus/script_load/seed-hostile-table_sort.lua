-- expect: instruction budget of 5000000 exceeded in table.sort
local t = setmetatable({}, { __len = function() return 2 ^ 31 - 2 end, __index = table.concat })
table.sort(t)
