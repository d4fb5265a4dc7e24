extension FlowTestFramework {
    /// Spies, stubs and mocks (busted's `spy`, `stub`, `mock`). A spy made on a table's field (`spy.on`, `stub`,
    /// `mock`) while a test runs is reverted when the test ends (after its `after_each` hooks); one made in `setup`
    /// when its `describe` block ends.
    static let spies: String = #"""
    -- Arguments as recorded (`n` counts trailing nils) against the expected ones, matchers allowed.
    local function argsMatch(expected, actual)
      if expected.n ~= actual.n then return false end
      for i = 1, expected.n do
        local e, a = expected[i], actual[i]
        if getmetatable(e) == Matcher then
          if not e.test(a) then return false end
        elseif not T.same(e, a) then
          return false
        end
      end
      return true
    end

    -- A call matches with its arguments as they were at the call, or as they are now (a table changed since;
    -- match.is_ref needs the very table).
    local function anyMatch(records, expected)
      for _, r in ipairs(records) do
        if argsMatch(expected, r.vals) or argsMatch(expected, r.refs) then return true end
      end
      return false
    end

    local Spy = {}
    local SpyMethods = {}
    Spy.__index = SpyMethods
    Spy.__tostring = function(s) return s.key ~= nil and ("spy(" .. tostring(s.key) .. ")") or "spy" end
    Spy.__call = function(s, ...)
      local args = pack(...)
      s.calls[#s.calls + 1] = { vals = copyArgs(args), refs = args }
      local results = pack(s.callback(...))
      s.returnvals[#s.returnvals + 1] = { vals = copyArgs(results), refs = results }
      return unpack(results, 1, results.n)
    end

    local function isSpy(v) return getmetatable(v) == Spy end

    --- Spies made on a table's field, in order: reverted when the test (or block) that made them ends.
    local madeSpies = {}

    local function revertSpiesSince(mark)
      for i = #madeSpies, mark + 1, -1 do
        madeSpies[i]:revert()
        madeSpies[i] = nil
      end
    end

    function SpyMethods:revert()
      if not self.reverted and self.target ~= nil then
        self.target[self.key] = self.original
      end
      self.reverted = true
      return self.original
    end

    function SpyMethods:clear()
      self.calls, self.returnvals = {}, {}
      return self
    end

    function SpyMethods:called(n)
      if n == nil then return #self.calls > 0, #self.calls end
      return #self.calls == n, #self.calls
    end

    function SpyMethods:called_with(...) return anyMatch(self.calls, pack(...)) end
    function SpyMethods:returned_with(...) return anyMatch(self.returnvals, pack(...)) end

    local function newSpy(callback)
      return setmetatable({ calls = {}, returnvals = {}, callback = callback }, Spy)
    end

    local spy = {}
    T.spy = spy

    --- A spy that calls `fn` (default: a function that returns nothing) and records each call.
    function spy.new(fn)
      if fn == nil then fn = function() end end
      if not callable(fn) then error("spy.new(fn): fn must be a function, got " .. type(fn), 2) end
      return newSpy(fn)
    end

    --- Replaces `t[key]` by a spy that calls the original; returns the spy.
    function spy.on(t, key)
      if type(t) ~= "table" then error("spy.on(t, key): t must be a table, got " .. type(t), 2) end
      local original = t[key]
      -- Nothing there yet: a spy of a function that returns nothing (as luassert's `spy.new(nil)`).
      if original == nil then original = function() end end
      if not callable(original) then
        error("spy.on(t, " .. T.describe_value(key) .. "): t[" .. T.describe_value(key) .. "] must be a function, got " .. type(original), 2)
      end
      local s = newSpy(original)
      s.target, s.key, s.original = t, key, original
      t[key] = s
      madeSpies[#madeSpies + 1] = s
      return s
    end

    spy.is_spy = isSpy
    setmetatable(spy, { __call = function(_, fn) return spy.new(fn) end })

    -- `s.returns(…)` and `s:returns(…)` both work: the stub itself as the first argument is dropped.
    local function without(self, ...)
      if select("#", ...) > 0 and rawequal((...), self) then return select(2, ...) end
      return ...
    end

    local stub = {}
    T.stub = stub

    --- Replaces `t[key]` by a spy that does not call the original: it returns `...` (or calls the one function
    --- given). `stub()` alone gives a stub on no table.
    function stub.new(t, key, ...)
      if t == nil and key == nil then t, key = {}, "" end
      if type(t) ~= "table" then error("stub(t, key [, …]): t must be a table, got " .. type(t), 2) end
      if key == nil then error("stub(t, key [, …]): key is missing", 2) end
      local original = t[key]
      if original ~= nil and not callable(original) then
        error("stub(t, " .. T.describe_value(key) .. "): t[" .. T.describe_value(key) .. "] must be a function or nil, got " .. type(original), 2)
      end
      local values = pack(...)
      local default
      if values.n == 1 and callable(values[1]) then
        default = values[1]
      else
        default = function() return unpack(values, 1, values.n) end
      end
      local onCalls = {}
      local s = newSpy(function(...)
        local args = pack(...)
        for _, c in ipairs(onCalls) do
          if argsMatch(c.args, args) then return c.fn(...) end
        end
        return default(...)
      end)
      s.target, s.key, s.original = t, key, original
      t[key] = s
      madeSpies[#madeSpies + 1] = s
      s.returns = function(...)
        local v = pack(without(s, ...))
        default = function() return unpack(v, 1, v.n) end
        return s
      end
      s.invokes = function(...)
        local fn = without(s, ...)
        if not callable(fn) then error("stub.invokes(fn): fn must be a function, got " .. type(fn), 2) end
        default = fn
        return s
      end
      s.by_default = { returns = s.returns, invokes = s.invokes }
      s.on_call_with = function(...)
        local call = { args = copyArgs(pack(without(s, ...))) }
        local answer = {}
        answer.returns = function(...)
          local v = pack(without(answer, ...))
          call.fn = function() return unpack(v, 1, v.n) end
          onCalls[#onCalls + 1] = call
          return s
        end
        answer.invokes = function(...)
          local fn = without(answer, ...)
          if not callable(fn) then error("on_call_with(…).invokes(fn): fn must be a function, got " .. type(fn), 2) end
          call.fn = fn
          onCalls[#onCalls + 1] = call
          return s
        end
        return answer
      end
      return s
    end

    stub.is_stub = function(v) return isSpy(v) and v.returns ~= nil end
    setmetatable(stub, { __call = function(_, ...) return stub.new(...) end })

    local mock = {}
    T.mock = mock

    -- Every function in `t` (and in its plain tables) replaced by a spy, or with `stubbed` by a stub.
    local function mockTable(t, stubbed, seen)
      if seen[t] then return end
      seen[t] = true
      for k, v in next, t do
        if isSpy(v) then
          -- already mocked
        elseif callable(v) then
          if stubbed then stub.new(t, k) else spy.on(t, k) end
        elseif type(v) == "table" and getmetatable(v) == nil then
          mockTable(v, stubbed, seen)
        end
      end
    end

    local function revertTable(t, seen)
      if seen[t] then return end
      seen[t] = true
      for _, v in next, t do
        if isSpy(v) then v:revert()
        elseif type(v) == "table" and getmetatable(v) == nil then revertTable(v, seen) end
      end
    end

    --- Replaces every function of `t` (nested plain tables too) by a spy (`stubbed`: a stub); returns `t`.
    function mock.new(t, stubbed)
      if type(t) ~= "table" then error("mock(t [, stubbed]): t must be a table, got " .. type(t), 2) end
      mockTable(t, stubbed, {})
      return t
    end

    --- Puts the original functions back.
    function mock.revert(t)
      if type(t) ~= "table" then error("mock.revert(t): t must be a table, got " .. type(t), 2) end
      revertTable(t, {})
      return t
    end
    --- Clears the calls of every spy in `t` (nested plain tables too), as luassert's `mock.clear`.
    function mock.clear(t)
      if type(t) ~= "table" then error("mock.clear(t): t must be a table, got " .. type(t), 2) end
      local seen = {}
      local function clear(x)
        if seen[x] then return end
        seen[x] = true
        for _, v in next, x do
          if isSpy(v) then v:clear()
          elseif type(v) == "table" and getmetatable(v) == nil then clear(v) end
        end
      end
      if isSpy(t) then t:clear() else clear(t) end
      return t
    end
    setmetatable(mock, { __call = function(_, ...) return mock.new(...) end })

    """#
}
