extension FlowTestFramework {
    /// Running the registered tests: selection by name and `#tags`, shuffling by a seed, hooks in order, `finally`,
    /// failures and pending, spies reverted; `T.run` and `T.list`.
    static let running: String = #"""
    -- Running ------------------------------------------------------------------------------------------------

    -- The message handler: a failure keeps its position; another error gets the innermost test-file frame, else
    -- its own "file:line: " prefix, else the innermost frame outside the framework.
    local function handler(err)
      local mt = getmetatable(err)
      if mt == Failure or mt == Pending then return err end
      local test, other = position(2)
      local text = type(err) == "string" and err or (T.busted and T.bustedErrorText(err)) or T.describe_value(err)
      local own = type(err) == "string" and err:match("^([^\n]-:%d+): ") or nil
      -- `origin`: where it was raised, the innermost frame outside the framework (busted's trace of an error, and the
      -- position of one without one)
      return setmetatable({ message = text, where = test or own or other, origin = other or test or own, error = true }, Failure)
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

    -- The tags of a full name: each `#word` (letters, digits, `_`, `-`).
    local function tagsOf(name)
      local tags = {}
      for tag in name:gmatch("#([%w_%-]+)") do tags[tag] = true end
      return tags
    end

    -- Whether a test runs: its full name matches one of `opts.filter` (a pattern or a list: busted ORs them), has
    -- one of `opts.tags` (when given) and none of `opts.excludeTags`.
    local function selector(opts)
      -- busted's specs: busted's filters left out what they leave out as it was declared (T.bustedRegisters)
      if T.bustedSelect then return function() return true end end
      local filters, only, excluded = opts.filter, opts.tags or {}, opts.excludeTags or {}
      if type(filters) ~= "table" then filters = { filters } end
      local filterOut = opts.filterOut or {}
      local function kept(name)
        for _, f in ipairs(filters) do if nameMatches(name, f) then return true end end
        return #filters == 0
      end
      return function(test)
        local name = fullName(test)
        if not kept(name) then return false end
        for _, pattern in ipairs(filterOut) do if pattern ~= "" and nameMatches(name, pattern) then return false end end
        if #only == 0 and #excluded == 0 then return true end
        local tags = tagsOf(name)
        for _, t in ipairs(excluded) do if tags[t] then return false end end
        if #only == 0 then return true end
        for _, t in ipairs(only) do if tags[t] then return true end end
        return false
      end
    end

    -- Whether a block has a selected test (a block whose body has not run yet may have).
    local function hasTests(block, selected)
      for _, c in ipairs(block.children) do
        if c.test then
          if selected(c) then return true end
        elseif c.body or c.broken or hasTests(c, selected) then
          return true
        end
      end
      return false
    end

    -- `--shuffle`: a generator of 1…n from a seed (a 64-bit linear congruential generator, its high bits), so that
    -- one seed gives one order everywhere; math.random stays the test file's.
    local function shuffler(seed)
      local state = math.tointeger(seed) or 0
      return function(n)
        state = state * 6364136223846793005 + 1442695040888963407
        return ((state >> 33) % n) + 1
      end
    end

