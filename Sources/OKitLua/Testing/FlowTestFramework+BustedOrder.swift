extension FlowTestFramework {
    /// Which tests of a busted spec run and in what order, exactly as busted 2.1.1 decides it (testing.md, "Busted
    /// projects"): its filters are applied as a test or block is declared (busted's `filter_loader.lua`), so a
    /// test left out is no child of its block; a block's children — its hooks too — are sorted (`--sort-tests`)
    /// or shuffled after its body ran, with busted's Fisher–Yates over `math.random` after
    /// `math.randomseed(seed)` (`busted.utils.shuffle`), so that one seed gives busted's order.
    static let bustedOrder: String = #"""
    -- busted's selection and order ---------------------------------------------------------------------------

    -- `T.bustedSelect` (set before a spec file loads): `{ filter =, filterOut =, tags =, excludeTags = }`. Whether
    -- busted registers a declaration (`kind` "describe" or "it") named `name`: its `--exclude-tags` (a tag found
    -- in the declaration's own name), `--tags` (in a test's full name), `--filter-out` (a block's or test's full
    -- name) and `--filter` (a test's full name), in that order, each a Lua pattern given to string.find. A wrong
    -- pattern raises string.find's error (`unfinished capture`) at the declaration, where busted raises it.
    function T.bustedRegisters(kind, name, where)
      local o = T.bustedSelect
      if not o then return true end
      local function fullName()
        local names, node = { name }, current
        while node and node.name do insert(names, 1, node.name); node = node.parent end
        return concat(names, " ")
      end
      local ok, registered = pcall(function()
        for _, tag in ipairs(o.excludeTags or {}) do
          if name:find("#" .. tag) then return false end
        end
        if kind == "it" and #(o.tags or {}) > 0 then
          local tagged = false
          for _, tag in ipairs(o.tags) do
            if fullName():find("#" .. tag) then tagged = true; break end
          end
          if not tagged then return false end
        end
        for _, pattern in ipairs(o.filterOut or {}) do
          if fullName():find(pattern) then return false end
        end
        if kind ~= "it" or #(o.filter or {}) == 0 then return true end
        for _, pattern in ipairs(o.filter) do
          if fullName():find(pattern) then return true end
        end
        return false
      end)
      if not ok then
        -- string.find's message names its caller, this framework: the declaration's place stands for it
        local message = tostring(registered):gsub("^okit%.test%.framework:%d+: ", "", 1)
        error((where and (where .. ": ") or "") .. message, 0)
      end
      return registered
    end

    -- busted's order of a block's children (`block.order`) after its body ran: all its declarations, hooks
    -- included (`block.all`), sorted by name (`sorted`: --sort-tests, busted's comparison, which puts the unnamed
    -- first) or shuffled — by the run's `seed` (--shuffle-tests), or as `randomize()` in the block says — then the
    -- hooks left out. `it("name")` without a function, which busted does not register, comes last.
    function T.bustedArrange(block, seed, sorted)
      local all = {}
      for i, c in ipairs(block.all) do all[i] = c end
      if sorted then
        sort(all, function(t1, t2)
          if t1.name and t2.name then return t1.name < t2.name end
          return t2.name ~= nil
        end)
      else
        local shuffled, s = seed ~= nil, seed or T.randomSeed or 0
        if block.randomize ~= nil then shuffled, s = block.randomize, block.randomSeed or s end
        if shuffled then
          math.randomseed(s)
          local n = #all
          while n >= 2 do
            local k = math.random(n)
            all[n], all[k] = all[k], all[n]
            n = n - 1
          end
          block.shownSeed = tostring(s)
        end
      end
      local order = {}
      for _, c in ipairs(all) do if not c.hook then order[#order + 1] = c end end
      for _, c in ipairs(block.children) do if c.unregistered then order[#order + 1] = c end end
      block.order = order
    end

    """#
}
