-- expect: memory
-- The replacement grows the text 1000 times: the result must stay within the memory limit.
local s = ("x"):rep(1000000)
local _ = s:gsub("x", ("y"):rep(1000))
