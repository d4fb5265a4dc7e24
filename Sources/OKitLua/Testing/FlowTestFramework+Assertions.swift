extension FlowTestFramework {
    /// Positions (the test file's line), failures, and the `assert` table: each assertion, its negation, busted's chained and underscore spellings.
    static let assertions: String = #"""
    -- Positions: the test file's line ------------------------------------------------------------------------

    -- Sources that declared tests (the test files); the framework and okit.test's own chunks are never positions.
    local testSources = {}

    local function isFramework(source)
      return source == FRAMEWORK or source == "=okit.test" or source:sub(1, 11) == "=okit.test."
    end

    -- From `level` (of the caller) outwards: the innermost frame of a test file, else the innermost Lua frame
    -- that is not the framework's.
    local function position(level)
      local fallback
      level = level + 1
      while true do
        local info = getinfo(level, "Sl")
        if not info then return nil, fallback end
        if info.what ~= "C" and (info.currentline or 0) > 0 and not isFramework(info.source) then
          local here = info.short_src .. ":" .. info.currentline
          if testSources[info.source] then return here, fallback end
          fallback = fallback or here
        end
        level = level + 1
      end
    end

    local Failure = {}
    Failure.__index = Failure
    Failure.__tostring = function(f) return (f.where and (f.where .. ": ") or "") .. f.message end

    local Pending = {}
    Pending.__tostring = function(p) return "pending: " .. tostring(p.message) end

    local function fail(message)
      local test, other = position(2)
      error(setmetatable({ message = message, where = test or other }, Failure), 0)
    end

    -- Assertions ---------------------------------------------------------------------------------------------

    local function show(v) return T.describe_value(v) end

    local function callable(v)
      if type(v) == "function" then return true end
      local mt = getmetatable(v)
      return type(mt) == "table" and rawget(mt, "__call") ~= nil
    end

    -- "assert.NAME failed", the caller's message, then the detail lines.
    local function failed(name, msg, ...)
      local lines = { "assert." .. name .. " failed" }
      if msg ~= nil then lines[#lines + 1] = tostring(msg) end
      for i = 1, select("#", ...) do lines[#lines + 1] = (select(i, ...)) end
      fail(concat(lines, "\n"))
    end

    local function expectedActual(expected, actual)
      return "expected: " .. expected, "  actual: " .. actual
    end

    -- The text of an error value as has_error compares it.
    local function errorText(err)
      if getmetatable(err) == Failure then return err.message end
      return tostring(err)
    end

    local function stripPosition(s) return (s:gsub("^[^\n]-:%d+: ", "", 1)) end

    local function errorMatches(err, expected)
      if type(expected) == "table" and type(err) == "table" and getmetatable(err) ~= Failure then
        return T.same(expected, err)
      end
      if err == expected then return true end
      local text, want = errorText(err), tostring(expected)
      return text:find(want, 1, true) ~= nil or stripPosition(text) == stripPosition(want)
    end

    -- Where two long texts first differ (hard to see in them): `first difference at byte 2999: expected …"aaaa",
    -- got …"aaab"` (a few characters around it, cut at whole UTF-8 characters); nil for short or equal ones.
    local function textDifference(e, a)
      if type(e) ~= "string" or type(a) ~= "string" or e == a or (#e < 40 and #a < 40) then return nil end
      local i = 1
      while e:byte(i) == a:byte(i) do i = i + 1 end
      local function around(s)
        if i > #s then return "the end of the text" end
        local from, to = math.max(1, i - 12), i + 12
        while from > 1 and (s:byte(from) or 0) & 0xC0 == 0x80 do from = from - 1 end
        while (s:byte(to + 1) or 0) & 0xC0 == 0x80 do to = to + 1 end
        return (from > 1 and "…" or "") .. show(s:sub(from, to)) .. (to < #s and "…" or "")
      end
      return "first difference at byte " .. i .. ": expected " .. around(e) .. ", got " .. around(a)
    end

    -- Each assertion: its positive and negative check, called with the caller's arguments.
    local A = {}

    A.equal = {
      function(e, a, msg)
        if e ~= a then
          local hint = type(e) == "table" and type(a) == "table" and T.same(e, a)
            and "(two different tables with the same contents: use assert.same)" or nil
          local x, y = expectedActual(show(e), show(a))
          failed("equal", msg, x, y, hint or textDifference(e, a))
        end
      end,
      function(e, a, msg)
        if e == a then failed("not_equal", msg, expectedActual("not " .. show(e), show(a))) end
      end,
    }
    A.same = {
      function(e, a, msg)
        local ok, diff = T.same(e, a)
        if not ok then
          local x, y = expectedActual(show(e), show(a))
          failed("same", msg, diff, x, y, textDifference(e, a))
        end
      end,
      function(e, a, msg)
        if T.same(e, a) then failed("not_same", msg, expectedActual("not " .. show(e), show(a))) end
      end,
    }
    A.contains = {
      function(p, a, msg)
        local ok, diff = T.contains(p, a)
        if not ok then failed("contains", msg, diff, expectedActual("containing " .. show(p), show(a))) end
      end,
      function(p, a, msg)
        if T.contains(p, a) then failed("not_contains", msg, expectedActual("not containing " .. show(p), show(a))) end
      end,
    }
    A["true"] = {
      function(v, msg) if v ~= true then failed("is_true", msg, expectedActual("true", show(v))) end end,
      function(v, msg) if v == true then failed("is_not_true", msg, expectedActual("not true", "true")) end end,
    }
    A["false"] = {
      function(v, msg) if v ~= false then failed("is_false", msg, expectedActual("false", show(v))) end end,
      function(v, msg) if v == false then failed("is_not_false", msg, expectedActual("not false", "false")) end end,
    }
    A["nil"] = {
      function(v, msg) if v ~= nil then failed("is_nil", msg, expectedActual("nil", show(v))) end end,
      function(v, msg) if v == nil then failed("is_not_nil", msg, expectedActual("not nil", "nil")) end end,
    }
    A.truthy = {
      function(v, msg) if not v then failed("truthy", msg, expectedActual("a truthy value", show(v))) end end,
      function(v, msg) if v then failed("falsy", msg, expectedActual("nil or false", show(v))) end end,
    }
    A.falsy = { A.truthy[2], A.truthy[1] }
    A.error = {
      function(fn, expected, msg)
        if type(fn) ~= "function" then failed("has_error", msg, "the first argument must be a function, got " .. type(fn)) end
        local ok, err = pcall(fn)
        if ok then
          failed("has_error", msg, expectedActual(expected == nil and "an error" or "an error containing " .. show(expected),
            "no error"))
        end
        if expected ~= nil and not errorMatches(err, expected) then
          local actual = type(err) == "table" and getmetatable(err) ~= Failure and show(err) or show(errorText(err))
          failed("has_error", msg, expectedActual("an error containing " .. show(expected), actual))
        end
      end,
      function(fn, msg)
        if not callable(fn) then failed("has_no_error", msg, "the first argument must be a function, got " .. type(fn)) end
        local ok, err = pcall(fn)
        -- an error that is no text shows as the value it is (error(true): true, not "true")
        if not ok then failed("has_no_error", msg, expectedActual("no error", show(getmetatable(err) == Failure and err.message or err))) end
      end,
    }
    -- luassert's arguments after the first two: `init`, `plain`, and the message (the first not a number or boolean).
    local function optionalArguments(...)
      local args = table.pack(...)
      local msg
      for i = 3, args.n do
        local v = args[i]
        if v and type(v) ~= "boolean" and not tonumber(v) then
          msg = v
          for j = i, args.n - 1 do args[j] = args[j + 1] end
          args[args.n] = nil
          break
        end
      end
      if args[3] ~= nil and tonumber(args[3]) == nil then
        -- as luassert: an init that is no number is an error (not a failure) where the assertion was called
        local test, other = position(2)
        error((test or other or "?") .. ": bad argument #" .. (msg ~= nil and 4 or 3) .. " to 'matches' (number expected, got "
          .. type(args[3]) .. ")", 0)
      end
      return args[1], args[2], tonumber(args[3]), args[4], msg
    end
    -- A text luassert matches: a string, a number, a value with __tostring (nil: none).
    local function matchable(v)
      local mt = getmetatable(v)
      if mt == Failure then return v.message end
      if type(v) == "string" or type(v) == "number" or (type(mt) == "table" and rawget(mt, "__tostring")) then return tostring(v) end
    end
    -- As luassert: whether `text` matches (`plain`: contains `pattern`), and the captures it gives back.
    -- A malformed pattern's error is placed at the test's line (Lua's own would name this framework).
    local function matched(text, pattern, init, plain)
      if text == nil then return false end
      local given = table.pack(pcall(plain and string.find or string.match, text, pattern, init, plain and true or nil))
      if not given[1] then
        local test, other = position(2)
        error(((test or other) and ((test or other) .. ": ") or "") .. tostring(given[2]), 0)
      end
      if plain then return given[2] ~= nil, { n = 1, pattern } end
      return given[2] ~= nil, table.pack(table.unpack(given, 2, given.n))
    end
    A.matches = {
      function(...)
        local pattern, s, init, plain, msg = optionalArguments(...)
        local ok, given = matched(matchable(s), pattern, init, plain)
        if not ok then failed("matches", msg, expectedActual("a string matching " .. show(pattern), show(s))) end
        return given                                   -- as luassert: the captures (or the whole match)
      end,
      function(...)
        local pattern, s, init, plain, msg = optionalArguments(...)
        if matched(matchable(s), pattern, init, plain) then
          failed("does_not_match", msg, expectedActual("a string not matching " .. show(pattern), show(s)))
        end
      end,
    }

    local aliases = { equals = "equal", contain = "contains", errors = "error", match = "matches", error_match = "error_matches",
                      errors_match = "error_matches", matches_error = "error_matches", match_error = "error_matches" }
    -- Words that only read well (assert.is.truthy, assert.has_error) and words that negate (assert.is_not.nil).
    local neutral = { is = true, are = true, has = true, have = true, does = true, ["do"] = true, was = true, be = true }
    local negating = { ["not"] = true, no = true }

    -- The words of `key` (split at `_`, lowercased), the index of the first one after the leading neutral and
    -- negating words, and `negated` flipped by each negating one.
    local function leadingWords(key, negated)
      local words = {}
      for w in key:lower():gmatch("[^_]+") do words[#words + 1] = w end
      local i = 1
      while i <= #words and (neutral[words[i]] or negating[words[i]]) do
        if negating[words[i]] then negated = not negated end
        i = i + 1
      end
      return words, i, negated
    end
    -- Words that take a value for the assertions after them: assert.spy(s).was.called() (set by the spies' part).
    local modifiers = {}

    local chain

    -- An assertion that takes its first argument from the chain (assert.spy(s).was.called(2)).
    local function withPayload(name, f, hasPayload, payload, base, words)
      if not hasPayload then
        return function()
          error("assert." .. name .. " must follow assert.spy(s) or assert.stub(s): assert.spy(s).was." .. name .. "(…)", 2)
        end
      end
      -- callable, and a chain on: luassert reads `called.at_least(2)` as `called_at_least(2)`
      return setmetatable({}, {
        __call = function(_, ...) return f(payload, ...) end,
        __index = function(_, key) return chain(base, hasPayload, payload, words)[key] end,
      })
    end

    -- Too few arguments for an assertion (`assert.equal(v)`, the expected value forgotten): a failure in luassert's
    -- words (a spec's as luassert's alone; `assert.message` adds nothing to it, as luassert's).
    local function tooFew(name, negated, minimum, got)
      local text = string.format("the '%s' function requires a minimum of %d arguments, got: %d", minimum[2], minimum[1], got)
      if not T.busted then text = "assert." .. (negated and "not_" or "") .. name .. " failed\n" .. text end
      local test, other = position(2)
      error(setmetatable({ message = text, where = test or other, bare = true }, Failure), 0)
    end

    local function known(name) return A[name] or aliases[name] or modifiers[name] end

    -- Where the assertion's name starts in `words` (all earlier ones neutral or negating), luassert's way: the
    -- longest known name that ends the words wins (a registered `is_even` before `even`); nil when none does.
    local function nameStart(words)
      for s = 1, #words do
        if known(concat(words, "_", s)) then return s end
        if not (neutral[words[s]] or negating[words[s]]) then return nil end
      end
    end

    -- "is_not_nil" → the nil assertion, negated; "are_not" → a chain; "spy" → a function giving a chain that holds
    -- its value; nil for an unknown name. `prefix`: the chain's words so far (neutral or negating), which a name
    -- may start with (`assert.is.even` finds a registered `is_even`), and `base` the negation before them.
    local function resolve(key, base, hasPayload, payload, prefix)
      if type(key) ~= "string" then return nil end
      local words = {}
      for _, w in ipairs(prefix or {}) do words[#words + 1] = w end
      for w in key:lower():gmatch("[^_]+") do words[#words + 1] = w end
      local s = nameStart(words)
      local negated = base
      for j = 1, (s or #words + 1) - 1 do
        if negating[words[j]] then negated = not negated elseif not neutral[words[j]] then return nil end
      end
      if not s then
        -- only modifiers: `is` alone is a chain, never the `is` alias
        return chain(base, hasPayload, payload, words)
      end
      local name = concat(words, "_", s)
      if modifiers[name] then
        local modifier = modifiers[name]
        return function(value) return chain(negated, true, modifier(value), {}) end
      end
      name = A[name] and name or aliases[name]
      local pair = A[name]
      local f = pair[negated and 2 or 1]
      if pair.payload then return withPayload(name, f, hasPayload, payload, base, words) end
      local minimum = pair.minimum
      -- As luassert's: an assertion that holds gives its arguments back (`local t = assert.is_table(f())`), or what
      -- it says it gives (has_error: the error). Callable, and a chain on (`assert.error.matches(…)` is error_matches).
      return setmetatable({}, {
        __call = function(_, ...)
          if minimum and select("#", ...) < minimum[1] then tooFew(name, negated, minimum, select("#", ...)) end
          local given = f(...)
          if given then return table.unpack(given, 1, given.n) end
          return ...
        end,
        __index = function(_, key) return chain(base, hasPayload, payload, words)[key] end,
      })
    end

    -- What was written, named as luassert names it: the words of the chain and the key joined by "_"
    -- (`assert.is_not.even` is 'is_not_even'); a spec's message is luassert's own.
    local function unknown(key, prefix)
      local written = tostring(key)
      if type(key) == "string" then
        local words = {}
        for _, w in ipairs(prefix or {}) do words[#words + 1] = w end
        for w in key:lower():gmatch("[^_]+") do words[#words + 1] = w end
        written = concat(words, "_")
      end
      if T.busted then error("luassert: unknown modifier/assertion: '" .. written .. "'", 3) end
      error("assert." .. written .. ": no such assertion (equal, same, contains, near, is_true, is_false, is_nil, "
        .. "is_string, truthy, falsy, has_error, error_matches, matches, unique, spy(s).was.called, not_equal, "
        .. "or chained: are.same, is_not.nil, …)", 3)
    end

    chain = function(base, hasPayload, payload, prefix)
      return setmetatable({}, {
        __index = function(_, key) return resolve(key, base, hasPayload, payload, prefix) or unknown(key, prefix) end,
      })
    end

    local assert = setmetatable({}, {
      -- Lua's own assert: returns its arguments, or raises the message (default "assertion failed!") with the
      -- caller's position.
      __call = function(_, ...)
        local n = select("#", ...)
        if n == 0 then error("bad argument #1 to 'assert' (value expected)", 2) end
        if (...) then return ... end
        local msg = "assertion failed!"
        if n >= 2 then msg = select(2, ...) end
        -- busted: a spec's assert is luassert's, whose errors are failures (not errors); the modules it requires
        -- keep Lua's own (`_G.assert`)
        if T.busted then fail(T.bustedAssertText(msg)) end
        error(msg, 2)
      end,
      __index = function(_, key) return resolve(key, false, false, nil) or unknown(key) end,
    })
    T.assert = assert

    """#
}
