extension FlowTestFramework {
    /// busted's `match` for spy arguments: `match._`, `match.is_string()`, `match.is_same(v)`, `match.is_not.nil()`, …
    /// (and the helpers the spies' part shares: `pack`, `callable`, `copyArgs`).
    static let matchers: String = #"""
    -- Spies -------------------------------------------------------------------------------------------------

    local pack, unpack = table.pack, table.unpack

    local function callable(v)
      if type(v) == "function" then return true end
      local mt = getmetatable(v)
      return type(mt) == "table" and rawget(mt, "__call") ~= nil
    end

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

    local function matcher(text, test) return setmetatable({ text = text, test = test }, Matcher) end

    local matchers = {
      truthy = function() return function(v) return v ~= nil and v ~= false end end,
      falsy = function() return function(v) return v == nil or v == false end end,
      ["true"] = function() return function(v) return v == true end end,
      ["false"] = function() return function(v) return v == false end end,
      same = function(e) return function(v) return (T.same(e, v)) end end,
      equal = function(e) return function(v) return e == v end end,
      ref = function(e) return function(v) return rawequal(e, v) end end,
      matches = function(p) return function(v) return type(v) == "string" and v:find(p) ~= nil end end,
      near = function(e, tol) return function(v) return type(v) == "number" and math.abs(e - v) <= tol end end,
      unique = function(deep) return function(v) return type(v) == "table" and firstRepeat(v, deep) == nil end end,
    }
    for _, typeName in ipairs { "string", "number", "table", "function", "boolean", "userdata", "thread", "nil" } do
      matchers[typeName] = function() return function(v) return type(v) == typeName end end
    end
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
