-- expect: debug.sethook is not allowed in Marionette scripts (sandbox)
debug.sethook()
