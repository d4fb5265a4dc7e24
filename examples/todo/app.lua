-- The smallest okit app: a todo list. Run: scripts/okit-run examples/todo/app.lua
local okit = require "okit"

okit.entity("Task", {
  title = "string",
  done  = "bool",
  due   = "date?",
  label = okit.computed(function(self) return (self.done and "[x] " or "[ ] ") .. self.title end),
  finish = function(self) self.done = true end,
})

okit.entity("List", { name = { "string", default = "Todo" }, tasks = "[Task]" })

list = okit.model("List", {
  seed = function(root) root.tasks:append(okit.new("Task", { title = "Try okit" })) end,
})

-- The tasks, open ones first; tap one to edit it, "Done" finishes it.
okit.list("tasks", {
  type = "Task", dataPath = "tasks",
  titlePath = "name", titleCount = "tasks.@count", subTitleObject = "%Task",
  rowSort = "done,title",
  cell = { path = "label" },
  add = "#true", addName = "title", delete = "#true",
  quickName = "#Done", quickEnabled = "!done", quickTap = "finish()",
  segue = "task",
})

okit.detail("task", {
  titlePath = "title",
  sections = {
    { okit.cell.text   { path = "%Title", textPath = "title" },
      okit.cell.switch { path = "%Done", onPath = "done" },
      okit.cell.date   { path = "%Due", datePath = "due" } },
  },
})

okit.app { id = "todo", home = "tasks" }
