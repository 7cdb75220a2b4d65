-- expect: instruction budget of 5000000 exceeded
while true do xpcall(function() while true do end end, function(e) return e end) end
