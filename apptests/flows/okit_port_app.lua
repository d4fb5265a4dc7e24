-- An OKit app ported binding for binding, relying on OKit's defaults (reference §5): lists show Edit, + and the
-- search field and delete rows unless told otherwise; selections opened from a list select into the list's
-- collection; a list's cell takes every table-cell property; a list of date cells in edit mode takes values.
local okit = require "okit"
okit.entity("Author", { name = "string" })
okit.entity("BookDate", { date = "date" }, { id = false })
okit.entity("Book", {
  name = "string", marked = "bool", copies = "int",
  author = "ref Author", authors = "[ref Author]", dates = "[BookDate]",
  mark = function(self) self.marked = true end,
  bump = function(self) self.copies = self.copies + 1 end,
})
okit.entity("Shop", { books = "[Book]", taps = "int", hit = function(self) self.taps = self.taps + 1 end })
okit.entity("Directory", { authors = "[Author]" })

directory = okit.model("Directory", { name = "directory", seed = function(root)
  root.authors:append(okit.new("Author", { id = "A1", name = "Frank Herbert" }))
  root.authors:append(okit.new("Author", { id = "A2", name = "Jane Austen" }))
end })
shop = okit.model("Shop", { seed = function(root)
  local dune = root.books:append(okit.new("Book", { name = "Dune", author = "A1" }))
  dune.dates:append(okit.new("BookDate", { date = okit.date.parse("1965-08-01T00:00:00Z") }))
  dune.dates:append(okit.new("BookDate", { date = okit.date.parse("1984-01-01T00:00:00Z") }))
  root.books:append(okit.new("Book", { name = "Emma", author = "A2", marked = true }))
end })

-- No type, no flags: OKit's defaults.
okit.list("books", {
  dataPath = "books", titlePath = "%Books", rowSort = "name",
  cell = { path = "name", detailPath = "author/ref/name", accyPath = "#1" },
  segue = "book",
  autoDeselect = "#true", forceListUpdate = "#false", activity = "#false",   -- OKit's, with no headless meaning
})
okit.detail("book", {
  titlePath = "name",
  sections = { {
    okit.cell.table { path = "%Authors", detailPath = "authors.@count", segue = "bookAuthors" },
    okit.cell.table { path = "%Lead Author", detailPath = "author/ref/name", segue = "leadPick" },
    okit.cell.table { path = "%Dates", segue = "dates" },
  } },
  buttons = { { id = "bump", title = "#Bump it", tapPath = "bump()", showPath = "!marked" } },
})
-- A list of refs; its bar button opens a selection that selects into this list's dataPath on this list's context.
okit.list("bookAuthors", {
  dataPath = "authors", titlePath = "%Authors", cell = { path = "ref/name" },
  buttons = { { id = "pick", icon = "plus", segue = "authorPick" } },
})
okit.selection("authorPick", { contextPath = "directory>/", dataPath = "authors", rowSort = "name", cell = { path = "name" } })
-- Opened from a detail cell: the book, selectionPath given.
okit.selection("leadPick", { contextPath = "directory>/", dataPath = "authors", rowSort = "name", cell = { path = "name" },
  selectionPath = "author" })
-- OKit's Bookshop dates: a list of date cells, always in edit mode.
okit.list("dates", { dataPath = "dates", titlePath = "%Dates", editAlways = "#true", cell = okit.cell.date { datePath = "date" } })
-- A cell that reads off the row (contextPath), hides marked rows (showDisplay), sections in row order, more per row.
okit.list("byAuthor", {
  dataPath = "books", rowSort = "name", group = "marked", groupName = "marked/fmt", groupSort = "#false",
  cell = { contextPath = "author/ref", path = "name", showDisplay = "#true" },
  more = "#true", moreEnabled = "!marked", moreActions = "%Mark", moreActionsTap = "mark()",
  quickImage = "#star", quickTap = "bump()",
})
okit.list("unmarked", { dataPath = "books", cell = { path = "name", showDisplay = "!marked" }, add = "#false" })
-- OKit reads a cell's show flag on the row (list) or the screen's context (detail), not after the cell's contextPath.
okit.list("leads", { dataPath = "books", cell = { path = "name", contextPath = "author/ref", showDisplay = "!marked" }, add = "#false" })
-- OKit's detail controller: a count in the title, and one tap and one accessory tap for every row.
okit.detail("shopInfo", {
  titlePath = "%Shop", titleCount = "books.@count", subTitleObject = "#Book", tap = "hit()", accyTap = "hit()",
  sections = { {
    okit.cell.table { path = "%Taps", detailPath = "taps", accyPath = "#detailDisclosure" },
    okit.cell.table { path = "%Lead", detailPath = "name", contextPath = "books[0]/author/ref", showDisplay = "books[0]/marked" },
  } },
})
okit.list("named", { type = "Book", dataPath = "books", cell = { path = "name" }, addName = "name" })
okit.list("ribboned", { dataPath = "books", cell = { path = "name", ribbonColor = "#FF9500", heightDisplay = "copies" } })
okit.list("plain", { dataPath = function(root) return { { name = "not an entity" } } end, cell = { path = "name" } })
okit.extension("bool", "fmt", function(b) return b and "Marked" or "Open" end)
-- OKit's settings controller binds the settings model: no contextPath needed.
settings = okit.model("Settings", { name = "settings" })
okit.settings("prefs", { titlePath = "%Settings", editAlways = "#true",
  sections = { { okit.cell.switch { path = "%Dark Theme", id = "Dark Theme", onPath = "darkMode" } } } })
okit.menu("menu", { dataPath = "books", cell = { path = "name" }, segue = "book",
  items = { { title = "%Settings", present = "prefs" }, { id = "all", title = "%All Books", segue = "books" } } })
okit.app { id = "okit-port", home = "books", menu = "menu" }
