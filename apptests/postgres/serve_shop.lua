-- A shop kept in PostgreSQL and served by several `okit-run serve` processes at once (docs/scale.md,
-- apptests/postgres/serve_nginx.py): books with a name and a count, a list screen and a detail screen.
-- The database comes from OKIT_DATABASE_URL (postgres://user@host:port/db).
local okit = require "okit"

okit.entity("Book", { name = "string", count = "int" })
okit.entity("Shop", { books = "[Book]" })

shop = okit.model("Shop", {
  storage = "postgres",
  seed = function(root)
    root.books:append(okit.new("Book", { id = "dune", name = "Dune", count = 3 }))
    root.books:append(okit.new("Book", { id = "emma", name = "Emma", count = 1 }))
  end,
})

okit.list("books", {
  type = "Book", dataPath = "books", titlePath = "%Books",
  cell = { path = "name", detailPath = "count" },
  add = "#true", addName = "name", delete = "#true",
  segue = "book",
})

okit.detail("book", {
  titlePath = "name",
  sections = { {
    okit.cell.text { path = "%Name", textPath = "name", placeholder = "%Name" },
    okit.cell.text { path = "%Count", textPath = "count" },
  } },
})

okit.app { home = "books" }
