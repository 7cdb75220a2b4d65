-- expect: setmetatable: __gc finalisers are not allowed in Marionette scripts
-- Any __gc field marks the object for finalisation; the function could be put in later.
local mt = { __gc = false }
KEEP = setmetatable({}, mt)
mt.__gc = function() while true do end end
