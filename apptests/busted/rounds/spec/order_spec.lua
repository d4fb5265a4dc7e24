local Stack = require "stack"

it("keeps the order of pushes", function()
  local s = Stack.new()
  for i = 1, 3 do s:push(i) end
  assert.same({ 3, 2, 1 }, { s:pop(), s:pop(), s:pop() })
end)

pending("peeks without popping")
