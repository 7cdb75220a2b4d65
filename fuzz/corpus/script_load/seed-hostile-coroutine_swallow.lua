-- expect: instruction budget of 5000000 exceeded
-- A coroutine made before the budget ran out keeps the hook's old pace; pcall cannot hide it.
local co = coroutine.wrap(function()
  while true do pcall(function() while true do end end) end
end)
co()
