-- OKit's list details (issue 36 items 10 and 11): a grouped list with the whole A–Z index and multi-select edit
-- mode (selectPath), rows with a ribbon and an image, a row tap that presents a detail with a date cell.
local okit = require "okit"
okit.entity("Book", { name = "string", picked = "bool", released = "date", cover = "string?", tint = "string?" })
okit.entity("Shop", { books = "[Book]" })
shop = okit.model("Shop", { seed = function(root)
  for _, name in ipairs({ "Dune", "Emma", "Anna", "Zed" }) do
    root.books:append(okit.new("Book", { name = name, released = "2026-11-26T00:48:31Z" }))
  end
  root.books[1].cover = "dune.png"
  root.books[2].tint = "#FF9500"
end })
okit.list("books", {
  type = "Book", dataPath = "books", titlePath = "%Books", rowSort = "name", group = "name/initial", index = "#true",
  selectPath = "picked", deletePrompt = "#false",
  cell = { path = "name", imagePath = "cover", ribbonColor = "tint" },
  present = "book",
})
okit.detail("book", { titlePath = "name",
  sections = { { okit.cell.date { path = "%Released", id = "Released", datePath = "released" } } } })
okit.app { id = "list-details", home = "books" }
