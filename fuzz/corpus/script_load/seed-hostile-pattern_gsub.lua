-- expect: instruction budget of 5000000 exceeded in string.gsub
local _ = (("a"):rep(30)):gsub(("a-"):rep(10) .. "b", "x")
