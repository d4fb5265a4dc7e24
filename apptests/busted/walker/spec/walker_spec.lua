local lfs = require "lfs"
local walker = require "walker"

describe("walker", function()
  local dir

  before_each(function()
    dir = os.tmpname()
    os.remove(dir)
    assert(lfs.mkdir(dir))
    for _, name in ipairs { "b.txt", "a.txt" } do
      local f = assert(io.open(dir .. "/" .. name, "w"))
      f:write("hello")
      f:close()
    end
    assert(lfs.mkdir(dir .. "/sub"))
  end)

  after_each(function()
    os.remove(dir .. "/a.txt"); os.remove(dir .. "/b.txt"); lfs.rmdir(dir .. "/sub"); lfs.rmdir(dir)
  end)

  it("lists the plain files, sorted", function()
    assert.same({ "a.txt", "b.txt" }, walker.files(dir))
  end)

  it("gives what an assertion checked back", function()
    local names = assert.is_table(walker.files(dir))
    assert.equal(2, #names)
    local size = assert.is_number(walker.size(dir .. "/a.txt"))
    assert.equal(5, size)
    local a, b = assert.are.same("x", "x")
    assert.equal("x", a)
    assert.equal("x", b)
  end)

  it("gives the error has_error saw, without its position", function()
    local err = assert.has_error(function() walker.size(dir .. "/none") end)
    assert.equal("no such file: " .. dir .. "/none", err)
    local same = assert.has_error(function() error("exact", 0) end, "exact")
    assert.equal("exact", same)
  end)

  it("can start Lua again as the interpreter that runs it", function()
    assert.equal("lua", arg[-1])
    assert.is_true(os.execute(arg[-1] .. ' -e "os.exit(0)"'))
  end)

  it("fails where the directory is missing", function()
    assert.has_error(function() walker.files(dir .. "/none") end)
  end)

  it("is a failure busted reports too", function()
    assert.is_string(walker.size(dir .. "/a.txt"))
  end)
end)
