local Stack = require "stack"

describe("stack", function()
  randomize()
  local s
  before_each(function() s = Stack.new() end)

  it("pops what was pushed last", function()
    s:push(1); s:push(2)
    assert.equal(2, s:pop())
  end)

  it("refuses to pop when empty", function()
    assert.has_error(function() s:pop() end, "pop from an empty stack")
  end)

  it("counts #wrong", function()
    s:push("a")
    assert.equal(2, s.n)
  end)
end)
