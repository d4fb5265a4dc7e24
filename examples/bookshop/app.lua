-- The bookshop: OKit's demo app as an okit app. Books in a grouped, searchable list; a detail screen with every
-- cell kind; authors and genres through refs, a picker and selection screens; release dates that stay
-- consecutive; groups in the slide-in menu; settings; protection; an encrypted model; backups.
-- Run it: scripts/okit-run examples/bookshop/app.lua      Test it: okit-run test examples/bookshop
local okit = require "okit"

-- A 1×1 orange PNG: the cover the "Add Cover" button gives a book (a real app would read a file or a camera).
COVER = "\137PNG\013\010\026\010\000\000\000\013IHDR\000\000\000\001\000\000\000\001\008\002\000\000\000\144wS\222\000\000\000\012IDATx\156c\248?\149\001\000\004+\001\149\164L\015T\000\000\000\000IEND\174B`\130"

okit.strings("en", { entry = "Entry", entrys = "Entries", marked = "marked" })

okit.entity("Author", {
  name = { "string", default = "<New Author>" },
  description = okit.computed(function(self) return self.name end),
})

okit.entity("Genre", { name = "string" })

-- A book's release dates (first edition, reprints, …) stay in order: moving one pushes the later ones along.
okit.entity("BookDate", {
  date = { "date", didSet = function(self, old) self:keepOrder() end },
  keepOrder = function(self)
    local dates = self.parent and self.parent.dates
    if not dates then return end
    local previous
    for _, d in ipairs(dates) do
      if previous and d.date < previous then d.date = previous end
      previous = d.date
    end
  end,
}, { id = false })

okit.entity("Book", {
  name     = "string",
  date     = "date",
  marked   = "bool",
  price    = { "double", default = 0 },
  copies   = "int",
  read     = { "double", default = 0 },           -- reading progress, 0…1
  comment  = "string?",
  url      = "string?",
  type     = { "string", default = "0" },         -- 0 non-fiction, 1 fiction, 2 other (a segment)
  authors  = "[ref Author]",
  author   = "ref Author",
  genre    = "ref Genre",
  dates    = "[BookDate]",
  cover    = "image?",                            -- bytes in default/_image/<id>.png, loaded on first read
  formatMarked = okit.computed(function(self) return self.marked and okit.localize("marked") or "not marked" end),
  setAsMarked = function(self) self.marked = true end,
  activate = function(self)
    okit.alert { title = "%Book", message = "%Activated", actions = { "%OK" } }
  end,
  setMarkedWithPrompt = function(self)
    okit.alert {
      title = "%Set As Marked", message = "%Set Book as Marked", actions = { "%OK", "%Cancel" },
      onAction = function(choice) if choice == 1 then self:setAsMarked() end end,
    }
  end,
  addCover = function(self) okit.data.write(self, "cover", COVER, "image/png", "Cover of " .. self.name) end,
  removeCover = function(self) self.cover = nil end,
  addDate = function(self)
    local last = self.dates[#self.dates]
    self.dates:append(okit.new("BookDate", { date = last and last.date or okit.date.now() }))
  end,
})

okit.entity("Shop", { books = "[Book]", genres = "[Genre]" })

-- A group of books, shown from the slide-in menu. Groups are partials: the directory holds a stub per group (its
-- name and colour, enough for the menu); the group itself lives in directory/<stub id>.json and loads when opened.
okit.entity("Group", { name = "string", color = { "string", default = "#0000FF" }, books = "[ref Book]" })
okit.partial("GroupDefer", "Group",
  { name = { "string", default = "<New Group>" }, color = { "string", default = "#0000FF" } },
  { field = "group", sync = { "name", "color" } })
okit.entity("Directory", { authors = "[Author]", groups = "[GroupDefer]" })

-- The catalog: Action Data's categories table (an ADDataTable "Categories" with an auto-incrementing primary key,
-- written by an ADSQLProvider) as a sqlite model: okit/data/catalog.sqlite, one row per category, readable by
-- other tools (`sqlite3 <data>/okit/data/catalog.sqlite "select categoryId, name from Categories"`).
okit.entity("Category", { name = "string", books = "[ref Book]" },
  { table = "Categories", primaryKey = "categoryId", key = "autoincrement" })
