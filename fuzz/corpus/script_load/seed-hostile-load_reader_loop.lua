-- expect: instruction budget of 5000000 exceeded
local _ = load(function() while true do end end)
