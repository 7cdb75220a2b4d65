-- expect: instruction budget of 5000000 exceeded in string.gmatch
for _ in (("a"):rep(40)):gmatch(("a?"):rep(20) .. "b") do end
