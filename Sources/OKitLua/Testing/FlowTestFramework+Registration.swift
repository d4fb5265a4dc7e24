extension FlowTestFramework {
    /// Declaring tests: `describe`, `it`, `pending`, the hooks, `finally`, and `T.install()` setting the globals.
    static let registration: String = #"""
    -- Registration -------------------------------------------------------------------------------------------

    local root, current
    local running = false
    -- True while a describe body runs (lazily, when the run reaches its block): it may declare.
    local expanding = false

    local function newBlock(name, parent)
      -- `all`: every declaration in order, hooks too (busted's children of a block, which it shuffles or sorts)
      return { name = name, parent = parent, children = {}, all = {}, before = {}, after = {}, setup = {}, teardown = {} }
    end

    --- Forgets every registered test (between test files loaded into one state).
    function T.reset()
      revertSpiesSince(0)
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

    -- A spec may name a block or test with a number (`it(n, …)` in a loop): busted joins names with table.concat,
    -- which takes numbers, so it runs them under their text.
    local function nameText(name)
      if T.busted and math.type(name) then return tostring(name) end
      return name
    end

    local function checkDeclaration(fname, name, fn, fnRequired)
      if running and not expanding then
        if T.busted then error("'" .. fname .. "' not supported inside current context block", 3) end
        error(fname .. "() cannot be called while tests run: declare tests at the top level of the file or inside describe", 3)
      end
      if type(name) ~= "string" then
        error(fname .. "(name, fn): name must be a string, got " .. type(name), 3)
      end
      if (fnRequired or fn ~= nil) and type(fn) ~= "function" then
        error(fname .. "(\"" .. name .. "\", fn): fn must be a function, got " .. type(fn), 3)
      end
    end

    -- A block. In a busted spec (`T.busted`) its body runs when the run reaches it (busted's order: each describe
    -- body, then its tests), so an error in it fails that block only; in a flow test it runs at once, and an error
    -- in it fails the file. `mode` "insulate" puts back the globals and loaded modules it changed when it ends.
    local function declareBlock(fname, mode)
      return function(name, fn)
        name = nameText(name)
        checkDeclaration(fname, name, fn, true)
        local where = declaredAt()
        if T.busted and not T.bustedRegisters("describe", name, where) then return end
        local block = newBlock(name, current)
        block.where, block.mode = where, mode
        current.children[#current.children + 1] = block
        current.all[#current.all + 1] = block
        if T.busted then block.body = fn; return end
        local outer = current
        current = block
        local ok, err = pcall(fn)
        current = outer
        if not ok then error(err, 0) end
      end
    end
    local describe = declareBlock("describe")

    -- A test (`it`, `spec`, `test`; `pending` declares one without a function). busted does not register
    -- `it("name")` without a function: it takes no place among its block's children (`all`).
    local function declareTest(fname)
      return function(name, fn)
        local numbered = T.busted and math.type(name) and true or nil   -- busted's element.name stays a number
        name = nameText(name)
        checkDeclaration(fname, name, fn, false)
        local where = declaredAt()
        if T.busted and not T.bustedRegisters("it", name, where) then return end
        local test = { test = true, name = name, fn = fn, parent = current, where = where, numbered = numbered }
        current.children[#current.children + 1] = test
        if fn or fname == "pending" then current.all[#current.all + 1] = test else test.unregistered = true end
      end
    end
    local it = declareTest("it")
    local declarePending = declareTest("pending")

    local function pending(name, fn)
      if running and not expanding then
        -- busted: inside a running test, `pending("reason")` stops it and reports it as pending
        error(setmetatable({ message = name, where = (position(1)) }, Pending), 0)
      end
      return declarePending(name)   -- a tail call: the declaration's place is the caller's
    end

    -- The running test's `finally` functions (nil while no test runs).
    local finallies

    --- Runs `fn` after the running test, also when it failed (before the `after_each` hooks).
    local function finally(fn)
      if not finallies then error("finally(fn) can only be called while a test runs (in it or before_each)", 2) end
      if type(fn) ~= "function" then error("finally(fn): fn must be a function, got " .. type(fn), 2) end
      finallies[#finallies + 1] = fn
    end

    -- A hook; `label`: the name busted gives it among its block's children (`setup` and `teardown` only), by
    -- which busted's --sort-tests sorts it.
    local hookDeclared = setmetatable({}, { __mode = "k" })   -- a hook's function → { where =, name = } (its report)
    local function hook(fname, kind, label)
      return function(fn)
        if running and not expanding then
          if T.busted then error("'" .. fname .. "' not supported inside current context block", 2) end
          error(fname .. "() cannot be called while tests run: call it inside describe", 2)
        end
        if type(fn) ~= "function" then error(fname .. "(fn): fn must be a function, got " .. type(fn), 2) end
        hookDeclared[fn] = { where = declaredAt(), name = fname }
        local list = current[kind]
        list[#list + 1] = fn
        current.all[#current.all + 1] = { hook = true, name = label }
      end
    end

    --- Sets busted's vocabulary and `assert` in `g` (the globals, `_G`, unless given: a spec's go to its environment).
    function T.install(g)
      g = g or _G
      g.describe, g.context = describe, declareBlock("context")
      g.insulate, g.expose = declareBlock("insulate", "insulate"), declareBlock("expose", "expose")
      g.spec = declareTest("spec")
      g.randomize = function(...)
        -- busted: in a file (its tests) or a describe block, not in a test
        if running and not expanding then
          if T.busted then error("'randomize' not supported inside current context block", 2) end
          error("randomize() belongs in a file or a describe block, not in a test", 2)
        end
        local on = select("#", ...) == 0 or (...)
        current.randomize = on and true or false
        current.randomSeed = on and (tonumber((select(1, ...))) or tonumber((select(2, ...)))) or nil
      end
      g.it, g.test, g.pending = it, declareTest("test"), pending
      g.before_each, g.after_each = hook("before_each", "before"), hook("after_each", "after")
      g.setup, g.teardown = hook("setup", "setup", "setup"), hook("teardown", "teardown", "teardown")
      g.lazy_setup, g.strict_setup = hook("lazy_setup", "setup"), hook("strict_setup", "setup")
      g.lazy_teardown, g.strict_teardown = hook("lazy_teardown", "teardown"), hook("strict_teardown", "teardown")
      g.assert = assert
      g.finally = finally
      g.spy, g.stub, g.mock, g.match = spy, stub, mock, match
    end

    """#
}
