-- expect: instruction budget of 5000000 exceeded
xpcall(error, function() while true do end end)
