-- The bookshop of docs/lua-api.md ("the examples below all belong to one bookshop app"): its entities and models
-- as the page declares them, seeded, plus the values the examples use without declaring them. A fragment of
-- lua-api.md runs appended to this file; a fragment that declares an entity type, a model global, a screen or
-- okit.app replaces the declaration here of the same name (see apptests/docs/examples.py).
local okit = require "okit"

okit.strings("en", { entry = "Entry", entrys = "Entries", marked = "marked" })

okit.entity("Author", {
  name = { "string", default = "<New Author>" },
  description = okit.computed(function(self) return self.name end),
})

okit.entity("Genre", { name = "string" })

okit.entity("BookDate", {
  date = { "date", didSet = function(self, old) self:adjust() end },
  adjust = function(self) end,
}, { id = false })

okit.entity("Book", {
  name    = "string",
  date    = "date",
  marked  = "bool",
  price   = { "double", default = 0 },
  copies  = "int",
  comment = "string?",
  type    = { "string", default = "0" },
  icon    = "image?",
  authors = "[ref Author]",
  author  = "ref Author",
  genre   = "ref Genre",
  dates   = "[BookDate]",
  formatMarked = okit.computed(function(self) return self.marked and okit.localize("marked") or "not marked" end),
  setAsMarked = function(self) self.marked = true end,
  managed   = function(self, container) end,
  unmanaged = function(self, container) end,
  loaded    = function(self) end,
})

okit.entity("Shop", { name = { "string", default = "Book Shop" }, books = "[Book]", genres = "[Genre]" })
okit.entity("Directory", { authors = "[Author]" })

shop = okit.model("Shop", {
  seed = function(root)
    for _, g in ipairs { { "FANTASY", "Fantasy" }, { "SCIFI", "Science Fiction" }, { "CLASSIC", "Classic" } } do
      root.genres:append(okit.new("Genre", { id = g[1], name = g[2] }))
    end
    root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3, genre = "SCIFI" }))
    root.books:append(okit.new("Book", { name = "Emma", price = 8, copies = 1, genre = "CLASSIC" }))
  end,
})
directory = okit.model("Directory", {
  name = "directory",
  seed = function(root) root.authors:append(okit.new("Author", { id = "HERBERT", name = "Frank Herbert" })) end,
})
session = okit.model("Shop", { name = "session", storage = "transient" })

-- What the examples name without declaring it.
dune = shop.books[1]
herbertId = "HERBERT"
cover_png = "\137PNG\013\010\026\010\000\000\000\013IHDR\000\000\000\001\000\000\000\001\008\002\000\000\000\144wS\222\000\000\000\012IDATx\156c\248?\149\001\000\004+\001\149\164L\015T\000\000\000\000IEND\174B`\130"
