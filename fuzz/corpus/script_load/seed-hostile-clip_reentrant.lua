-- expect: clip 'outer': the rig changed while its keys were read
-- A key's metamethod defines two more clips while clip() reads it: the outer clip must not
-- replace the rig they joined (their nodes would name clips that are gone or another clip).
local rig = marionette.rig()
local inner
local key = setmetatable({}, { __index = function(t, k)
  if k == 1 then
    if not inner then
      clip("a", { root = { { 0, rotation = { 0, 0, 0 } } } })
      inner = clip("b", { root = { { 0, rotation = { 0, 0, 0 } } } })
    end
    return 0
  end
  if k == "rotation" then return { 0, 10, 0 } end
end })
clip("outer", { root = { key } })
return graph { root = inner }
