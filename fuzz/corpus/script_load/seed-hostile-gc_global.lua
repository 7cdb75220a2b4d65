-- expect: setmetatable: __gc finalisers are not allowed in Marionette scripts
-- Kept in a global, the finaliser would run when the state closes (after `bake` wrote its output).
KEEP = setmetatable({}, { __gc = function() while true do end end })
