-- expect: instruction budget of 5000000 exceeded
-- The budget's own error calls the message handler with hooks off: the handler must not loop.
xpcall(function() while true do end end, function() while true do end end)
