-- expect: instruction budget of 5000000 exceeded
while true do coroutine.resume(coroutine.create(function() while true do end end)) end
