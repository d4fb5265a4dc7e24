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
