extension FlowTestFramework {
    /// A busted spec's own environment, as busted 2.1.1 gives it (testing.md, "Execution"): the spec file runs with
    /// `_ENV` a table of its own, not `_G`. Reading a name looks in the running context's globals, then its blocks'
    /// (outermost last), then busted's words (`describe`, `it`, luassert's `assert`, …), then `_G`; a global the
    /// spec assigns stays in the context that assigned it: the file, a describe body (and its `setup`,
    /// `before_each`, … hooks), or one run of a test. Modules the spec requires see `_G` only: Lua's own `assert`,
    /// none of the spec's globals. An `expose` block's globals go to the file's enclosing context (busted's suite).
    static let environment: String = #"""
    -- A spec's environment -------------------------------------------------------------------------------------

    -- The context whose globals a spec's assignment sets: the root block while the file's top level runs, a block
    -- while its body or hooks run, a test while it runs.
    local scope
    -- busted's suite context: it holds busted's words (T.installSpec), and what `expose` blocks assign.
    local suite = { env = {} }

    local function envParent(node)
      if node == suite then return nil end
      return node.parent or suite
    end

    -- Runs `f` (through protect) with `node` the context of its globals.
    local function inScope(node, f, protect)
      local outer = scope
      scope = node
      local failure = protect(f)
      scope = outer
      return failure
    end

    -- An expose block assigns into the context around its enclosing one (busted's unwrap of two levels).
    local function exposeEnv(block)
      return setmetatable({}, {
        __newindex = function(_, key, value)
          local target = envParent(block)
          target = target and envParent(target)
          if not target then _G[key] = value; return end
          target.env = target.env or {}
          target.env[key] = value
        end,
      })
    end

    local specEnv = setmetatable({}, {
      __index = function(_, key)
        local node = scope or root
        while node do
          local env = node.env
          -- as busted: a false value falls through to the outer contexts
          local value = env and env[key]
          if value then return value end
          node = envParent(node)
        end
        return _G[key]
      end,
      __newindex = function(_, key, value)
        local node = scope or root
        node.env = node.env or {}
        node.env[key] = value
      end,
    })

    --- Busted's words go to the spec's environment, not `_G` (which keeps Lua's `assert`); the table to give the
    --- spec file as its `_ENV`.
    function T.installSpec()
      T.install(suite.env)
      return specEnv
    end

    """#
}
