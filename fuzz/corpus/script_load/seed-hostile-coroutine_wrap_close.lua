-- expect: to-be-closed variables (<close>) are not allowed in Marionette scripts
-- coroutine.wrap closes a failed coroutine's <close> variables.
local f = coroutine.wrap(function()
  local x < close > = setmetatable({}, { __close = function() while true do end end })
  while true do end
end)
f()
