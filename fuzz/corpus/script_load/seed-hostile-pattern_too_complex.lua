-- expect: main.lua:2: pattern too complex
local _ = string.find(("a"):rep(300), ("a?"):rep(300) .. "b")
