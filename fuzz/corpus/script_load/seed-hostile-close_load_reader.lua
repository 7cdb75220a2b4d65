-- expect: to-be-closed variables (<close>) are not allowed in Marionette scripts
local parts = { "local x <", "close> = nil" }
local i = 0
local f, err = load(function() i = i + 1; return parts[i] end)
error(err, 0)
