-- expect: instruction budget of 5000000 exceeded in table.move
-- table.move loops in C over the range it is given.
table.move({}, 1, 1e15, 2)
