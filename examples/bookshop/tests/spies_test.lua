-- examples/bookshop/tests/spies_test.lua
local launch = require("okit.test").launch

-- A helper of the test suite: adds books by name.
local function addAll(app, names)
  for _, name in ipairs(names) do app:add(name) end
end

describe("addAll", function()
  it("adds each book once", function()
    local app = launch("../app.lua")
    local add = spy.on(app, "add")              -- app:add still adds; the spy records each call
    addAll(app, { "Dune", "Emma" })
    assert.spy(add).was.called(2)
    assert.spy(add).was.called_with(app, "Emma")
    assert.spy(add).was.called_with(match._, match.is_string())
    assert.spy(add).was_not.called_with(app, "Ulysses")
  end)

  it("stubs what it must not do", function()
    local mailer = { send = function() error("no mail from tests") end }
    local send = stub(mailer, "send", true)      -- returns true, sends nothing
    assert.is_true(mailer.send("shop@example.com", "Dune is back"))
    assert.stub(send).was.called_with("shop@example.com", match.matches("Dune"))
    send.on_call_with("nobody").returns(false)
    assert.is_false(mailer.send("nobody"))
  end)
end)
