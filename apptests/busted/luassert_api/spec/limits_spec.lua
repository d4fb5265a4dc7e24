-- Specs run plain Lua 5.4's string functions, as under busted: no subject size limit, no pattern cost limit.
describe("limits", function()
  it("find in a 300 KiB string", function()
    local s = string.rep("a", 300 * 1024) .. "b"
    assert.equal(300 * 1024 + 1, (s:find("b", 1, true)))
    assert.truthy(s:match("a+b"))
  end)
  it("gsub a 1 MiB log", function()
    local s = string.rep("line\n", 200000)
    local _, n = s:gsub("\n", "")
    assert.equal(200000, n)
  end)
  it("pattern with .- over 20 KB", function()
    local s = string.rep("x", 20000) .. "\n"
    local cnt = 0
    for line in (s .. s):gmatch("(.-)\n") do cnt = cnt + 1 end
    assert.equal(2, cnt)
  end)
end)
