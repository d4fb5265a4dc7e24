local busted = require "busted"
local cliparse = require "cliparse"

busted.describe("cliparse:parse", function()
  local parser = cliparse.new({ verbose = "flag", output = "value" })

  busted.it("reads flags and options", function()
    local options, rest = parser:parse({ "--verbose", "--output", "out.txt", "in.txt" })
    assert.are.same({ verbose = true, output = "out.txt" }, options)
    assert.are.same({ "in.txt" }, rest)
  end)

  busted.it("reads an option's value after =", function()
    assert.are.equal("a=b", (parser:parse({ "--output=a=b" })).output)
  end)

  it("refuses an unknown option", function()
    assert.has_error(function() parser:parse({ "--colour" }) end, "unknown option --colour")
  end)

  it("counts positionals #wrong", function()
    -- a failure on purpose: the runner reports it
    local _, rest = parser:parse({ "a", "b" })
    assert.are.equal(3, #rest)
  end)
end)

describe("the script's own arguments", function()
  it("has the global arg table", function()
    assert.is_table(arg)
  end)
end)

describe("a block whose body breaks", function()
  it("is never run", function() end)
  local parser = cliparse.new(nil)
  parser.spec.nothing.here = true
end)

describe("messages in French", function()
  local say = require "say"
  setup(function() say:set_namespace("fr") end)
  teardown(function() say:set_namespace("en") end)

  it("names the missing value", function()
    local parser = cliparse.new({ output = "value" })
    assert.has_error(function() parser:parse({ "--output" }) end, "l'option --output attend une valeur")
  end)

  it("names the unknown option", function()
    assert.error_matches(function() cliparse.new():parse({ "--x" }) end, "^option inconnue")
  end)
end)

describe("in any order", function()
  randomize()
  local seen = {}
  for i = 1, 4 do
    it("parses word " .. i, function()
      seen[#seen + 1] = i
      assert.are.same({ "w" .. i }, select(2, cliparse.new():parse({ "w" .. i })))
    end)
  end
end)
