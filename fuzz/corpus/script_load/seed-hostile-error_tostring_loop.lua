-- expect: instruction budget of 5000000 exceeded
error(setmetatable({}, { __tostring = function() while true do end end }))
