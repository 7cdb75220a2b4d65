-- expect: instruction budget of 5000000 exceeded in string.match
local _ = string.match(("a"):rep(30), ("a*"):rep(10) .. "b")
