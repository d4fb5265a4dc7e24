/// The Lua side of flow tests: busted's vocabulary (`describe`, `it`, hooks, `pending`) and assertions with deep
/// diffs and the test file's line (docs/testing.md).
///
/// Run as a chunk (best under its own chunk name, like `=okit.test.framework`: positions skip the framework's
/// frames and those of `=okit.test`), it returns the framework table `T`:
/// - `T.install()` sets the globals `describe`, `it`, `pending`, `before_each`, `after_each`, `setup`,
///   `teardown` and `assert` (Lua's own when called; `assert.equal`, `.same`, `.contains`, `.is_true`, … and
///   busted's chained forms `assert.are.same`, `assert.is_not.nil`, `assert.has_no.errors`).
/// - `T.run { filter =, begin =, report = }` runs the tests registered since `T.reset()` in declaration order,
///   calls `begin { name }` before each test's `before_each` hooks and
///   `report { name, status = "ok"|"fail"|"pending", message, where = "file:line", seconds }` after its `after_each` hooks, and
///   returns passed, failed, skipped. A failing teardown is reported as one more failure, `<block> (teardown)`.
/// - `T.reset()`, `T.describe_value(v)` (the pretty printer), `T.same(a, b)` and `T.contains(partial, actual)`
///   (`true`, or `false` and the first difference: `at .rows[2].text: expected "Dune", got "Emma"`).
public enum FlowTestFramework {
    /// A Lua chunk; running it returns the framework table `T`.
    public static let source: String = #"""
    local T = {}
    local FRAMEWORK = debug.getinfo(1, "S").source
    local next, type, tostring, select, error, pcall, xpcall = next, type, tostring, select, error, pcall, xpcall
    local getmetatable, setmetatable, rawget, rawlen = getmetatable, setmetatable, rawget, rawlen
    local concat, insert, sort = table.concat, table.insert, table.sort
    local getinfo = debug.getinfo
    local clock = (os and os.clock) or function() return 0 end

    -- Pretty printing ----------------------------------------------------------------------------------------

    local MAX_DEPTH, MAX_ITEMS, MAX_LENGTH = 4, 12, 2000

    local function quote(s)
      return (string.format("%q", s):gsub("\\\n", "\\n"))
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
    local function difference(a, b, path, subset, seen)
      if a == b then return nil end
      if type(a) ~= "table" or type(b) ~= "table" then return { path = path, expected = a, actual = b } end
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
      return where .. ": expected " .. T.describe_value(d.expected) .. ", got " .. T.describe_value(d.actual)
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

    -- Each assertion: its positive and negative check, called with the caller's arguments.
    local A = {}

    A.equal = {
      function(e, a, msg)
        if e ~= a then
          local hint = type(e) == "table" and type(a) == "table" and T.same(e, a)
            and "(two different tables with the same contents: use assert.same)" or nil
          local x, y = expectedActual(show(e), show(a))
          failed("equal", msg, x, y, hint)
        end
      end,
      function(e, a, msg)
        if e == a then failed("not_equal", msg, expectedActual("not " .. show(e), show(a))) end
      end,
    }
    A.same = {
      function(e, a, msg)
        local ok, diff = T.same(e, a)
        if not ok then failed("same", msg, diff, expectedActual(show(e), show(a))) end
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
        if type(fn) ~= "function" then failed("has_no_error", msg, "the first argument must be a function, got " .. type(fn)) end
        local ok, err = pcall(fn)
        if not ok then failed("has_no_error", msg, expectedActual("no error", show(errorText(err)))) end
      end,
    }
    A.matches = {
      function(pattern, s, msg)
        if type(s) == "number" then s = tostring(s) end
        if type(s) ~= "string" or not s:find(pattern) then
          failed("matches", msg, expectedActual("a string matching " .. show(pattern), show(s)))
        end
      end,
      function(pattern, s, msg)
        if type(s) == "number" then s = tostring(s) end
        if type(s) == "string" and s:find(pattern) then
          failed("does_not_match", msg, expectedActual("a string not matching " .. show(pattern), show(s)))
        end
      end,
    }

    local aliases = { equals = "equal", contain = "contains", errors = "error", match = "matches" }
    -- Words that only read well (assert.is.truthy, assert.has_error) and words that negate (assert.is_not.nil).
    local neutral = { is = true, are = true, has = true, have = true, does = true, ["do"] = true, was = true, be = true }
    local negating = { ["not"] = true, no = true }

    local chain

