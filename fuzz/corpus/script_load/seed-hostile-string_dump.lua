-- expect: string.dump is not allowed in Marionette scripts (sandbox)
local _ = load(string.dump(function() end), "x", "b")
