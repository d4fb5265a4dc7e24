-- The model of docs/bindings.md ("the examples below use this model"): a Shop root with one book, Dune, its fields
-- as the page lists them, one owned author who is also the lead author (a ref), and a model `directory`.
-- apptests/docs/examples.py evaluates every binding example of the page on `doc_book` and compares the result with
-- the page's. `doc_conditions` sets up the examples that name a condition in parentheses; each example runs in a
-- transaction that is rolled back, so a condition never leaks into the next example.
local okit = require "okit"

okit.entity("Author", { name = "string" })
okit.entity("Book", {
  name = "string", price = "double", copies = "int", marked = "bool", date = "date", comment = "string?",
  type = { "string", default = "0" }, phone = "string?", authors = "[Author]", author = "ref Author",
})
okit.entity("Genre", { name = "string" })
okit.entity("Shop", { name = { "string", default = "Book Shop" }, books = "[Book]", genres = "[Genre]" })
okit.entity("Directory", { authors = "[Author]" })

shop = okit.model("Shop", {
  seed = function(root)
    local dune = root.books:append(okit.new("Book", {
      name = "Dune", price = 12.5, copies = 3, marked = false, date = "2019-05-01T10:00:00Z" }))
    local herbert = dune.authors:append(okit.new("Author", { name = "Frank Herbert" }))
    dune.author = herbert
  end,
})
directory = okit.model("Directory", { name = "directory" })

doc_book = shop.books[1]
doc_conditions = {
  ["with two authors"] = function(book) book.authors:append(okit.new("Author", { name = "Brian Herbert" })) end,
  ["the app clock on the same day"] = function(book) end,   -- the virtual clock starts at 2019-05-01T10:00:00Z
  ["in German"] = function(book) okit.locale { language = "de" } end,   -- the runner restores the locale after each
}
