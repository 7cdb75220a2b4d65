-- expect: main.lua:2: too many captures
local _ = string.find("x", ("("):rep(40))
