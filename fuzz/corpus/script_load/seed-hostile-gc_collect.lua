-- expect: setmetatable: __gc finalisers are not allowed in Marionette scripts
-- A finaliser runs with Lua's hooks off: an infinite loop in one could never be stopped.
setmetatable({}, { __gc = function() while true do end end })
collectgarbage()
