/// The Lua side of `launch`: an app a test launched is a Lua object around the native driver object, with the
/// assertions that need the framework (`app:expectScreen`, `app:snapshot`) (testing.md).
enum FlowTestSupport {
    /// A chunk called with `(native, T)`: `native` holds `launch(path, opts)`, `snapshotJSON(app)`,
    /// `decodeJSON(text)`, `record(app, path)`, `readFile(path)`, `writeFile(path, text)`, `snapshotDir()`,
    /// `check(app)` (raises for an app released when its test ended), `syncClock()` (the test file's clock to the
    /// app launched last), `warningCount(app)` and `attribute(app, from, call)` (the warnings a command logged, for
    /// `--strict`) and `update` (the `--update-snapshots` flag); `T` is the framework table. It returns the
    /// `okit.test` module.
    static let source: String = #"""
    local native, T = ...

    -- Calls `f(...)`; an error is raised again at `level` from the caller (the test file's line), without the
    -- position inside this chunk.
    local function raising(level, f, ...)
      local result = table.pack(pcall(f, ...))
      if not result[1] then
        local err = result[2]
        if type(err) == "string" then err = err:gsub("^okit%.test[%w%.]*:%d+: ", "", 1) end
        error(err, level + 1)
      end
      return table.unpack(result, 2, result.n)
    end

    -- The results of an app command, after the test file's clock caught up with the app launched last.
    local function settled(...)
      native.syncClock()
      return ...
    end

    -- A command as the test wrote it, for --strict's note of where a warning was logged: `app:tap("Dune")`.
    local function callText(key, ...)
      local parts = {}
      for i = 1, select("#", ...) do
        local a = select(i, ...)
        parts[i] = type(a) == "table" and "{…}" or T.describe_value(a)
      end
      return "app:" .. tostring(key) .. "(" .. table.concat(parts, ", ") .. ")"
    end

    local App = {}
    local function wrap(nv)
      return setmetatable({ _native = nv }, App)
    end

    App.__index = function(self, key)
      local own = rawget(App, key)
      if own ~= nil and key ~= "__index" and key ~= "__tostring" then return own end
      local nv = rawget(self, "_native")
      local v = nv[key]
      if type(v) == "function" then
        return function(_, ...)
          native.check(nv)
          -- the warnings the command logs are its own (--strict names the command and the test file's line)
          local before = native.warningCount(nv)
          local result = table.pack(pcall(v, nv, ...))
          if native.warningCount(nv) > before then native.attribute(nv, before, callText(key, ...)) end
          if not result[1] then error(result[2], 0) end
          return settled(table.unpack(result, 2, result.n))
        end
      end
      return v
    end
    App.__tostring = function(self) return tostring(rawget(self, "_native")) end

    --- Asserts that the snapshot contains `partial` (a deep subset); returns the snapshot.
    function App:expectScreen(partial)
      if type(partial) ~= "table" then
        error("app:expectScreen(partial): partial must be a table like { screen = { title = \"Books\" } }", 2)
      end
      native.check(self._native)
      local snap = self._native:screen()
      local ok, diff = T.contains(partial, snap)
      if not ok then
        error("app:expectScreen: the snapshot does not contain the expected part\n" .. tostring(diff), 2)
      end
      return snap
    end

    --- Compares the whole snapshot with __snapshots__/<test file>/<name>.json (written on first run and with
    --- --update-snapshots).
    function App:snapshot(name)
      if type(name) ~= "string" or not name:match("^[%w_%-%.]+$") or name:match("^%.") then
        error("app:snapshot(name): name must be letters, digits, '_', '-' or '.', like \"books-empty\"", 2)
      end
      native.check(self._native)
      local json = native.snapshotJSON(self._native)
      local path = native.snapshotDir() .. "/" .. name .. ".json"
      local stored = native.readFile(path)
      if stored == nil or native.update then
        native.writeFile(path, json)
        return
      end
      if stored == json then return end
      local ok, diff = T.same(native.decodeJSON(stored), native.decodeJSON(json))
      if ok then diff = "the files differ in formatting only" end
      error("app:snapshot(\"" .. name .. "\"): the snapshot differs from " .. path .. "\n" .. tostring(diff)
        .. "\n(run okit-run test --update-snapshots to accept the new one)", 2)
    end

    --- Records the commands from now on as a session log (okit-run replay LOG runs them again); returns its path.
    --- Call it right after launch for a log that replays from a fresh data folder.
    function App:record(path)
      if path ~= nil and type(path) ~= "string" then error("app:record([path]): path must be a string", 2) end
      native.check(self._native)
      return raising(2, native.record, self._native, path)
    end

    local M = {}

    --- Launches an app (its file relative to the test file's folder) on a fresh data folder and the virtual clock.
    function M.launch(path, opts)
      if type(path) ~= "string" then
        error("launch(appFile [, opts]): appFile must be a path like \"../app.lua\"", 2)
      end
      if opts ~= nil and type(opts) ~= "table" then
        error("launch(appFile [, opts]): opts must be a table { data =, fixtures =, now =, lang = }", 2)
      end
      return wrap(raising(2, native.launch, path, opts or {}))
    end

    return M
    """#
}
