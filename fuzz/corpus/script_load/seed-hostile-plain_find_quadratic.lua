-- expect: instruction budget of 5000000 exceeded in string.find
local hay, needle = ("a"):rep(4000000), ("a"):rep(2000000) .. "b"
local _ = hay:find(needle, 1, true)