    -- A block's children in running order (`block.order`): as declared, sorted by name (`sorted`: busted's
    -- --sort-tests, which wins over a shuffle; equal names keep their order), or shuffled (by the run's seed, or by
    -- `randomize()` in its body). A busted spec's: busted's order (T.bustedArrange), `seed` the run's.
    local function arrange(block, random, sorted, seed)
      if T.busted then return T.bustedArrange(block, seed, sorted) end
      local order = {}
      for i, c in ipairs(block.children) do order[i] = c end
      if sorted then
        local index = {}
        for i, c in ipairs(order) do index[c] = i end
        sort(order, function(a, b)
          if a.name ~= b.name then return tostring(a.name) < tostring(b.name) end
          return index[a] < index[b]
        end)
        block.order = order
        return
      end
      if block.randomize and not random then random = shuffler(block.randomSeed or T.randomSeed or 0) end
      if random then
        for i = #order, 2, -1 do
          local j = random(i)
          order[i], order[j] = order[j], order[i]
        end
      end
      block.order = order
    end

    -- Runs a block's body (once, when the run reaches it), declaring its children; an error in it is kept as
    -- `block.broken`, a Failure.
    local function expand(block, handler)
      local body = block.body
      if not body then return end
      block.body = nil
      if block.mode == "expose" then block.env = block.env or exposeEnv(block) end
      local outer, wasExpanding, outerScope = current, expanding, scope
      current, expanding, scope = block, true, block
      local ok, err = xpcall(body, handler)
      current, expanding, scope = outer, wasExpanding, outerScope
      if not ok then block.broken = err end
    end

    -- Expands every block under `block` (for T.list, which shows the whole tree).
    local function expandAll(block, handler, random, sorted, seed)
      expand(block, handler)
      arrange(block, random, sorted, seed)
      for _, c in ipairs(block.order) do
        if not c.test then expandAll(c, handler, random, sorted, seed) end
      end
    end

    -- What an insulated block may change: the globals and the loaded modules, copied.
    local function snapshotGlobals()
      local g, loaded = {}, {}
      for k, v in next, _G do g[k] = v end
      for k, v in next, package.loaded do loaded[k] = v end
      return { g = g, loaded = loaded }
    end

    local function restoreGlobals(saved)
      for _, pair in ipairs { { _G, saved.g }, { package.loaded, saved.loaded } } do
        local t, copy = pair[1], pair[2]
        local added = {}
        for k in next, t do if copy[k] == nil then added[#added + 1] = k end end
        for _, k in ipairs(added) do t[k] = nil end
        for k, v in next, copy do t[k] = v end
      end
    end

    -- A flow test's before_each or after_each error: it says that the hook failed and for which test (a spec's
    -- stays as busted words it).
    local function hookFailure(kind, err, test)
      if T.busted or getmetatable(err) ~= Failure then return err end
      return setmetatable({ message = kind .. " of the test at " .. tostring(test.where) .. " failed: " .. tostring(err.message),
                            where = err.where, origin = err.origin, error = err.error }, Failure)
    end

    -- busted's names of the teardown hooks in its reports (`teardown` is its `strict_teardown`).
    local teardownDescriptors = { teardown = "strict_teardown", strict_teardown = "strict_teardown", lazy_teardown = "lazy_teardown" }

    -- A teardown's error: an entry of its own after the block's tests. A spec's as busted reports it, `block
    -- teardown` (`block lazy_teardown`) declared where the hook is, counted as an error outside the tests; a flow
    -- test's `block (teardown)`, a failure.
    local function teardownResult(block, f, err)
      local declared = hookDeclared[f] or {}
      if T.busted then
        local hookName = declared.name or "teardown"         -- busted names it as it was declared: lazy_teardown
        return { name = block.name and (fullName(block) .. " " .. hookName) or hookName, title = hookName, status = "fail",
                 error = true, message = err.message, where = err.where or declared.where, origin = err.origin,
                 declared = declared.where or block.where, block = true, descriptor = teardownDescriptors[declared.name],
                 seed = block.parent and block.parent.shownSeed }
      end
      return { name = block.name and (fullName(block) .. " (teardown)") or "(teardown)", status = "fail",
               message = "teardown failed: " .. tostring(err.message), where = err.where, declared = block.where, block = true,
               seed = block.parent and block.parent.shownSeed }
    end

    local function chainOf(block)
      local blocks = {}
      while block do insert(blocks, 1, block); block = block.parent end
      return blocks
    end

    local function runAll(opts)
      local report = opts.report or function() end
      local begin = opts.begin or function() end
      local selected = selector(opts)
      local random = opts.seed and shuffler(opts.seed)
      local passed, failed_, skipped = 0, 0, 0
      -- busted's --no-keep-going: nothing more runs after the first failure or error
      local stopped = false

      local function finish(result, started)
        result.seconds = clock() - started
        if result.status == "ok" then passed = passed + 1
        elseif result.status == "fail" then failed_ = failed_ + 1
        else skipped = skipped + 1 end
        if result.status == "fail" and opts.stopOnFailure then stopped = true end
        report(result)
      end

      local function runTest(test, blockError)
        local started = clock()
        local result = { name = fullName(test), title = test.name, status = "ok", declared = test.where,
                         seed = test.parent.shownSeed, numbered = test.numbered }
        if not test.fn then
          result.status = "pending"
          return finish(result, started)
        end
        begin(result)
        local failure = blockError
        local spiesBefore = #madeSpies
        if not failure then
          finallies = {}
          local blocks = chainOf(test.parent)
          for _, b in ipairs(blocks) do
            for _, f in ipairs(b.before) do
              failure = inScope(b, f, protect)
              if failure then failure = hookFailure("before_each", failure, test); break end
            end
            if failure then break end
          end
          test.env = nil   -- a spec's globals assigned in a test last for that run of it
          if not failure then
            failure = inScope(test, test.fn, protect)
          end
          -- `finally` functions: the last registered first; the first failure counts (a pending test fails).
          local last = finallies
          finallies = nil
          for i = #last, 1, -1 do
            local err = inScope(test, last[i], protect)
            if err and (not failure or getmetatable(failure) == Pending) then failure = err end
          end
          -- `after_each` hooks: an error fails the test unless it failed already (a pending test fails, as with
          -- `finally`: a broken hook is never hidden).
          for i = #blocks, 1, -1 do
            for _, f in ipairs(blocks[i].after) do
              local err = inScope(blocks[i], f, protect)
              if err and (not failure or getmetatable(failure) == Pending) then failure = hookFailure("after_each", err, test) end
            end
          end
        end
        revertSpiesSince(spiesBefore)
        if failure and getmetatable(failure) == Pending then
          result.status = "pending"
          result.message = failure.message ~= nil and tostring(failure.message) or nil
          result.where = failure.where
        elseif failure then
          result.status = "fail"
          result.error = failure.error
          result.message = failure.message
          result.where = failure.where or test.where
          result.origin = failure.origin
        end
        finish(result, started)
      end

      local function runBlock(block, inherited)
        local saved = block.mode == "insulate" and snapshotGlobals() or nil
        expand(block, handler)
        if block.broken then
          -- busted: an error in a describe body fails that block; the file's other blocks still run
          if saved then restoreGlobals(saved) end
          return finish({ name = fullName(block), title = block.name, status = "fail", error = true, message = block.broken.message,
                          where = block.broken.where or block.where, origin = block.broken.origin, declared = block.where,
                          block = true, seed = block.parent and block.parent.shownSeed }, clock())
        end
        arrange(block, random, opts.sort, opts.seed)
        -- busted shows the seed a failing test's block was shuffled with (`Random seed: N`): the run's, or randomize()'s
        if not T.busted and not opts.sort and (block.randomize or random) then
          block.shownSeed = tostring(block.randomize and block.randomSeed or opts.runSeed or T.randomSeed or 0)
        end
        if not hasTests(block, selected) then
          if saved then restoreGlobals(saved) end
          return
        end
        local spiesBefore = #madeSpies
        local blockError = inherited
        if not blockError then
          for _, f in ipairs(block.setup) do
            local err = inScope(block, f, protect)
            if err then
              blockError = setmetatable({ message = "setup failed: " .. tostring(err.message), where = err.where }, Failure)
              break
            end
          end
        end
        for _, c in ipairs(block.order) do
          if stopped then break end
          if c.test then
            if selected(c) then runTest(c, blockError) end
          else
            runBlock(c, blockError)
          end
        end
        if not blockError then
          for _, f in ipairs(block.teardown) do
            local started = clock()
            local err = inScope(block, f, protect)
            if err then finish(teardownResult(block, f, err), started) end
          end
        end
        revertSpiesSince(spiesBefore)
        if saved then restoreGlobals(saved) end
      end

      runBlock(root, nil)
      return passed, failed_, skipped
    end

    --- Runs the registered tests in declaration order (`opts.seed`: shuffled within each block by that seed;
    --- `opts.sort`: sorted by name): `opts.filter` selects by full name (a Lua pattern or a plain substring, or a
    --- list of them: any), `opts.filterOut` leaves out, `opts.tags` (a list) the tests with one of those `#tags` in
    --- their full name, `opts.excludeTags` leaves out those with one, `opts.stopOnFailure` stops after the first
    --- failure; `opts.begin(result)` is called as a test starts (before its before_each hooks), `opts.report(result)`
    --- gets `{ name, title, status, message, where, seconds }` after each test. Returns passed, failed, skipped.
    function T.run(opts)
      if running then error("T.run: tests are already running", 2) end
      running = true
      local ok, p, f, s = pcall(runAll, opts or {})
      running = false
      finallies = nil
      if not ok then error(p, 0) end
      return p, f, s
    end

    --- The tests `T.run(opts)` would run, in its order, without running anything: `{ name, where, pending }`.
    function T.list(opts)
      opts = opts or {}
      local selected = selector(opts)
      running = true
      local ok, err = pcall(expandAll, root, handler, opts.seed and shuffler(opts.seed), opts.sort, opts.seed)
      running = false
      if not ok then error(err, 0) end
      local tests = {}
      local function visit(block)
        for _, c in ipairs(block.order) do
          if c.broken then tests[#tests + 1] = { name = fullName(c), where = c.where, broken = c.broken.message }
          elseif not c.test then visit(c)
          elseif selected(c) then tests[#tests + 1] = { name = fullName(c), where = c.where, pending = c.fn == nil } end
        end
      end
      visit(root)
      return tests
    end

    """#
}
