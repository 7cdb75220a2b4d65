-- expect: main.lua:2: io.open("/etc/passwd"): '/etc/passwd' is outside the project folder
local _ = io.open("/etc/passwd")
