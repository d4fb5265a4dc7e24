extension FlowTestFramework {
    /// Pretty printing (`T.describe_value`) and deep comparison with the path of the first difference (`T.same`, `T.contains`).
    static let values: String = #"""
    -- Pretty printing ----------------------------------------------------------------------------------------

    local MAX_DEPTH, MAX_ITEMS, MAX_LENGTH = 4, 12, 2000

    -- Characters that print like a space or like nothing, written as the escape a test can use instead: a
    -- German amount is "3,90\u{A0}€" (a no-break space), which printed as is looks like "3,90 €".
    local INVISIBLE = { "\u{A0}", "\u{202F}", "\u{2007}", "\u{2009}", "\u{200B}", "\u{200E}", "\u{200F}", "\u{FEFF}" }

    local function quote(s)
      local q = string.format("%q", s):gsub("\\\n", "\\n")
      for _, c in ipairs(INVISIBLE) do
        if q:find(c, 1, true) then
          q = q:gsub(c, string.format("\\u{%X}", utf8.codepoint(c)))
        end
      end
      return q
    end

    local typeRank = { number = 1, string = 2, boolean = 3 }

    local function keyOrder(a, b)
      local ta, tb = type(a), type(b)
      if ta ~= tb then
        local ra, rb = typeRank[ta] or 4, typeRank[tb] or 4
        if ra ~= rb then return ra < rb end
        return ta < tb
      end
      if ta == "number" or ta == "string" then return a < b end
      return tostring(a) < tostring(b)
    end

    -- The keys of `t` past its array part 1..n, sorted.
    local function otherKeys(t, n)
      local keys = {}
      for k in next, t do
        if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
      end
      sort(keys, keyOrder)
      return keys
    end

    -- The length of the array part: 1..n all present (a border without holes).
    local function arrayLength(t)
      local n = rawlen(t)
      for i = 1, n do if rawget(t, i) == nil then return 0 end end
      return n
    end

    local describe_value

    local function keyText(k, seen)
      if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
      return "[" .. describe_value(k, MAX_DEPTH - 1, seen) .. "]"
    end

    describe_value = function(v, depth, seen)
      depth = depth or 0
      seen = seen or {}
      local tv = type(v)
      if tv == "string" then return quote(v) end
      if tv ~= "table" then return tostring(v) end
      local mt = getmetatable(v)
      if type(mt) == "table" and rawget(mt, "__tostring") then return tostring(v) end
      if seen[v] then return "<cycle>" end
      if next(v) == nil then return "{}" end
      if depth >= MAX_DEPTH then return "{…}" end
      seen[v] = true
      local parts, n = {}, arrayLength(v)
      for i = 1, n do parts[#parts + 1] = describe_value(v[i], depth + 1, seen) end
      for _, k in ipairs(otherKeys(v, n)) do
        parts[#parts + 1] = keyText(k, seen) .. " = " .. describe_value(rawget(v, k), depth + 1, seen)
      end
      seen[v] = nil
      local count = #parts
      if count > MAX_ITEMS then
        for i = count, MAX_ITEMS + 1, -1 do parts[i] = nil end
        parts[#parts + 1] = "… (" .. (count - MAX_ITEMS) .. " more)"
      end
      return "{" .. concat(parts, ", ") .. "}"
    end

    --- The readable form of a value: strings quoted, tables with sorted keys, nesting and length limited.
    function T.describe_value(v)
      local text = describe_value(v, 0, {})
      if #text > MAX_LENGTH then text = text:sub(1, MAX_LENGTH):gsub("[\128-\191]*$", ""):gsub("[\192-\255]$", "") .. "…" end
      return text
    end

    -- Deep comparison ----------------------------------------------------------------------------------------

    local function pathOf(path, k)
      if math.type(k) == "integer" then return path .. "[" .. k .. "]" end
      if type(k) == "string" and k:match("^[%a_][%w_]*$") then return path .. "." .. k end
      return path .. "[" .. T.describe_value(k) .. "]"
    end

    local function sortedKeys(t)
      local keys = {}
      for k in next, t do keys[#keys + 1] = k end
      sort(keys, keyOrder)
      return keys
    end

    -- nil when `b` equals `a` (or, with `subset`, contains it); else the first difference { path, expected, actual }.
    -- As luassert's deep comparison: the two tables given are compared key by key even when their metatable has
    -- `__eq`; two tables inside that share a metatable with `__eq` are compared with it.
    local function difference(a, b, path, subset, seen)
      if rawequal(a, b) then return nil end
      if type(a) ~= "table" or type(b) ~= "table" then
        if a == b then return nil end
        return { path = path, expected = a, actual = b }
      end
      local mt = debug.getmetatable(a)
      if path ~= "" and mt and mt == debug.getmetatable(b) and rawget(mt, "__eq") then
        if a == b then return nil end
        return { path = path, expected = a, actual = b }
      end
      local pairsSeen = seen[a]
      if pairsSeen and pairsSeen[b] then return nil end     -- a cycle: this pair is being compared already
      if not pairsSeen then pairsSeen = {}; seen[a] = pairsSeen end
      pairsSeen[b] = true
      for _, k in ipairs(sortedKeys(a)) do
        local d = difference(rawget(a, k), rawget(b, k), pathOf(path, k), subset, seen)
        if d then return d end
      end
      if not subset then
        for _, k in ipairs(sortedKeys(b)) do
          if rawget(a, k) == nil then return { path = pathOf(path, k), expected = nil, actual = rawget(b, k) } end
        end
      end
      return nil
    end

    local function differenceText(d)
      local where = d.path == "" and "at the top" or ("at " .. d.path)
      local text = where .. ": expected " .. T.describe_value(d.expected) .. ", got " .. T.describe_value(d.actual)
      -- NaN stays unequal to itself (as in luassert); say so, or "expected nan, got nan" reads as a bug.
      if d.expected ~= d.expected then text = text .. " (NaN is never equal to anything, not even NaN)" end
      return text
    end

    --- true when `a` and `b` are deeply equal (numbers with ==), else false and the first difference.
    function T.same(a, b)
      local d = difference(a, b, "", false, {})
      if d then return false, differenceText(d) end
      return true
    end

    --- true when every key of `partial` is in `actual` with a same (or contained) value, else false and the first
    --- difference.
    function T.contains(partial, actual)
      local d = difference(partial, actual, "", true, {})
      if d then return false, differenceText(d) end
      return true
    end

    """#
}
