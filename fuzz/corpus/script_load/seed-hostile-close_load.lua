-- expect: chunk:2: to-be-closed variables (<close>) are not allowed in Marionette scripts
local f, err = load("local mt = { __close = function() while true do end end }\nlocal x <close> = setmetatable({}, mt)\nwhile true do end", "=chunk")
error(err, 0)
