extension FlowTestFramework {
    /// luassert's side of busted specs: `assert:register` (assertions and matchers) whose failures say their `say`
    /// message with the arguments formatted as luassert formats them (`(number) 3`, `(string) 'a'`, `(table: 0x…) {
    /// [1] = 2 }`), `assert:add_formatter`, `assert:format` and luassert's parameters (`TableFormatLevel`).
    static let luassert: String = #"""
    -- luassert's formatting and assert:register ---------------------------------------------------------------

    -- The formatters a spec added (`assert:add_formatter`), the newest first, and luassert's parameters.
    local formatters = {}
    local parameters = { TableFormatLevel = 3, TableFormatShowRecursion = false, TableErrorHighlightCharacter = "*" }

    -- A value as luassert's default formatters write it in a failure message (nil: none applies).
    local luassertFormat
    do
      -- luassert's tostring: numbers precisely, floats with a ".0", NaN and Inf by name.
      local function tostr(v)
        if type(v) ~= "number" then return tostring(v) end
        if v ~= v then return "NaN" elseif v == 1 / 0 then return "Inf" elseif v == -1 / 0 then return "-Inf" end
        local text = string.format("%.20g", v)
        if math.type(v) == "float" and not text:find("[%.,]") then text = text:gsub("%d+", "%0.0", 1) end
        return text
      end

