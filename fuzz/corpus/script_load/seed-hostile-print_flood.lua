-- expect: instruction budget of 5000000 exceeded
-- Printing is capped (1 MiB kept); the loop itself is stopped by the budget.
local s = ("x"):rep(4 * 1024 * 1024)
while true do print(s, s, s, s) end
