-- busted's vocabulary beyond describe/it (docs/testing.md): spies, stubs, finally, pending, tags, near.
local store = {
  saved = {},
  save = function(self, name) self.saved[#self.saved + 1] = name; return #self.saved end,
}
local cleaned = {}

describe("busted vocabulary #vocabulary", function()
  after_each(function() cleaned[#cleaned + 1] = "after_each" end)

  it("spies on a method and calls through", function()
    local save = spy.on(store, "save")
    assert.equal(1, store:save("Dune"))
    assert.spy(save).was.called(1)
    assert.spy(save).was.called_with(store, "Dune")
    assert.spy(save).was.returned_with(1)
    assert.spy(save).was_not.called_with(store, "Emma")
  end)

  it("finds the method reverted and stubs it", function()
    assert.is_false(spy.is_spy(store.save))
    local save = stub(store, "save", 42)
    assert.equal(42, store:save("Emma"))
    assert.same({ "Dune" }, store.saved)           -- the stub did not call through
    assert.stub(save).was.called_with(match.is_ref(store), match.is_string())
  end)

  it("runs finally before after_each", function()
    finally(function() cleaned[#cleaned + 1] = "finally" end)
    assert.same({ "after_each", "after_each" }, cleaned)
  end)

  it("sees the finally ran", function()
    assert.same({ "after_each", "after_each", "finally", "after_each" }, cleaned)
    assert.near(0.3, 0.1 + 0.2, 1e-12)
    assert.are_not.equal(0.3, 0.1 + 0.2)
    assert.has_no.errors(function() store:save("Ulysses") end)
    assert.error_matches(function() error("row 12 is missing") end, "row %d+")
  end)

  it("stops as pending", function()
    pending("shows that a running test can stop as pending")
    error("not reached")
  end)
end)
