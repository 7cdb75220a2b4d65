-- expect: /etc/passwd:1: take 'bad': duration -1 must be > 0
-- A chunk name is not a file to read: the error of a take defined inside a chunk named after
-- /etc/passwd points at the call (line 1: the entry's own line, 3, would need the text), and
-- nothing is read from /etc/passwd.
local rig = marionette.rig()
local f = assert(load("return function(rig) return graph { root = rig.idle, takes = { \n\n bad = { duration = -1 } } } end", "@/etc/passwd"))
return f()(rig)
