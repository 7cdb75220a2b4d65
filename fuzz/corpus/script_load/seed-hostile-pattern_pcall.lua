-- expect: instruction budget of 5000000 exceeded in string.find
-- Catching the budget error does not help: the state is spent.
while true do pcall(string.find, ("a"):rep(25), ("a-"):rep(12) .. "b") end
