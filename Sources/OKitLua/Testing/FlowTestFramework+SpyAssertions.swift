extension FlowTestFramework {
    /// The assertions on spies: `assert.spy(s).was.called(n)`, `.called_with(…)`, `.returned_with(…)`,
    /// `.called_at_least(n)`, … (`assert.stub(s)` is the same).
    static let spyAssertions: String = #"""
    -- Spy assertions ----------------------------------------------------------------------------------------

    local function argsText(args)
      local parts = {}
      for i = 1, args.n do parts[i] = show(args[i]) end
      return "(" .. concat(parts, ", ") .. ")"
    end

    local function plural(n, word) return n .. " " .. word .. (n == 1 and "" or "s") end

    -- "never called", "1 call: (1, "a")", "3 calls: (…), (…), (…)"; returns: "returned (1), (2)".
    local function recordsText(records, what)
      if #records == 0 then return "never called" end
      local shown = {}
      for i = 1, math.min(#records, 5) do shown[i] = argsText(records[i].vals) end
      local more = #records > 5 and (", … (" .. (#records - 5) .. " more)") or ""
      if what == "returns" then return "returned " .. concat(shown, ", ") .. more end
      return plural(#records, "call") .. ": " .. concat(shown, ", ") .. more
    end

    modifiers.spy = function(s)
      if not isSpy(s) then
        failed("spy", nil, "s must be a spy (spy.new, spy.on, stub or mock), got " .. type(s)
          .. (type(s) == "function" and " (pass the spy that spy.on or stub returned)" or ""))
      end
      return s
    end
    modifiers.stub = modifiers.spy

    local function countCheck(name, s, n)
      if math.type(n) ~= "integer" then failed(name, nil, "the number of calls must be an integer, got " .. show(n)) end
      return #s.calls
    end

    A.called = {
      function(s, n, msg)
        if n == nil then
          if #s.calls == 0 then failed("called", msg, expectedActual("at least one call", "never called")) end
        elseif countCheck("called", s, n) ~= n then
          failed("called", msg, expectedActual(plural(n, "call"), recordsText(s.calls)))
        end
      end,
      function(s, n, msg)
        if n == nil then
          if #s.calls > 0 then failed("not_called", msg, expectedActual("no call", recordsText(s.calls))) end
        elseif countCheck("not_called", s, n) == n then
          failed("not_called", msg, expectedActual("not " .. plural(n, "call"), recordsText(s.calls)))
        end
      end,
      payload = true,
    }

    -- called_at_least(n) and its kin: the number of calls compared with n.
    local function countAssertion(name, text, compare, negation, negatedText)
      A[name] = {
        function(s, n, msg)
          if not compare(countCheck(name, s, n), n) then
            failed(name, msg, expectedActual(text .. " " .. plural(n, "call"), recordsText(s.calls)))
          end
        end,
        function(s, n, msg)
          if compare(countCheck(negation, s, n), n) then
            failed(negation, msg, expectedActual(negatedText .. " " .. plural(n, "call"), recordsText(s.calls)))
          end
        end,
        payload = true,
      }
    end
    countAssertion("called_at_least", "at least", function(c, n) return c >= n end, "not_called_at_least", "fewer than")
    countAssertion("called_at_most", "at most", function(c, n) return c <= n end, "not_called_at_most", "more than")
    countAssertion("called_more_than", "more than", function(c, n) return c > n end, "not_called_more_than", "at most")
    countAssertion("called_less_than", "fewer than", function(c, n) return c < n end, "not_called_less_than", "at least")

    A.called_with = {
      function(s, ...)
        local expected = pack(...)
        if not anyMatch(s.calls, expected) then
          failed("called_with", nil, expectedActual("a call with " .. argsText(expected), recordsText(s.calls)))
        end
      end,
      function(s, ...)
        local expected = pack(...)
        if anyMatch(s.calls, expected) then
          failed("not_called_with", nil, expectedActual("no call with " .. argsText(expected), recordsText(s.calls)))
        end
      end,
      payload = true,
    }
    A.returned_with = {
      function(s, ...)
        local expected = pack(...)
        if not anyMatch(s.returnvals, expected) then
          failed("returned_with", nil, expectedActual("a call that returned " .. argsText(expected), recordsText(s.returnvals, "returns")))
        end
      end,
      function(s, ...)
        local expected = pack(...)
        if anyMatch(s.returnvals, expected) then
          failed("not_returned_with", nil, expectedActual("no call that returned " .. argsText(expected), recordsText(s.returnvals, "returns")))
        end
      end,
      payload = true,
    }

    """#
}
