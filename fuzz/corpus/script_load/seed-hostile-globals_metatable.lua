-- expect: instruction budget of 5000000 exceeded
setmetatable(_G, { __index = function() while true do end end })
local _ = undefined_global
