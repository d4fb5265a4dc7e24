local codec = require "codec"
local escape = require "codec.escape"

describe("codec.decode", function()
  it("reads what encode wrote", function()
    assert.round_trips({ name = "Dune", tags = { "sf", "classic" }, year = 1965 })
    assert.round_trips("line\nbreak")
    assert.is_not.round_trips(function() end)
  end)

  it("sees no globals", function()
    assert.has_error(function() codec.decode("os.exit()") end)
  end)

  it("escapes control characters", function()
    assert.are.equal("a\\tb\\001", escape.quote("a\tb\1"))
  end)

  it("keeps integers and floats apart", function()
    assert.are.equal("integer", math.type(codec.decode("3")))
    assert.are.equal("float", math.type(codec.decode(codec.encode(3.0))))
  end)
end)
