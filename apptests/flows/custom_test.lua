local launch = require("okit.test").launch

describe("a custom screen kind", function()
  it("evaluates function properties on the screen's context and follows the model", function()
    local app = launch("custom_app.lua")
    local s = app:screen().screen
    assert.equal("Board (2)", s.title)
    assert.equal(1, #s.sections[1].rows)
    assert.equal("☐ Write", s.sections[1].rows[1].text)
    app.models.default.name = "Work"
    app.models.default.tasks[2].done = false
    s = app:screen().screen
    assert.equal("Work (2)", s.title, "the title read the name: it follows it")
    assert.equal(2, #s.sections[1].rows, "the rows read done: they follow it")
    s = app:tap("☐ Write").screen
    assert.equal("Open", s.title)
    assert.equal("WRITE", s.sections[1].rows[1].text)
    app.models.default.tasks[1].done = true
    assert.equal("Done", app:screen().screen.title)
  end)
end)
