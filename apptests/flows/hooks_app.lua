-- An app whose actions and hooks are Lua functions (lua-api.md "Screens"): the flow tests in hooks_test.lua
-- check what each gets and that navigation from an action runs after the command.
local okit = require "okit"

okit.entity("Log", { text = "string" })
okit.entity("Note", { title = "string", seen = "int" })
okit.entity("Notes", { notes = "[Note]" })
trail = okit.model("Log", { name = "log", storage = "transient" })
local function log(s) trail.text = trail.text == "" and s or (trail.text .. "; " .. s) end
notes = okit.model("Notes", { seed = function(root)
  root.notes:append(okit.new("Note", { title = "First" }))
  root.notes:append(okit.new("Note", { title = "Second" }))
end })

okit.list("notes", {
  type = "Note", dataPath = "notes", titlePath = "%Notes", cell = { path = "title" },
  add = "#true", addName = "title", delete = "#true", deletePrompt = "#false",
  -- A row tap: counts, then opens the note (after the command) through `app`.
  tap = function(note, app)
    note.seen = note.seen + 1
    log("tap " .. note.title .. " on " .. (okit.typeof(note)))
    app:open("note", note)
    log("after open")
  end,
  quickName = "#Oops", quickTap = function(note, app) app:open("note", note); error("no") end,
  onAppear = function(screen, app) log("appear " .. screen.id .. " " .. screen.kind .. " " .. okit.typeof(screen.context)) end,
  onDisappear = function(screen) log("disappear " .. screen.id) end,
  onAdd = function(note, screen) log("add " .. note.title .. " in " .. screen.id) end,
  onDelete = function(note, screen) log("delete " .. note.title .. " in " .. screen.id) end,
})

okit.detail("note", {
  titlePath = "title",
  sections = { { okit.cell.text { path = "title", textPath = "title" } } },
  buttons = { { title = "#Done", tapPath = function(note, app) app:back() end } },
  onAppear = function(screen) log("appear " .. screen.id .. " " .. screen.context.title) end,
  onDisappear = function(screen) log("disappear " .. screen.id) end,
})

okit.app { id = "hooks", home = "notes" }
