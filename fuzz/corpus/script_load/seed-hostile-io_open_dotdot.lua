-- expect: leads to /etc/passwd, outside the project folder
local _ = io.open("../../../../../../etc/passwd")