    -- "is_not_nil" → the nil assertion, negated; "are_not" → a chain; nil for an unknown name.
    local function resolve(key, negated)
      if type(key) ~= "string" then return nil end
      local words = {}
      for w in key:lower():gmatch("[^_]+") do words[#words + 1] = w end
      local i = 1
      while i <= #words and (neutral[words[i]] or negating[words[i]]) do
        if negating[words[i]] then negated = not negated end
        i = i + 1
      end
      if i > #words then
        -- only modifiers: `is` alone is a chain, never the `is` alias
        return chain(negated)
      end
      local name = concat(words, "_", i)
      name = A[name] and name or aliases[name]
      local pair = name and A[name]
      if not pair then return nil end
      return pair[negated and 2 or 1]
    end

    local function unknown(key)
      error("assert." .. tostring(key) .. ": no such assertion (equal, same, contains, is_true, is_false, is_nil, "
        .. "is_not_nil, truthy, falsy, has_error, matches, not_equal, not_same, or chained: are.same, is_not.nil, …)", 3)
    end

    chain = function(negated)
      return setmetatable({}, {
        __index = function(_, key) return resolve(key, negated) or unknown(key) end,
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
        error(msg, 2)
      end,
      __index = function(_, key) return resolve(key, false) or unknown(key) end,
    })
    T.assert = assert

    -- Registration -------------------------------------------------------------------------------------------

    local root, current
    local running = false

    local function newBlock(name, parent)
      return { name = name, parent = parent, children = {}, before = {}, after = {}, setup = {}, teardown = {} }
    end

    --- Forgets every registered test (between test files loaded into one state).
    function T.reset()
      root = newBlock(nil, nil)
      current = root
      testSources = {}
    end
    T.reset()

    -- The caller of a declaration (level 3 from here): a test source, and its position.
    local function declaredAt()
      local info = getinfo(3, "Sl")
      if not info then return nil end
      if not isFramework(info.source) then testSources[info.source] = true end
      return info.currentline and info.currentline > 0 and (info.short_src .. ":" .. info.currentline) or nil
    end

    local function checkDeclaration(fname, name, fn, fnRequired)
      if running then
        error(fname .. "() cannot be called while tests run: declare tests at the top level of the file or inside describe", 3)
      end
      if type(name) ~= "string" then
        error(fname .. "(name, fn): name must be a string, got " .. type(name), 3)
      end
      if (fnRequired or fn ~= nil) and type(fn) ~= "function" then
        error(fname .. "(\"" .. name .. "\", fn): fn must be a function, got " .. type(fn), 3)
      end
    end

    local function describe(name, fn)
      checkDeclaration("describe", name, fn, true)
      declaredAt()
      local block = newBlock(name, current)
      current.children[#current.children + 1] = block
      local outer = current
      current = block
      local ok, err = pcall(fn)
      current = outer
      if not ok then error(err, 0) end
    end

    local function it(name, fn)
      checkDeclaration("it", name, fn, false)
      current.children[#current.children + 1] = { test = true, name = name, fn = fn, parent = current, where = declaredAt() }
    end

    local function pending(name, fn)
      if running then
        -- busted: inside a running test, `pending("reason")` stops it and reports it as pending
        error(setmetatable({ message = name }, Pending), 0)
      end
      checkDeclaration("pending", name, nil, false)
      current.children[#current.children + 1] = { test = true, name = name, parent = current, where = declaredAt() }
    end

    local function hook(fname, kind)
      return function(fn)
        if running then error(fname .. "() cannot be called while tests run: call it inside describe", 2) end
        if type(fn) ~= "function" then error(fname .. "(fn): fn must be a function, got " .. type(fn), 2) end
        declaredAt()
        local list = current[kind]
        list[#list + 1] = fn
      end
    end

    --- Sets the globals of busted's vocabulary and `assert`.
    function T.install()
      _G.describe, _G.context = describe, describe
      _G.it, _G.test, _G.pending = it, it, pending
      _G.before_each, _G.after_each = hook("before_each", "before"), hook("after_each", "after")
      _G.setup, _G.teardown = hook("setup", "setup"), hook("teardown", "teardown")
      _G.lazy_setup, _G.strict_setup = _G.setup, _G.setup
      _G.lazy_teardown, _G.strict_teardown = _G.teardown, _G.teardown
      _G.assert = assert
    end

    -- Running ------------------------------------------------------------------------------------------------

    -- The message handler: a failure keeps its position; another error gets the innermost test-file frame, else
    -- its own "file:line: " prefix, else the innermost frame outside the framework.
    local function handler(err)
      local mt = getmetatable(err)
      if mt == Failure or mt == Pending then return err end
      local test, other = position(2)
      local text = type(err) == "string" and err or T.describe_value(err)
      local own = type(err) == "string" and err:match("^([^\n]-:%d+): ") or nil
      return setmetatable({ message = text, where = test or own or other }, Failure)
    end

    -- Runs a hook or test: nil, or the failure (a Failure or Pending object).
    local function protect(f)
      local ok, err = xpcall(f, handler)
      if ok then return nil end
      local mt = getmetatable(err)
      if mt ~= Failure and mt ~= Pending then err = setmetatable({ message = tostring(err) }, Failure) end
      return err
    end

    local function fullName(node)
      local parts = {}
      while node do
        if node.name then insert(parts, 1, node.name) end
        node = node.parent
      end
      return concat(parts, " ")
    end

    local function nameMatches(name, filter)
      if filter == nil or filter == "" then return true end
      if name:find(filter, 1, true) then return true end
      local ok, found = pcall(string.find, name, filter)
      return ok and found ~= nil
    end

    local function hasTests(block, filter)
      for _, c in ipairs(block.children) do
        if c.test then
          if nameMatches(fullName(c), filter) then return true end
        elseif hasTests(c, filter) then
          return true
        end
      end
      return false
    end

    local function chainOf(block)
      local blocks = {}
      while block do insert(blocks, 1, block); block = block.parent end
      return blocks
    end

    local function runAll(opts)
      local report = opts.report or function() end
      local begin = opts.begin or function() end
      local filter = opts.filter
      local passed, failed_, skipped = 0, 0, 0

      local function finish(result, started)
        result.seconds = clock() - started
        if result.status == "ok" then passed = passed + 1
        elseif result.status == "fail" then failed_ = failed_ + 1
        else skipped = skipped + 1 end
        report(result)
      end

      local function runTest(test, blockError)
        local started = clock()
        local result = { name = fullName(test), status = "ok" }
        if not test.fn then
          result.status = "pending"
          return finish(result, started)
        end
        begin(result)
        local failure = blockError
        if not failure then
          local blocks = chainOf(test.parent)
          for _, b in ipairs(blocks) do
            for _, f in ipairs(b.before) do
              failure = protect(f)
              if failure then break end
            end
            if failure then break end
          end
          if not failure then
            failure = protect(test.fn)
          end
          for i = #blocks, 1, -1 do
            for _, f in ipairs(blocks[i].after) do
              local err = protect(f)
              if err and not failure then failure = err end
            end
          end
        end
        if failure and getmetatable(failure) == Pending then
          result.status = "pending"
          result.message = failure.message ~= nil and tostring(failure.message) or nil
        elseif failure then
          result.status = "fail"
          result.message = failure.message
          result.where = failure.where or test.where
        end
        finish(result, started)
      end

      local function runBlock(block, inherited)
        if not hasTests(block, filter) then return end
        local blockError = inherited
        if not blockError then
          for _, f in ipairs(block.setup) do
            local err = protect(f)
            if err then
              blockError = setmetatable({ message = "setup failed: " .. tostring(err.message), where = err.where }, Failure)
              break
            end
          end
        end
        for _, c in ipairs(block.children) do
          if c.test then
            if nameMatches(fullName(c), filter) then runTest(c, blockError) end
          else
            runBlock(c, blockError)
          end
        end
        if not blockError then
          for _, f in ipairs(block.teardown) do
            local started = clock()
            local err = protect(f)
            if err then
              local name = block.name and (fullName(block) .. " (teardown)") or "(teardown)"
              finish({ name = name, status = "fail", message = "teardown failed: " .. tostring(err.message), where = err.where },
                started)
            end
          end
        end
      end

      runBlock(root, nil)
      return passed, failed_, skipped
    end

    --- Runs the registered tests in declaration order: `opts.filter` selects by full name (a Lua pattern or a plain
    --- substring), `opts.begin(result)` is called as a test starts (before its before_each hooks),
    --- `opts.report(result)` gets `{ name, status, message, where, seconds }` after each test.
    --- Returns passed, failed, skipped.
    function T.run(opts)
      if running then error("T.run: tests are already running", 2) end
      running = true
      local ok, p, f, s = pcall(runAll, opts or {})
      running = false
      if not ok then error(p, 0) end
      return p, f, s
    end

    return T
    """#
}
