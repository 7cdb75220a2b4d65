-- expect: /dev/zero:1: take 'bad': duration -1 must be > 0
-- A chunk name is not a file to read: the error of a take defined inside a chunk named after
-- /dev/zero points at the call: reading that "file" for its lines would never end.
local rig = marionette.rig()
local f = assert(load("return function(rig) return graph { root = rig.idle, takes = { \n\n bad = { duration = -1 } } } end", "@/dev/zero"))
return f()(rig)
