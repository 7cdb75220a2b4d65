-- expect: attempt to call a nil value (field 'rig')
marionette.rig = nil
local rig = marionette.rig()
