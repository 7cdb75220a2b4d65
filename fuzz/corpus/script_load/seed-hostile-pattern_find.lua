-- expect: main.lua:3: instruction budget of 5000000 exceeded in string.find
-- C pattern matching runs no VM instructions: this backtracks for hours unless counted.
local _ = (("a"):rep(25)):find(("a-"):rep(12) .. "b")
