-- expect: main.lua:5: to-be-closed variables (<close>) are not allowed in Marionette scripts
-- A coroutine stopped by the budget has its hooks off: its <close> handler would run unbudgeted
-- when the coroutine is closed.
local co = coroutine.create(function()
  local x <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end)
pcall(coroutine.resume, co)
coroutine.close(co)
