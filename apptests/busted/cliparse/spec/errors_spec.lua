local cliparse = require "cliparse"

describe("errors", function()
  it("raise from a test #wrong", function()
    cliparse.new():parse({ "--nope" })
  end)

  pending("suggests the nearest option")

  it("compare the whole message", function()
    assert.has_error(function() error("plain text", 0) end, "plain text")
    assert.has_error(function() error({ code = 2 }) end, { code = 2 })
  end)
end)
