extension FlowTestFramework {
    /// What busted specs of plain Lua projects use beyond the vocabulary (testing.md, "Busted projects"):
    /// `assert:register`, `assert.message`, `has_error` on callable tables with busted's message comparison,
    /// and the modules `busted`, `busted.runner`, `luassert` (`.spy`, `.stub`, `.mock`, `.match`, `.util`) and `say`, given by
    /// `T.bustedModules()`.
    static let busted: String = #"""
    -- busted's modules ----------------------------------------------------------------------------------------

    -- `say`: message tables by namespace (busted's own library for messages), as say 1.3 keeps them: the
    -- registry is `say._registry`, a namespace's table is `say[namespace]`, `vars` must be a table and its `n`
    -- counts at least its length.
    local sayRegistry, sayCurrent, sayFallback = {}, "en", "en"
    local say = { _VERSION = "Say 1.3", _registry = sayRegistry }
    function say:set_namespace(ns) sayCurrent = ns; sayRegistry[ns] = sayRegistry[ns] or {} end
    function say:set_fallback(ns) sayFallback = ns; sayRegistry[ns] = sayRegistry[ns] or {} end
    function say:set(key, value) sayRegistry[sayCurrent][key] = value end
    say:set_fallback("en")
    say:set_namespace("en")
    setmetatable(say, {
      __call = function(self, key, vars)
        if vars ~= nil and type(vars) ~= "table" then
          error(("expected parameter table to be a table, got '%s'"):format(type(vars)), 2)
        end
        vars = vars or {}
        vars.n = math.max(vars.n or 0, #vars)
        local text = sayRegistry[sayCurrent][key]
        if text == nil then text = sayRegistry[sayFallback][key] end
        if text == nil then return nil end
        text = tostring(text)
        local strings = {}
        for i = 1, vars.n do strings[#strings + 1] = tostring(vars[i]) end
        if #strings > 0 then return text:format(table.unpack(strings)) end
        return text
      end,
      __index = function(self, key) return sayRegistry[key] end,
    })

    -- has_error as luassert compares: any callable; a string error without its "file:line: " equal to the message
    -- (okit's flow tests: containing it); a table error the same as the expected table.
    -- A spec's has_error, as luassert's: whether fn raises `expected` (any error when nil), what it gives back (the
    -- error without its position, then the other arguments) and the error as shown.
    local function bustedRaises(fn, expected, msg)
      local ok, err = pcall(fn)
      if ok then return false, nil, nil end
      local actual = getmetatable(err) == Failure and err.message or err
      if type(actual) == "string" then actual = actual:gsub("^.-:%d+: ", "", 1) end
      local given = { n = 3, actual, expected, msg }
      if expected == nil then return true, given, actual end
      -- a string is compared with an error that is (or has __tostring to be) a string, a number with a string error
      -- read as a number; anything else must be the same (so error(42) is not "42")
      local text = type(actual) == "table" and matchable(actual) or actual
      if type(expected) == "string" and type(text) == "string" then
        given[1] = text
        return text == expected, given, actual
      elseif type(expected) == "number" and type(actual) == "string" then
        return tostring(expected) == tostring(tonumber(actual)), given, actual
      end
      return (T.same(expected, actual)), given, actual
    end

    local okitErrorCheck, okitNoErrorCheck = A.error[1], A.error[2]
    A.error = {
      function(fn, expected, msg)
        if not callable(fn) then failed("has_error", msg, "the first argument must be a function, got " .. type(fn)) end
        if not T.busted then return okitErrorCheck(function() return fn() end, expected, msg) end
        local holds, given, actual = bustedRaises(fn, expected, msg)
        if holds then return given end
        if given == nil then failed("has_error", msg, expectedActual(expected == nil and "an error" or show(expected), "no error")) end
        failed("has_error", msg, expectedActual(show(expected), show(actual)))
      end,
      -- a spec's has_no_error(fn, expected [, msg]) is luassert's: fn does not raise `expected` (another error
      -- passes); a flow test's has_no_error(fn [, msg]): fn raises nothing
      function(fn, ...)
        if not T.busted then return okitNoErrorCheck(fn, ...) end
        local expected, msg = ...
        if not callable(fn) then failed("has_no_error", msg, "the first argument must be a function, got " .. type(fn)) end
        local holds, _, actual = bustedRaises(fn, expected, msg)
        if holds then
          failed("has_no_error", msg, expectedActual(expected == nil and "no error" or "no error " .. show(expected), show(actual)))
        end
      end,
    }

    -- busted's text of an error value that is not a string (`error({ code = 1 })`, `error()`): its __tostring, else
    -- pl.pretty.write's, one entry a line (`{`, `  code = 1`, `}`), else `Nil error`.
    local KEYWORDS = {}
    for w in ("and break do else elseif end false for function goto if in local nil not or repeat return then true "
        .. "until while"):gmatch("%a+") do KEYWORDS[w] = true end
    local function prettyNumber(v)
      if v ~= v then return "NaN" elseif v == math.huge then return "Inf" elseif v == -math.huge then return "-Inf" end
      local i = math.tointeger(v)
      return i and ("%d"):format(i) or ("%.14g"):format(v)
    end
    local function prettyScalar(v)
      if type(v) == "number" then return prettyNumber(v) end
      if type(v) == "string" then return ("%q"):format(v) end
      local text = tostring(v)
      return text:find(" ") and ("%q"):format(text) or text
    end
    local function prettyWrite(value)
      local lines, line, seen = {}, "", {}
      local function put(text) line = line .. text end
      local function putln(text)
        lines[#lines + 1] = line .. text
        line = ""
      end
      local function eatComma() lines[#lines] = lines[#lines]:gsub(",$", "") end
      local function write(t, oldIndent, indent)
        if type(t) ~= "table" then return putln(prettyScalar(t) .. ",") end
        if seen[t] then return putln("<cycle>,") end
        seen[t] = true
        local inner, used, keys = indent .. "  ", {}, {}
        putln("{")
        local i = 1
        while t[i] ~= nil do put(indent); write(t[i], indent, inner); used[i] = true; i = i + 1 end
        for k in next, t do if type(k) ~= "number" then keys[#keys + 1] = k end end
        sort(keys, function(a, b)
          if type(a) == type(b) then return tostring(a) < tostring(b) end
          return type(a) < type(b)
        end)
        local function entry(k, v)
          if type(k) == "number" then
            if used[k] then return end
            k = "[" .. prettyNumber(k) .. "]"
          else
            k = tostring(k)
            if not k:find("^[%a_][%w_]*$") or KEYWORDS[k] then k = "[" .. ("%q"):format(k) .. "]" end
          end
          put(indent .. k .. " = ")
          write(v, indent, inner)
        end
        for _, k in ipairs(keys) do entry(k, t[k]) end
        for k, v in next, t do if type(k) == "number" then entry(k, v) end end
        seen[t] = nil
        eatComma()
        putln(oldIndent .. "},")
      end
      if type(value) ~= "table" then return prettyScalar(value) end
      write(value, "", "  ")
      eatComma()
      return concat(lines, "\n")
    end

    function T.bustedErrorText(err)
      if err == nil then return "Nil error" end
      local mt = getmetatable(err)
      if type(err) == "string" or (type(mt) == "table" and rawget(mt, "__tostring")) then return tostring(err) end
      if type(err) == "number" then return prettyNumber(err) end
      return prettyWrite(err)
    end

    -- A spec's `assert(false, msg)`: a message that is no text shows as busted shows its failure object (`{`,
    -- `  message = 12`, `}`).
    function T.bustedAssertText(msg)
      local mt = getmetatable(msg)
      if type(msg) == "string" or (type(mt) == "table" and rawget(mt, "__tostring")) then return tostring(msg) end
      return T.bustedErrorText({ message = msg })
    end

    --- The modules a busted spec may require, by name.
    function T.bustedModules()
      local function shallowcopy(t)
        if type(t) ~= "table" then return t end
        local c = {}
        for k, v in next, t do c[k] = v end
        return c
      end
      local function deepcopy(t, deepmt, cache)
        if type(t) ~= "table" then return t end
        cache = cache or {}
        if cache[t] then return cache[t] end
        local c = {}
        cache[t] = c
        for k, v in next, t do c[k] = deepcopy(v, deepmt, cache) end
        local mt = getmetatable(t)
        if mt ~= nil then setmetatable(c, deepmt and deepcopy(mt, deepmt, cache) or mt) end
        return c
      end
      local Arglist = {}
      -- luassert.util as luassert's own suite and specs use it: pack and unpack respect `n`
      local util = {
        deepcompare = function(a, b) return (T.same(a, b)) end,
        callable = callable,
        tablecopy = shallowcopy, shallowcopy = shallowcopy, deepcopy = deepcopy,
        pack = table.pack,
        unpack = function(t, i, j) return table.unpack(t, i or 1, j or t.n or #t) end,
        copyargs = function(args) return copyArgs(args) end,
        make_arglist = function(...) return setmetatable(table.pack(...), Arglist) end,
        is_arglist = function(v) return getmetatable(v) == Arglist end,
        hastostring = function(v)
          local mt = getmetatable(v)
          return type(v) == "string" or (type(mt) == "table" and rawget(mt, "__tostring") ~= nil)
        end,
      }
      local api = {}
      for _, name in ipairs { "describe", "context", "insulate", "expose", "it", "spec", "test", "pending",
          "before_each", "after_each", "setup", "teardown", "lazy_setup", "lazy_teardown", "strict_setup",
          "strict_teardown", "finally", "randomize", "assert", "spy", "stub", "mock", "match" } do
        api[name] = function(...) return (T.busted and suite.env or _G)[name](...) end
      end
      api.assert, api.spy, api.stub, api.mock, api.match = assert, spy, stub, mock, match
      api.fail = function(message) fail(tostring(message)) end
      api.version = "2.1.1"
      api.publish, api.subscribe, api.unsubscribe = function() end, function() end, function() end
      api.gettime, api.monotime = clock, clock
      local busted = setmetatable({}, {
        __index = api,
        __newindex = function() error("Attempt to modify busted", 2) end,
      })
      return {
        busted = busted, luassert = assert, say = say,
        ["luassert.spy"] = spy, ["luassert.stub"] = stub, ["luassert.mock"] = mock, ["luassert.match"] = match,
        ["luassert.util"] = util, ["luassert.assert"] = assert, ["luassert.say"] = say,
        -- `require 'busted.runner'()` at a spec's top (a spec that also runs as plain Lua): under a runner, busted's
        -- runner does nothing
        ["busted.runner"] = function() return function() end end,
      }
    end

    """#
}
