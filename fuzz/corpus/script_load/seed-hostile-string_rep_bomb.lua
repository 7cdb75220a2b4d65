-- expect: memory limit exceeded
local _ = ("x"):rep(1e9)
