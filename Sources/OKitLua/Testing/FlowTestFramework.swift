/// The Lua side of flow tests: busted's vocabulary (`describe`, `it`, hooks, `pending`) and assertions with deep
/// diffs and the test file's line (spec/testing.md). Run as a chunk, it returns the framework table `T`:
/// `T.install()` sets the globals, `T.run { filter =, report = }` runs what the loaded files registered and
/// returns passed, failed, skipped; `T.reset()`, `T.same`, `T.contains`, `T.describe_value`.
public enum FlowTestFramework {
    public static let source: String = #"""
local T = {}
local FRAMEWORK = debug.getinfo(1, "S").source

-- Pretty printing ----------------------------------------------------------------------------------------

local function isArray(t)
  local n = #t
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == n
end

local function keyText(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  return "[" .. T.describe_value(k, 0, {}) .. "]"
end

local function sortedKeys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  return keys
end

function T.describe_value(v, depth, seen)
  depth = depth or 0
  seen = seen or {}
  local tv = type(v)
  if tv == "string" then return string.format("%q", v) end
  if tv ~= "table" then return tostring(v) end
  if seen[v] then return "<cycle>" end
  if depth >= 4 then return "{…}" end
  seen[v] = true
  local parts = {}
  if isArray(v) then
    for i = 1, #v do parts[#parts + 1] = T.describe_value(v[i], depth + 1, seen) end
  else
    for _, k in ipairs(sortedKeys(v)) do
      parts[#parts + 1] = keyText(k) .. " = " .. T.describe_value(v[k], depth + 1, seen)
    end
  end
  seen[v] = nil
  if #parts > 12 then
    local n = #parts
    for i = n, 13, -1 do parts[i] = nil end
    parts[#parts + 1] = "… (" .. (n - 12) .. " more)"
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

local function pathOf(path, k)
  if type(k) == "number" then return path .. "[" .. k .. "]" end
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return path .. "." .. k end
  return path .. "[" .. T.describe_value(k) .. "]"
end

-- Deep comparison: nil when equal, else the path and the two values.
local function difference(a, b, path, subset, seen)
  if type(a) ~= "table" or type(b) ~= "table" then
    if a == b then return nil end
    return { path = path, expected = a, actual = b }
  end
  if a == b then return nil end
  seen = seen or {}
  if seen[a] == b then return nil end
  seen[a] = b
  for _, k in ipairs(sortedKeys(a)) do
    local d = difference(a[k], b[k], pathOf(path, k), subset, seen)
    if d then return d end
  end
  if not subset then
    for _, k in ipairs(sortedKeys(b)) do
      if a[k] == nil then return { path = pathOf(path, k), expected = nil, actual = b[k] } end
    end
  end
  return nil
end

local function differenceText(d)
  local where = d.path == "" and "at the top" or ("at " .. d.path)
  return where .. ": expected " .. T.describe_value(d.expected) .. ", got " .. T.describe_value(d.actual)
end

function T.same(a, b)
  local d = difference(a, b, "", false)
  if d then return false, differenceText(d) end
  return true
end

function T.contains(partial, actual)
  local d = difference(partial, actual, "", true)
  if d then return false, differenceText(d) end
  return true
end

-- Failures carry the position of the test file's line ---------------------------------------------------

local Failure = {}
Failure.__index = Failure
Failure.__tostring = function(f) return (f.where and (f.where .. ": ") or "") .. f.message end

-- The innermost frame that is not the framework's own chunk nor C.
local function testPosition(level)
  level = level or 2
  while true do
    local info = debug.getinfo(level, "Sl")
    if not info then return nil end
    if info.source ~= FRAMEWORK and info.source:sub(1, 11) ~= "=okit.test" and info.what ~= "C"
       and info.currentline and info.currentline > 0 then
      return info.short_src .. ":" .. info.currentline
    end
    level = level + 1
  end
end

local function fail(message, extra)
  error(setmetatable({ message = message .. (extra and ("\n" .. extra) or ""), where = testPosition(3) }, Failure), 0)
end

-- Assertions -------------------------------------------------------------------------------------------

local luaAssert = assert
local assertions = {}

local function show(v) return T.describe_value(v) end
local function withMessage(text, msg) return msg and (tostring(msg) .. "\n" .. text) or text end

function assertions.equal(expected, actual, msg)
  if expected ~= actual then
    fail("assert.equal failed", withMessage("expected: " .. show(expected) .. "\n  actual: " .. show(actual), msg))
  end
end
function assertions.not_equal(expected, actual, msg)
  if expected == actual then fail("assert.not_equal failed", withMessage("both are " .. show(actual), msg)) end
end
function assertions.same(expected, actual, msg)
  local ok, diff = T.same(expected, actual)
  if not ok then
    fail("assert.same failed", withMessage(diff .. "\nexpected: " .. show(expected) .. "\n  actual: " .. show(actual), msg))
  end
end
function assertions.not_same(expected, actual, msg)
  if T.same(expected, actual) then fail("assert.not_same failed", withMessage("both are " .. show(actual), msg)) end
end
function assertions.contains(partial, actual, msg)
  local ok, diff = T.contains(partial, actual)
  if not ok then fail("assert.contains failed", withMessage(diff, msg)) end
end
function assertions.is_true(v, msg)
  if v ~= true then fail("assert.is_true failed", withMessage("expected: true\n  actual: " .. show(v), msg)) end
end
function assertions.is_false(v, msg)
  if v ~= false then fail("assert.is_false failed", withMessage("expected: false\n  actual: " .. show(v), msg)) end
end
function assertions.is_nil(v, msg)
  if v ~= nil then fail("assert.is_nil failed", withMessage("expected: nil\n  actual: " .. show(v), msg)) end
end
function assertions.is_not_nil(v, msg)
  if v == nil then fail("assert.is_not_nil failed", withMessage("expected a value, got nil", msg)) end
end
function assertions.truthy(v, msg)
  if not v then fail("assert.truthy failed", withMessage("expected a truthy value, got " .. show(v), msg)) end
end
function assertions.falsy(v, msg)
  if v then fail("assert.falsy failed", withMessage("expected a falsy value, got " .. show(v), msg)) end
end
function assertions.matches(pattern, s, msg)
  if type(s) ~= "string" or not s:match(pattern) then
    fail("assert.matches failed", withMessage("pattern: " .. show(pattern) .. "\n  actual: " .. show(s), msg))
  end
end
function assertions.has_error(fn, expected, msg)
  if type(fn) ~= "function" then fail("assert.has_error needs a function, got " .. type(fn)) end
  local ok, err = pcall(fn)
  if ok then fail("assert.has_error failed", withMessage("the function raised no error", msg)) end
  if expected ~= nil then
    local text = type(err) == "table" and getmetatable(err) == Failure and err.message or tostring(err)
    if not text:find(tostring(expected), 1, true) then
      fail("assert.has_error failed", withMessage("expected an error containing " .. show(expected) .. "\n  actual: " .. show(text), msg))
    end
  end
end
function assertions.no_error(fn, msg)
  local ok, err = pcall(fn)
  if not ok then fail("assert.no_error failed", withMessage("the function raised: " .. tostring(err), msg)) end
end

-- Negations for the chained forms (assert.is_not.equal, assert.are_not.same, …).
local negations = {
  equal = "not_equal", same = "not_same", is_nil = "is_not_nil", is_not_nil = "is_nil", truthy = "falsy",
  falsy = "truthy", not_equal = "equal", not_same = "same",
  is_true = function(v, msg) if v == true then fail("assert.is_not.is_true failed", withMessage("the value is true", msg)) end end,
  is_false = function(v, msg) if v == false then fail("assert.is_not.is_false failed", withMessage("the value is false", msg)) end end,
  has_error = "no_error", error = "no_error",
  matches = function(p, s, msg) if type(s) == "string" and s:match(p) then fail("assert.not.matches failed", withMessage(show(s) .. " matches " .. show(p), msg)) end end,
}
assertions.error = assertions.has_error
assertions.errors = assertions.has_error
assertions.are_equal, assertions.are_same = assertions.equal, assertions.same

local function lookup(name, negated)
  if negated then
    local n = negations[name]
    if type(n) == "function" then return n end
    if n then return assertions[n] end
    -- `true`, `false`, `nil` after is/is_not
    if name == "true" then return negations.is_true elseif name == "false" then return negations.is_false
    elseif name == "nil" then return assertions.is_not_nil end
    return nil
  end
  if name == "true" then return assertions.is_true elseif name == "false" then return assertions.is_false
  elseif name == "nil" then return assertions.is_nil end
  return assertions[name]
end

local modifiers = { is = false, are = false, has = false, does = false, is_not = true, are_not = true,
                    has_no = true, does_not = true, ["not"] = true, no = true }

local function chain(negated)
  return setmetatable({}, {
    __index = function(_, key)
      if modifiers[key] ~= nil then return chain(negated ~= modifiers[key]) end
      local f = lookup(key, negated)
      if not f then error("assert: unknown assertion \"" .. tostring(key) .. "\"", 2) end
      return f
    end,
  })
end

T.assert = setmetatable({}, {
  __call = function(_, v, msg, ...)
    if not v then
      if msg == nil then msg = "assertion failed!" end
      error(msg, 2)
    end
    return v, msg, ...
  end,
  __index = function(_, key)
    if modifiers[key] ~= nil then return chain(modifiers[key]) end
    local f = lookup(key, false)
    if f then return f end
    -- assert.not_nil, assert.is_string, … are not provided: say so
    error("assert: unknown assertion \"" .. tostring(key) .. "\"", 2)
  end,
})

-- Registration -----------------------------------------------------------------------------------------

local root, current

function T.reset()
  root = { name = nil, children = {}, before = {}, after = {}, setup = {}, teardown = {} }
  current = root
end
T.reset()

local function checkName(fname, name)
  if type(name) ~= "string" then error(fname .. "(name, fn): name must be a string, got " .. type(name), 3) end
end

local function describe(name, fn)
  checkName("describe", name)
  if type(fn) ~= "function" then error("describe(\"" .. name .. "\", fn): fn must be a function, got " .. type(fn), 2) end
  local block = { name = name, parent = current, children = {}, before = {}, after = {}, setup = {}, teardown = {} }
  current.children[#current.children + 1] = block
  local outer = current
  current = block
  local ok, err = pcall(fn)
  current = outer
  if not ok then error(err, 0) end
end

local function it(name, fn)
  checkName("it", name)
  if fn ~= nil and type(fn) ~= "function" then error("it(\"" .. name .. "\", fn): fn must be a function, got " .. type(fn), 2) end
  local info = debug.getinfo(2, "Sl")
  current.children[#current.children + 1] = { test = true, name = name, fn = fn, parent = current,
    where = info and (info.short_src .. ":" .. (info.currentline or 0)) }
end

local function hook(kind)
  return function(fn)
    if type(fn) ~= "function" then error(kind .. "(fn): fn must be a function", 2) end
    local list = current[kind]
    list[#list + 1] = fn
  end
end

function T.install()
  _G.describe = describe
  _G.context = describe
  _G.it = it
  _G.test = it
  _G.pending = function(name) checkName("pending", name); it(name, nil) end
  _G.before_each = hook("before")
  _G.after_each = hook("after")
  _G.setup = hook("setup")
  _G.teardown = hook("teardown")
  _G.lazy_setup, _G.lazy_teardown, _G.strict_setup, _G.strict_teardown = _G.setup, _G.teardown, _G.setup, _G.teardown
  _G.assert = T.assert
end

-- Running ----------------------------------------------------------------------------------------------

local function handler(err)
  if type(err) == "table" and getmetatable(err) == Failure then return err end
  local where = testPosition(3)
  local text = tostring(err)
  return setmetatable({ message = text, where = where, traceback = debug.traceback(nil, 2) }, Failure)
end

local function fullName(node)
  local parts = {}
  while node do
    if node.name then table.insert(parts, 1, node.name) end
    node = node.parent
  end
  return table.concat(parts, " ")
end

local function matches(name, filter)
  if not filter or filter == "" then return true end
  if name:find(filter, 1, true) then return true end
  local ok, found = pcall(string.find, name, filter)
  return ok and found ~= nil
end

local function hasTests(block, filter)
  for _, c in ipairs(block.children) do
    if c.test then if matches(fullName(c), filter) then return true end
    elseif hasTests(c, filter) then return true end
  end
  return false
end

local function chainOf(block)
  local blocks = {}
  while block do table.insert(blocks, 1, block); block = block.parent end
  return blocks
end

function T.run(opts)
  opts = opts or {}
  local report = opts.report or function() end
  local passed, failed, skipped = 0, 0, 0
  local clock = os.clock

  local function runTest(test, blockError)
    local name = fullName(test)
    local started = clock()
    local result = { name = name, status = "ok" }
    if not test.fn then
      result.status = "pending"
      skipped = skipped + 1
      result.seconds = 0
      report(result)
      return
    end
    local failure = blockError
    if not failure then
      local blocks = chainOf(test.parent)
      local ranBefore = true
      for _, b in ipairs(blocks) do
        for _, f in ipairs(b.before) do
          local ok, err = xpcall(f, handler)
          if not ok then failure = err; ranBefore = false; break end
        end
        if not ranBefore then break end
      end
      if not failure then
        local ok, err = xpcall(test.fn, handler)
        if not ok then failure = err end
      end
      for i = #blocks, 1, -1 do
        for _, f in ipairs(blocks[i].after) do
          local ok, err = xpcall(f, handler)
          if not ok and not failure then failure = err end
        end
      end
    end
    result.seconds = clock() - started
    if failure then
      result.status = "fail"
      result.message = failure.message
      result.where = failure.where or test.where
      failed = failed + 1
    else
      passed = passed + 1
    end
    report(result)
  end

  local function runBlock(block, inherited)
    if not hasTests(block, opts.filter) then return end
    local blockError = inherited
    if not blockError then
      for _, f in ipairs(block.setup) do
        local ok, err = xpcall(f, handler)
        if not ok then
          err.message = "setup failed: " .. err.message
          blockError = err
          break
        end
      end
    end
    for _, c in ipairs(block.children) do
      if c.test then
        if matches(fullName(c), opts.filter) then runTest(c, blockError) end
      else
        runBlock(c, blockError)
      end
    end
    if not inherited and not blockError then
      for _, f in ipairs(block.teardown) do
        local ok, err = xpcall(f, handler)
        if not ok then
          report({ name = fullName(block) .. " (teardown)", status = "fail", message = err.message, where = err.where, seconds = 0 })
          failed = failed + 1
        end
      end
    end
  end

  runBlock(root, nil)
  return passed, failed, skipped
end

return T
"""#
}
