extension FlowTestFramework {
    /// The assertions after the basic ones (run after `assertions`, sharing its locals): `near`, the type checks,
    /// `unique`, `error_matches`, `returned_arguments`, and luassert's least number of arguments of each assertion
    /// (`assert.equal(v)` fails as luassert's does: `the 'equals' function requires a minimum of 2 arguments, got: 1`).
    static let moreAssertions: String = #"""
    -- As luassert: each argument a number or a text that is one ("1.5").
    local function nearArguments(name, e, a, tolerance, msg)
      local x, y, t = tonumber(e), tonumber(a), tonumber(tolerance)
      if x == nil or y == nil or t == nil then
        failed(name, msg, "expected, actual and tolerance must be numbers (or texts of numbers), got "
          .. show(e) .. ", " .. show(a) .. ", " .. show(tolerance))
      end
      return x, y, t
    end
    A.near = {
      function(e, a, tolerance, msg)
        local x, y, t = nearArguments("near", e, a, tolerance, msg)
        if not (math.abs(x - y) <= t) then
          failed("near", msg, expectedActual(show(e) .. " ± " .. show(tolerance), show(a)))
        end
      end,
      function(e, a, tolerance, msg)
        local x, y, t = nearArguments("not_near", e, a, tolerance, msg)
        if math.abs(x - y) <= t then
          failed("not_near", msg, expectedActual("farther than " .. show(tolerance) .. " from " .. show(e), show(a)))
        end
      end,
    }
    -- assert.is_string(v), assert.is_number(v), …: the type of v.
    for _, typeName in ipairs { "string", "number", "table", "function", "boolean", "userdata", "thread" } do
      local article = typeName == "userdata" and "a " or (typeName:match("^[aeiou]") and "an " or "a ")
      A[typeName] = {
        function(v, msg)
          if type(v) ~= typeName then
            failed("is_" .. typeName, msg, expectedActual(article .. typeName, show(v) .. " (" .. type(v) .. ")"))
          end
        end,
        function(v, msg)
          if type(v) == typeName then failed("is_not_" .. typeName, msg, expectedActual("not " .. article .. typeName, show(v))) end
        end,
      }
    end
    -- assert.unique(list [, deep]): no two items equal (deep: no two the same).
    local function firstRepeat(list, deep)
      local n = #list
      for i = 1, n do
        for j = i + 1, n do
          if list[i] == list[j] or (deep and T.same(list[i], list[j])) then return i, j end
        end
      end
    end
    A.unique = {
      function(list, deep, msg)
        if type(list) ~= "table" then failed("unique", msg, expectedActual("a list", show(list))) end
        local i, j = firstRepeat(list, deep)
        if i then failed("unique", msg, "items " .. i .. " and " .. j .. " are the same: " .. show(list[i]), "  actual: " .. show(list)) end
      end,
      function(list, deep, msg)
        if type(list) == "table" and not firstRepeat(list, deep) then
          failed("not_unique", msg, expectedActual("a list with a repeated item", show(list)))
        end
      end,
    }
    -- assert.error_matches(fn, pattern [, init [, plain]]): fn raises an error whose text matches the Lua pattern
    -- (as luassert: a string, number or boolean error, or one with __tostring; a plain table error has no text).
    local function errorMatch(fn, pattern, init, plain)
      local ok, err = pcall(fn)
      if ok then return false, "no error" end
      if err == nil and pattern == nil then return true, "nil", {} end   -- as luassert: error() matches a nil pattern
      local text = type(err) == "boolean" and tostring(err) or matchable(err)
      -- In specs as luassert: the error's text without its "file:line: ".
      if T.busted and type(err) == "string" then text = text:gsub("^.-:%d+: ", "", 1) end
      local holds, given = matched(text, pattern, init, plain)
      return holds, text and show(text) or show(err), given
    end
    A.error_matches = {
      function(fn, ...)
        local pattern, init, plain, msg = select(2, optionalArguments(fn, ...))
        if not callable(fn) then failed("error_matches", msg, "the first argument must be a function, got " .. type(fn)) end
        local ok, actual, given = errorMatch(fn, pattern, init, plain)
        if not ok then failed("error_matches", msg, expectedActual("an error matching " .. show(pattern), actual)) end
        return given                                   -- as luassert: the pattern's captures (the pattern when plain)
      end,
      function(fn, ...)
        local pattern, init, plain, msg = select(2, optionalArguments(fn, ...))
        if not callable(fn) then failed("not_error_matches", msg, "the first argument must be a function, got " .. type(fn)) end
        local ok, actual = errorMatch(fn, pattern, init, plain)
        if ok then failed("not_error_matches", msg, expectedActual("no error matching " .. show(pattern), actual)) end
      end,
    }

    -- assert.returned_arguments(n, …): exactly n values follow (luassert's, for a function's returns passed on).
    A.returned_arguments = {
      function(n, ...)
        local got = select("#", ...)
        if tostring(n) ~= tostring(got) then failed("returned_arguments", nil, expectedActual(tostring(n) .. " values", tostring(got))) end
      end,
      function(n, ...)
        if tostring(n) == tostring(select("#", ...)) then failed("not_returned_arguments", nil, expectedActual("not " .. tostring(n) .. " values", tostring(n))) end
      end,
    }

    -- luassert's least number of arguments (its `argtolittle` checks) and the name its message gives: fewer fail
    -- before the assertion runs, negated or not (`assert.not_equal(1)` names 'equals', as luassert's).
    A.equal.minimum, A.same.minimum, A.near.minimum = { 2, "equals" }, { 2, "same" }, { 3, "near" }
    A.matches.minimum, A.error_matches.minimum = { 2, "matches" }, { 2, "error_matches" }
    A.truthy.minimum, A.falsy.minimum, A.contains.minimum = { 1, "truthy" }, { 1, "falsy" }, { 2, "contains" }

    """#
}
