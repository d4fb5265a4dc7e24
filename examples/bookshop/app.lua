-- The bookshop: OKit's demo app as an okit app (models, bindings and extensions; its screens arrive with
-- the screens issue). Run it: scripts/okit-run examples/bookshop/app.lua
local okit = require "okit"

okit.strings("en", { entry = "Entry", entrys = "Entries", marked = "marked" })

okit.entity("Author", {
  name = { "string", default = "<New Author>" },
  description = okit.computed(function(self) return self.name end),
})

okit.entity("Genre", { name = "string" })

okit.entity("BookDate", {
  date = "date",
}, { id = false })

okit.entity("Book", {
  name    = "string",
  date    = "date",
  marked  = "bool",
  price   = { "double", default = 0 },
  copies  = "int",
  comment = "string?",
  type    = { "string", default = "0" },
  authors = "[ref Author]",
  author  = "ref Author",
  genre   = "ref Genre",
  dates   = "[BookDate]",
  formatMarked = okit.computed(function(self) return self.marked and okit.localize("marked") or "not marked" end),
  setAsMarked = function(self) self.marked = true end,
  activate = function(self)
    okit.alert { title = "%Book", message = "%Activated", actions = { "%OK" } }
  end,
})

okit.entity("Shop", {
  books  = "[Book]",
  genres = "[Genre]",
})

okit.entity("Directory", {
  authors = "[Author]",
})

okit.extension("string", "initial", function(s) return s:sub(1, 1):upper() end)
okit.extension("Book", "label", function(book, suffix) return book.name .. (suffix or "") end)

shop = okit.model("Shop", {
  seed = function(root)
    for _, g in ipairs({ { "FANTASY", "Fantasy" }, { "SCIFI", "Science Fiction" }, { "CLASSIC", "Classic" } }) do
      root.genres:append(okit.new("Genre", { id = g[1], name = g[2] }))
    end
    root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3, genre = "SCIFI" }))
    root.books:append(okit.new("Book", { name = "Emma", price = 8, copies = 1, genre = "CLASSIC" }))
  end,
})

directory = okit.model("Directory", {
  name = "directory",
  seed = function(root)
    root.authors:append(okit.new("Author", { name = "Frank Herbert" }))
    root.authors:append(okit.new("Author", { name = "Jane Austen" }))
  end,
})

okit.state { shop, directory }

okit.list("books", {
  type = "Book", dataPath = "books",
  titlePath = "%Book Shop", titleCount = "books.@count", subTitleObject = "%Book",
  rowSort = "name", group = "name/initial", search = "#true", searchPath = "name", index = "#true",
  cell = { path = "name", detailPath = "formatMarked", accyText = "#Mark", accyTap = "setAsMarked()", accyShow = "!marked" },
  add = "#true", addName = "name", delete = "#true",
  more = "#true", moreActions = "%Activate,%Set as Marked", moreActionsTap = "activate,setAsMarked()",
  moreActionsEnabled = ",!marked",
  quickName = "#Mark", quickEnabled = "!marked", quickTap = function(book) book.marked = true end,
  segue = "book",
})
okit.detail("book", {
  titlePath = "%Book", subTitlePath = "name",
  sections = {
    { header = "%General",
      okit.cell.text   { path = "name", textPath = "name", placeholder = "%Name" },
      okit.cell.switch { path = "formatMarked", onPath = "marked" } },
    { header = "%Stock",
      okit.cell.slider { path = "%Price: ,price/round2, %EUR", valuePath = "price", maxValuePath = "#100" },
      okit.cell.stepper{ path = "%Copies", valuePath = "copies", maxValuePath = "#10" } },
    { okit.cell.table  { path = "%Genre", detailPath = "genre/ref/name" } },
  },
})
okit.list("authors", {
  type = "Author", contextPath = "directory>/", dataPath = "authors",
  titlePath = "%Authors", rowSort = "name", cell = { path = "name" },
})
okit.app { id = "bookshop", version = 1, home = { "books", "authors" } }
