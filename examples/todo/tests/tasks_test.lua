-- Flow tests of the todo app: okit-run test examples/todo
local launch = require("okit.test").launch

describe("tasks", function()
  local app
  before_each(function() app = launch("../app.lua") end)

  it("starts with one open task", function()
    app:expectScreen { screen = { title = "Todo", subtitle = "1 Task", sections = { { rows = { { text = "[ ] Try okit" } } } } } }
  end)

  it("adds a task through the name prompt and finishes it", function()
    app:add()
    assert.equal("Enter title for this Task", app:screen().alert.message)
    app:respond("OK", { "Buy milk" })
    app:quick("[ ] Buy milk")
    local rows = app:screen().screen.sections[1].rows
    assert.same({ "[ ] Try okit", "[x] Buy milk" }, { rows[1].text, rows[2].text })
    local milk = app.models.default.tasks[1]         -- a new task goes to the front of the model
    assert.equal("Buy milk", milk.title)
    assert.is_true(milk.done)
  end)

  it("edits a task's title in the detail screen and keeps it after a relaunch", function()
    app:tap(1)
    app:edit(true)
    local changes = app:changes(function() app:set("Title", "Try okit today") end)
    assert.equal(1, #changes)
    assert.equal("Try okit today", changes[1].new)
    app:relaunch()
    assert.equal("Try okit today", app.models.default.tasks[1].title)
  end)
end)
