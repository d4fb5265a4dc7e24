local Stack = {}
Stack.__index = Stack

function Stack.new() return setmetatable({ n = 0 }, Stack) end

function Stack:push(v)
  self.n = self.n + 1
  self[self.n] = v
end

function Stack:pop()
  if self.n == 0 then error("pop from an empty stack", 2) end
  local v = self[self.n]
  self[self.n] = nil
  self.n = self.n - 1
  return v
end

return Stack
