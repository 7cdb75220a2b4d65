-- expect: attempt to load a binary chunk (mode is 't')
local f, err = load("\27Lua\84\0")
error(err)
