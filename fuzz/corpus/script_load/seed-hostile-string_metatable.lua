-- expect: instruction budget of 5000000 exceeded
-- Tampering with the string metatable only affects this script's own state.
getmetatable("").__index = function() while true do end end
local _ = ("x"):upper()
