-- examples/bookshop/tests/persistence_test.lua
local launch = require("okit.test").launch

describe("persistence", function()
  it("adds a book", function()
    local app = launch("../app.lua", { data = "tmp-data" })
    app:add("Dune"); app:store()
  end)
  it("finds it after launching again", function()
    local app = launch("../app.lua", { data = "tmp-data" })
    assert.equal("Dune", app.models.default.books[1].name)      -- a new book goes first
  end)
end)
