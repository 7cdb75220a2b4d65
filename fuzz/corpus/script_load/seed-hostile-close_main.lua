-- expect: main.lua:5: to-be-closed variables (<close>) are not allowed in Marionette scripts
-- The budget stops the loop from inside Lua's hook, where the <close> handler would then run
-- with hooks off: an infinite loop there could never be stopped.
local mt = { __close = function() while true do end end }
local x <close> = setmetatable({}, mt)
while true do end
