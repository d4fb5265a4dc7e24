local settings = require "settings"

describe("settings", function()
  it("gives what an assertion checked back", function()
    local conf = assert.is_table(settings.parse("width = 80\ncolor = true # on"))
    local width = assert.is_number(conf.width)
    assert.equal(80, width)
    local merged = assert.is_table(settings.merge(conf, assert.is_table(settings.parse("width = 100"))))
    assert.are.same({ width = 100, color = true }, merged)
    local a, b = assert.are.equal("x", "x")
    assert.equal("x", a)
    assert.equal("x", b)
  end)

  it("gives the error has_error saw, without its position", function()
    local err = assert.has_error(function() settings.parse("width 80") end)
    assert.equal('line 1: expected key = value, got "width 80"', err)
    local exact = assert.has_error(function() error("exact", 0) end, "exact")
    assert.equal("exact", exact)
  end)

  it("keeps texts that are no number", function()
    assert.equal("dark", settings.parse("theme = dark").theme)
  end)

  it("can start Lua again as the interpreter that runs it", function()
    assert.equal("lua", arg[-1])
    assert.is_true(os.execute(arg[-1] .. ' -e "os.exit(0)"'))
  end)

  it("is a failure busted reports too", function()
    assert.is_string(settings.parse("width = 80").width)
  end)
end)
