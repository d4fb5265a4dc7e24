-- A small shop app for the module's Lua tests (apptests/lua/module_script.lua).
local okit = require "okit"
local util = require "util"                      -- a sibling module

okit.strings("en", { entry = "Entry", entrys = "Entries", marked = "marked" })
okit.locale { language = "en", region = "US", timeZone = "UTC" }

okit.entity("Author", { name = { "string", default = "<New Author>" },
  description = okit.computed(function(self) return self.name end) })
okit.entity("Genre", { name = "string" })
okit.entity("Stamp", { at = "date" }, { id = false })
okit.entity("Book", {
  name = "string", price = { "double", default = 0 }, copies = "int", marked = "bool", comment = "string?",
  date = "date", authors = "[ref Author]", lead = "ref Author", genre = "ref Genre", stamps = "[Stamp]",
  tags = "{string: string}",
  rating = { "int", didSet = function(self, old) self.comment = "rating was " .. old end },
  formatMarked = okit.computed(function(self) return self.marked and okit.localize("marked") or "not marked" end),
  priceWithTax = okit.computed(function(self) return self.price * 1.2 end, function(self, v) self.price = v / 1.2 end),
  setAsMarked = function(self) self.marked = true end,
  managed = function(self) MANAGED = (MANAGED or 0) + 1 end,
  unmanaged = function(self) UNMANAGED = (UNMANAGED or 0) + 1 end,
  loaded = function(self) LOADED = (LOADED or 0) + 1 end,
})
okit.entity("Shop", { name = { "string", default = util.shopName }, books = "[Book]", genres = "[Genre]" })
okit.entity("Directory", { authors = "[Author]" })

EXT_CALLS = 0
okit.extension("string", "initial", function(s) EXT_CALLS = EXT_CALLS + 1; return s:sub(1, 1):upper() end)
okit.extension("Book", "shout", function(b, suffix) EXT_CALLS = EXT_CALLS + 1; return b.name:upper() .. (suffix or "!") end)

okit.migrate(1, function(root, raw) MIGRATED = raw end)

shop = okit.model("Shop", { seed = function(root)
  root.genres:append(okit.new("Genre", { id = "SCIFI", name = "Science Fiction" }))
  root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3, genre = "SCIFI" }))
end })
directory = okit.model("Directory", { name = "directory", seed = function(root)
  root.authors:append(okit.new("Author", { id = "HERBERT", name = "Frank Herbert" }))
end })
session = okit.model("Directory", { name = "session", storage = "transient" })
okit.state { shop, directory }
okit.app { id = "shop", version = 2 }
