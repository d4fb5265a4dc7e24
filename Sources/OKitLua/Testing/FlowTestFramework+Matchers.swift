extension FlowTestFramework {
    /// busted's `match` for spy arguments: `match._`, `match.is_string()`, `match.is_same(v)`, `match.is_not.nil()`, …
    /// (and the helpers the spies' part shares: `pack`, `callable`, `copyArgs`).
    static let matchers: String = #"""
    -- Spies -------------------------------------------------------------------------------------------------

    local pack, unpack = table.pack, table.unpack

    -- A copy of plain tables (no metatable), so that later changes to an argument do not change what was recorded.
    local function copyValue(v, seen)
      if type(v) ~= "table" or getmetatable(v) ~= nil then return v end
      if seen[v] then return seen[v] end
      local c = {}
      seen[v] = c
      for k, x in next, v do c[k] = copyValue(x, seen) end
      return c
    end

    local function copyArgs(args)
      local seen, c = {}, { n = args.n }
      for i = 1, args.n do c[i] = copyValue(args[i], seen) end
      return c
    end

    -- Matchers: match._, match.is_string(), match.is_same(v), match.is_not.number(), …
    local Matcher = {}
    Matcher.__tostring = function(m) return m.text end
    -- as luassert's: a matcher called on a value says whether it matches (`match._(nil)`, `match.is_string()("x")`)
    Matcher.__call = function(m, v) return m.test(v) and true or false end

    local function matcher(text, test) return setmetatable({ text = text, test = test }, Matcher) end

    local matchers = {
      truthy = function() return function(v) return v ~= nil and v ~= false end end,
      falsy = function() return function(v) return v == nil or v == false end end,
      ["true"] = function() return function(v) return v == true end end,
      ["false"] = function() return function(v) return v == false end end,
      same = function(e) return function(v) return (T.same(e, v)) end end,
      equal = function(e) return function(v) return e == v end end,
      ref = function(e) return function(v) return rawequal(e, v) end end,
      -- as luassert: match.matches(pattern [, init [, plain]]) of a string, a number or a value with __tostring
      matches = function(p, init, plain)
        return function(v)
          local ok, text = pcall(matchable, v)
          return ok and text ~= nil and text:find(p, tonumber(init), plain) ~= nil
        end
      end,
      near = function(e, tol)
        return function(v)
          local a, x, t = tonumber(v), tonumber(e), tonumber(tol)
          return a ~= nil and x ~= nil and t ~= nil and math.abs(x - a) <= t
        end
      end,
      unique = function(deep) return function(v) return type(v) == "table" and firstRepeat(v, deep) == nil end end,
    }
    for _, typeName in ipairs { "string", "number", "table", "function", "boolean", "userdata", "thread", "nil" } do
      matchers[typeName] = function() return function(v) return type(v) == typeName end end
    end
    -- luassert's composites: match.all_of(m1, m2, …), match.any_of(…), match.none_of(…), of matchers only. `passed`
    -- counts the matchers the value passes and says whether the composite does.
    local function composite(name, passed)
      return function(...)
        local ms = table.pack(...)
        if ms.n == 0 then error("match." .. name .. "(…): give at least one matcher", 3) end
        for i = 1, ms.n do
          if getmetatable(ms[i]) ~= Matcher then
            error("match." .. name .. ": argument " .. i .. " must be a matcher (match.is_string(), …), got " .. type(ms[i]), 3)
          end
        end
        return function(v)
          local count = 0
          for i = 1, ms.n do if ms[i].test(v) then count = count + 1 end end
          return passed(count, ms.n)
        end
      end
    end
    matchers.all_of = composite("all_of", function(count, n) return count == n end)
    matchers.any_of = composite("any_of", function(count) return count > 0 end)
    matchers.none_of = composite("none_of", function(count) return count == 0 end)
    local matcherAliases = { equals = "equal", match = "matches" }

    local function matchResolve(key, negated)
      if type(key) ~= "string" then return nil end
      -- `match.is._` is the wildcard itself, `match.is_not._` its negation: it matches nothing (as luassert).
      if key == "_" then
        return matcher(negated and "match.is_not._" or "match._", function() return not negated end)
      end
      local words, i
      words, i, negated = leadingWords(key, negated)
      if i > #words then
        return setmetatable({}, { __index = function(_, k) return matchResolve(k, negated) end })
      end
      local name = concat(words, "_", i)
      name = matchers[name] and name or matcherAliases[name]
      local make = name and matchers[name]
      if not make then return nil end
      return function(...)
        local test = make(...)
        local parts = {}
        for j = 1, select("#", ...) do parts[j] = T.describe_value((select(j, ...))) end
        local text = "match." .. (negated and "is_not_" or "is_") .. name .. "(" .. concat(parts, ", ") .. ")"
        if negated then return matcher(text, function(v) return not test(v) end) end
        return matcher(text, test)
      end
    end

    local match = setmetatable({ _ = matcher("match._", function() return true end) }, {
      __index = function(_, key)
        return matchResolve(key, false) or error("match." .. tostring(key) .. ": no such matcher (match._, match.is_string(), "
          .. "match.is_same(v), match.is_equal(v), match.is_ref(v), match.matches(p), match.is_truthy(), …)", 2)
      end,
    })
    T.match = match

    """#
}
