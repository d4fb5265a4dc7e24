-- A custom screen kind (lua-api.md "Screens"): a list and a detail whose properties are Lua functions.
local okit = require "okit"
okit.entity("Task", { title = "string", done = "bool" })
okit.entity("Board", { name = { "string", default = "Board" }, tasks = "[Task]" })
board = okit.model("Board", { seed = function(b)
  b.tasks:append(okit.new("Task", { title = "Write" }))
  b.tasks:append(okit.new("Task", { title = "Test", done = true }))
end })

okit.list("open", {
  type = "Task",
  dataPath = function(b)                       -- only the open tasks
    local open = {}
    for _, t in ipairs(b.tasks) do if not t.done then open[#open + 1] = t end end
    return open
  end,
  titlePath = function(b) return b.name .. " (" .. #b.tasks .. ")" end,
  cell = { path = function(t) return "☐ " .. t.title end },
  segue = "task",
})
okit.detail("task", {
  titlePath = function(t) return t.done and "Done" or "Open" end,
  sections = { { okit.cell.table { id = "what", path = function(t) return t.title:upper() end } } },
})
okit.app { id = "custom", home = "open" }
