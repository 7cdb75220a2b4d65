-- expect: attempt to index a boolean value
-- The API's values keep their metatables to themselves.
local rig = marionette.rig()
getmetatable(rig.idle).__gc = function() while true do end end
