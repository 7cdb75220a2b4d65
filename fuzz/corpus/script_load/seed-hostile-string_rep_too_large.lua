-- expect: main.lua:2: resulting string too large
local _ = ("x"):rep(1e10)