okit.entity("Catalog", { categories = "[Category]" })

okit.entity("Timeout", { name = "string", minutes = "int" })
okit.entity("Settings", {
  themeName = { "string", default = "default" },
  dark = okit.computed(function(self) return self.themeName == "dark" end,
                       function(self, on) self.themeName = on and "dark" or "default" end),
  encryption = { "bool", default = true },           -- seals the encrypted directory model
  protection = "bool",
  protectionTimeout = "ref Timeout",
  timeouts = "[Timeout]",
})

okit.extension("string", "initial", function(s) return s:sub(1, (utf8.offset(s, 2) or #s + 1) - 1):upper() end)
okit.extension("Book", "label", function(book, suffix) return book.name .. (suffix or "") end)

shop = okit.model("Shop", {
  seed = function(root)
    for _, g in ipairs({ { "FANTASY", "Fantasy" }, { "SCIFI", "Science Fiction" }, { "CLASSIC", "Classic" } }) do
      root.genres:append(okit.new("Genre", { id = g[1], name = g[2] }))
    end
    local dune = root.books:append(okit.new("Book", { name = "Dune", price = 12.5, copies = 3, genre = "SCIFI" }))
    dune:addCover()
    root.books:append(okit.new("Book", { name = "Emma", price = 8, copies = 1, genre = "CLASSIC" }))
  end,
})

directory = okit.model("Directory", {
  name = "directory", storage = "encrypted",           -- sealed with AES-256-GCM (OKIT_PASSPHRASE or okit/keys/data.key)
  seed = function(root)
    root.authors:append(okit.new("Author", { name = "Frank Herbert" }))
    root.authors:append(okit.new("Author", { name = "Jane Austen" }))
    root.groups:append(okit.new("GroupDefer", { name = "Favourites" }))
    root.groups:append(okit.new("GroupDefer", { name = "To Read", color = "#FF9500" }))
  end,
})

catalog = okit.model("Catalog", {
  name = "catalog", storage = "sqlite",               -- a table per entity type; a store writes only changed rows
  seed = function(root)
    for _, name in ipairs({ "Novels", "Poetry", "Travel" }) do
      root.categories:append(okit.new("Category", { name = name }))
    end
  end,
})

settings = okit.model("Settings", {
  name = "settings",
  seed = function(root)
    for _, t in ipairs({ { "T1", "1 minute", 1 }, { "T5", "5 minutes", 5 }, { "T30", "30 minutes", 30 } }) do
      root.timeouts:append(okit.new("Timeout", { id = t[1], name = t[2], minutes = t[3] }))
    end
    root.protectionTimeout = "T5"
  end,
})

okit.state { shop, directory, catalog, settings }

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
  help = "Tap a book to see it; Mark marks it; swipe (delete) removes it.",
})

okit.detail("book", {
  titlePath = "%Book", subTitlePath = "name",
  sections = {
    { header = "%General",
      okit.cell.text     { path = "name", textPath = "name", placeholder = "%Name" },
      okit.cell.switch   { path = "formatMarked", onPath = "marked" },
      okit.cell.date     { path = "%Release Date", id = "Release Date", datePath = "date" },
      okit.cell.segment  { path = "%Type", segmentsPath = "%Non-Fiction,%Fiction,%Other", selectIndexPath = "type" },
      okit.cell.picker   { path = "%Genre", dataPath = "/genres", namePath = "name", selectionPath = "genre" },
      okit.cell.multiline{ path = "%Comment", textPath = "comment", showDisplay = "comment", placeholder = "%Comment" } },
    { header = "%Stock",
      okit.cell.slider   { path = "%Price: ,price/round2, %EUR", id = "Price", valuePath = "price", maxValuePath = "#100" },
      okit.cell.stepper  { path = "%Copies", valuePath = "copies", maxValuePath = "#10" },
      okit.cell.progress { path = "%Read", valuePath = "read" } },
    { header = "%People",
      okit.cell.table    { path = "%Authors", detailPath = "authors.@count/suffixPlural(#entry)", segue = "bookAuthors" },
      okit.cell.table    { path = "%Lead Author", detailPath = "author/ref/name", segue = "leadAuthor" } },
    { header = "%Release Dates", footer = "%Later dates never come before earlier ones.",
      okit.cell.table    { path = "%Dates", detailPath = "dates.@count/suffixPlural(#entry)", segue = "dates" },
      okit.cell.web      { path = "%Website", urlPath = "url", showDisplay = "url" } },
    { header = "%Cover",
      okit.cell.image    { path = "%Cover", imagePath = "cover", showDisplay = "cover" } },
  },
  buttons = { { title = "%Mark", tapPath = "setMarkedWithPrompt()", enabledPath = "!marked" },
              { title = "%Add Cover", tapPath = "addCover()", enabledPath = "!cover" },
              { title = "%Remove Cover", tapPath = "removeCover()", enabledPath = "cover" } },
})

okit.list("dates", {
  type = "BookDate", dataPath = "dates", titlePath = "%Release Dates",
  cell = { path = "date/formatDate" },
  buttons = { { title = "%Add Date", tapPath = "addDate()" } },
  delete = "#true", segue = "date",
})
okit.detail("date", {
  titlePath = "date/formatDate", editAlways = "#true",
  sections = { { okit.cell.date { path = "%Date", id = "Date", datePath = "date" } } },
})

okit.selection("bookAuthors", {
  contextPath = "directory>/", dataPath = "authors", selectionPath = "authors",
  titlePath = "%Authors", rowSort = "name", cell = { path = "name" },
})
okit.selection("leadAuthor", {
  contextPath = "directory>/", dataPath = "authors", selectionPath = "author",
  titlePath = "%Lead Author", rowSort = "name", cell = { path = "name" }, autoClose = "#true",
})

okit.list("authors", {
  type = "Author", contextPath = "directory>/", dataPath = "authors",
  titlePath = "%Authors", rowSort = "name", cell = { path = "name" },
  add = "#true", addName = "name", delete = "#true", search = "#true", searchPath = "name",
})

okit.list("group", {
  dataPath = "group/books", titlePath = "name", cell = { path = "ref/name" },
  delete = "#true",
})

okit.list("categories", {
  type = "Category", contextPath = "catalog>/", dataPath = "categories",
  titlePath = "%Categories", rowSort = "name", cell = { path = "name", detailPath = "books.@count/suffixPlural(#book)" },
  add = "#true", addName = "name", delete = "#true",
})

okit.menu("menu", {
  contextPath = "directory>/", dataPath = "groups", titlePath = "%Groups",
  cell = { path = "name" }, rowIdentifier = "group",
  items = { { title = "%Categories", present = "categories" },
            { title = "%Settings", present = "settings" }, { title = "%Backups", present = "backups" },
            { title = "%Home", home = true } },
})

okit.settings("settings", {
  contextPath = "settings>/", titlePath = "%Settings", editAlways = "#true",
  sections = {
    { header = "%Appearance",
      okit.cell.switch { path = "%Dark Theme", id = "Dark Theme", onPath = "dark" } },
    { header = "%Security",
      okit.cell.switch { path = "%Encryption", id = "Encryption", onPath = "encryption" },
      okit.cell.switch { path = "%Protection", id = "Protection", onPath = "protection" },
      okit.cell.picker { path = "%Timeout", id = "Timeout", dataPath = "timeouts", namePath = "name",
                         selectionPath = "protectionTimeout", showDisplay = "protection", showEdit = "protection" } },
  },
})

okit.backups("backups", { secure = true })

okit.app {
  id = "bookshop", version = 1, autosave = 60,        -- the state is stored every minute (and on quit, SIGINT, SIGTERM, SIGHUP)
  home = { "books", "authors" }, menu = "menu",
  contextPath = "settings>/", themeName = "themeName", encryption = "encryption",
  protection = "protection", protectionTimeout = "protectionTimeout/ref/minutes", protectionText = "#Bookshop",
  protectionImage = "#lock",                          -- the cover shows the text and this image, nothing of the models
}
