local launch = require("okit.test").launch

describe("the protection cover", function()
  it("shows its text and image and nothing of the models", function()
    local app = launch("cover_app.lua")
    local s = app:background()
    assert.is_true(s.app.covered)
    assert.equal("Locked", s.app.cover)
    assert.equal("padlock.png", s.screen.sections[1].rows[1].image)
    assert.is_nil(s.screen.title)
  end)

  it("shows no art with protectionCover off, and stays covered", function()
    local app = launch("cover_app.lua")
    app.models.default.art = false
    local s = app:background()
    assert.is_true(s.app.covered)
    assert.is_nil(s.app.cover)
    assert.same({}, s.screen.sections)
    assert.has_error(function() app:tap(1) end)
  end)
end)
