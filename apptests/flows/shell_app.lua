-- What the terminal shell and the JSON-lines driver must show (issue 12): bar buttons, help, section footers,
-- picker options by name, the more sheet, and a warning logged at run time. Flags are explicit (#true/#false).
local okit = require "okit"
okit.entity("Person", { name = "string" })
okit.entity("Task", {
  title = "string", done = "bool", owner = "ref Person",
  archive = function(self) self.done = true end,
  duplicate = function(self) self.title = self.title .. " (copy)" end,
})
okit.entity("Board", { tasks = "[Task]", people = "[Person]" })
board = okit.model("Board", { seed = function(b)
  b.people:append(okit.new("Person", { id = "ann", name = "Ann" }))
  b.people:append(okit.new("Person", { id = "bob", name = "Bob" }))
  b.tasks:append(okit.new("Task", { title = "Write", owner = "ann" }))
  b.tasks:append(okit.new("Task", { title = "Test", done = true }))
end })

-- An extension of the app: a flow test's okit.get sees it as the app does.
okit.extension("Task", "label", function(t) return t.title .. (t.done and " ✓" or "") end)
-- Returns the task itself, typed "any" for the binding check: a name read after it is checked at run time only.
okit.extension("Task", "itself", function(t) return t end)

okit.list("tasks", {
  type = "Task", dataPath = "tasks", titlePath = "%Tasks",
  cell = { path = "label" },
  add = "#true", addName = "title", edit = "#true", delete = "#false", search = "#false", refresh = "#false",
  more = "#true", moreActions = "%Archive,%Duplicate", moreActionsTap = "archive(),duplicate()",
  buttons = { { id = "people", title = "%People", tapPath = "#true" } },
  help = "Tap a task to open it.",
  segue = "task",
})
okit.detail("task", {
  titlePath = "title",
  sections = {
    { header = "%Task", footer = "%Owners come from the people list.",
      okit.cell.table { id = "what", path = "title" },
      okit.cell.picker { id = "owner", path = "%Owner", dataPath = "/people", namePath = "name", selectionPath = "owner" } },
    { header = "%Notes", okit.cell.table { id = "ghost", path = "itself.nosuch" } },
  },
})
okit.app { id = "shell", home = "tasks" }
