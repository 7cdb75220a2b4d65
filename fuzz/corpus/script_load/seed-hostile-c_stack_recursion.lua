-- expect: stack overflow
local t = setmetatable({}, {})
getmetatable(t).__index = function(s, k) return s[k] end
local _ = t.x