      local priorities = { number = 1, boolean = 2, string = 3, table = 4, ["function"] = 5, userdata = 6, thread = 7 }
      local function keysOf(t)
        local keys, length = {}, #t
        for k in next, t do keys[#keys + 1] = k end
        local function priority(k)
          if math.type(k) == "integer" and k >= 1 and k <= length then return 0 end
          return priorities[type(k)] or 8
        end
        sort(keys, function(a, b)
          local pa, pb = priority(a), priority(b)
          if pa ~= pb then return pa < pb end
          if type(a) == "string" or type(a) == "number" then return a < b end
          if type(a) == "boolean" then return a end
          return false
        end)
        return keys
      end

      local function formatTable(arg, fmtargs)
        local tmax, showrec = parameters.TableFormatLevel or 3, parameters.TableFormatShowRecursion
        local errchar = parameters.TableErrorHighlightCharacter or ""
        local crumbs, cache = fmtargs and fmtargs.crumbs or {}, {}
        local desc
        local mt = getmetatable(arg)
        if mt == nil then
          desc = "(" .. tostring(arg) .. ") "
        elseif not pcall(setmetatable, arg, mt) then
          desc = "(table) "
        else
          setmetatable(arg, nil)
          desc = "(" .. tostring(arg) .. ") "
          setmetatable(arg, mt)
        end
        local function ft(t, l, withCrumbs)
          if showrec and cache[t] and cache[t] > 0 then return "{ ... recursive }" end
          if next(t) == nil then return "{ }" end
          if l > tmax and tmax >= 0 then return "{ ... more }" end
          local result = "{"
          cache[t] = (cache[t] or 0) + 1
          local crumb = crumbs[#crumbs - l + 1]
          for _, k in ipairs(keysOf(t)) do
            local v = t[k]
            local useCrumbs = withCrumbs and k == crumb
            if type(v) == "table" then v = ft(v, l + 1, useCrumbs) elseif type(v) == "string" then v = "'" .. v .. "'" end
            local ch = useCrumbs and errchar or ""
            result = result .. string.format("\n%s%s[%s] = %s", string.rep(" ", l * 2 - #ch), ch, tostr(k), tostr(v))
          end
          cache[t] = cache[t] - 1
          return result .. " }"
        end
        return desc .. ft(arg, 1, true)
      end

      local byType = {
        string = function(v) return string.format("(string) '%s'", v) end,
        number = function(v) return "(number) " .. tostr(v) end,
        boolean = function(v) return "(boolean) " .. tostring(v) end,
        ["nil"] = function() return "(nil)" end,
        table = function(v, fmtargs)
          if getmetatable(v) == Matcher then return "(matcher) " .. v.text end
          return formatTable(v, fmtargs)
        end,
        ["function"] = function(v)
          local info = getinfo(v, "S")
          return string.format("%s @ line %s in %s", tostring(v), tostring(info.linedefined), tostring(info.source))
        end,
        userdata = function(v) return string.format("(userdata) '%s'", tostring(v)) end,
        thread = function(v) return string.format("(thread) '%s'", tostring(v)) end,
      }

      luassertFormat = function(v, fmtargs)
        for _, f in ipairs(formatters) do
          local text = f(v, fmtargs)
          if text ~= nil then return text end
        end
        local f = byType[type(v)]
        return f and f(v, fmtargs)
      end
    end

    -- luassert's `assert:format(args)`: each of the `n` arguments formatted, but those in `args.nofmt`.
    local function formatArguments(args)
      local nofmt, fmtargs = args.nofmt or {}, args.fmtargs or {}
      for i = 1, (args.n or #args) do
        if not nofmt[i] then
          local text = luassertFormat(args[i], fmtargs[i])
          if text == nil then text = tostring(args[i]) end
          args[i] = text
        end
      end
      return args
    end

    -- assert:register("assertion", name, fn, positiveKey, negativeKey): fn(state, arguments, level) true when it
    -- holds (and what it gives back); a failure says `say(key, formatted arguments)`, after the state's
    -- failure_message, as luassert's does.
    local function register(_, kind, name, fn, positive, negative)
      if kind == "matcher" then
        matchers[name:lower()] = function(...)
          local arguments = table.pack(...)
          return fn({}, arguments, 1)
        end
        return
      end
      if kind ~= "assertion" then error("assert:register: kind must be \"assertion\" or \"matcher\", got " .. tostring(kind), 2) end
      local function check(wanted, key)
        return function(...)
          local arguments = table.pack(...)
          local state = { mod = wanted }
          local holds, given = fn(state, arguments, 2)
          if (holds and true or false) == wanted then
            if type(given) == "table" then given.n = given.n or #given; return given end
            return nil
          end
          local message, extra = say(key, formatArguments(arguments)), state.failure_message
          if extra ~= nil then
            extra = (type(extra) == "string" or callable((getmetatable(extra) or {}).__tostring)) and tostring(extra)
              or luassertFormat(extra) or tostring(extra)
            message = message and (extra .. "\n" .. message) or extra
          end
          fail(message or "assertion failed!")
        end
      end
      A[name:lower()] = { check(true, positive), check(false, negative) }
    end

    -- assert.message(text): the chain's assertions with `text` first in their failure message.
    local function withMessage(text, target)
      local function calling(v)
        return function(...)
          local result = table.pack(pcall(v, ...))
          if result[1] then return table.unpack(result, 2, result.n) end
          local err = result[2]
          if getmetatable(err) == Failure and not err.bare then err.message = tostring(text) .. "\n" .. err.message end
          error(err, 0)
        end
      end
      return setmetatable({}, {
        __index = function(_, key)
          local v = target[key]
          if type(v) == "table" then
            local inner = withMessage(text, v)
            -- a callable step of a chain (`called`, which `.at_least` may follow)
            if callable(v) then getmetatable(inner).__call = function(_, ...) return calling(v)(...) end end
            return inner
          end
          if type(v) ~= "function" then return v end
          return calling(v)
        end,
      })
    end

    -- assert:unregister(kind, name), as luassert's: the name is no longer an assertion (or matcher, or modifier).
    local function unregister(_, kind, name)
      local key = tostring(name):lower()
      if kind == "assertion" then A[key] = nil elseif kind == "matcher" then matchers[key] = nil
      elseif kind == "modifier" then modifiers[key] = nil end
    end

    -- assert:snapshot(): what a spec changed since (formatters, parameters, spies on tables) is undone by the
    -- snapshot's revert() (or by calling it), with every snapshot taken after it, as luassert's.
    local snapshots = {}
    local Snapshot = {}
    Snapshot.__index = Snapshot
    function Snapshot:revert()
      local at
      for i, s in ipairs(snapshots) do if s == self then at = i end end
      if not at then return end
      for i = #snapshots, at, -1 do snapshots[i] = nil end
      for i = #formatters, 1, -1 do formatters[i] = nil end
      for i, f in ipairs(self.formatters) do formatters[i] = f end
      for k in next, parameters do parameters[k] = nil end
      for k, v in next, self.parameters do parameters[k] = v end
      if #madeSpies > self.spies then revertSpiesSince(self.spies) end
    end
    Snapshot.__call = Snapshot.revert
    local function snapshot()
      local s = setmetatable({ formatters = {}, parameters = {}, spies = #madeSpies }, Snapshot)
      for i, f in ipairs(formatters) do s.formatters[i] = f end
      for k, v in next, parameters do s.parameters[k] = v end
      snapshots[#snapshots + 1] = s
      return s
    end

    -- assert:level(n) and assert:get_level(v): an error level luassert's assertions take (nil for anything else).
    local Level = {}

    local assertMeta = getmetatable(assert)
    local resolveAssertion = assertMeta.__index
    local extra = {
      register = register,
      unregister = unregister,
      snapshot = snapshot,
      level = function(_, n) return setmetatable({ level = n }, Level) end,
      get_level = function(_, v) if getmetatable(v) == Level then return v.level end return nil end,
      add_spy = function(_, s) if isSpy(s) then madeSpies[#madeSpies + 1] = s end end,
      message = function(text) return withMessage(text, assert) end,
      add_formatter = function(_, f) insert(formatters, 1, f) end,
      remove_formatter = function(_, f)
        for i, g in ipairs(formatters) do if g == f then table.remove(formatters, i); return end end
      end,
      format = function(_, args) return formatArguments(args) end,
      set_parameter = function(_, name, value) parameters[name] = value end,
      get_parameter = function(_, name) return parameters[name] end,
    }
    assertMeta.__index = function(t, key)
      if extra[key] then return extra[key] end
      return resolveAssertion(t, key)
    end

    """#
}
