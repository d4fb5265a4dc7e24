-- A tiny shop on a shared PostgreSQL model, for the multi-process tests in this folder (apptests/postgres/*.py):
-- every okit-run process given the same OKIT_DATABASE_URL holds a live copy of one model.
local okit = require "okit"

okit.entity("Book", {
  name  = "string",
  count = "int",
  -- Test hook, needs okit-run --unsafe: sets $SHOP_HOLD_FIELD to $SHOP_HOLD_VALUE, writes $SHOP_GATE/held, then
  -- waits (inside the one command) until $SHOP_GATE/go exists. The change is made on the copy the process had
  -- when the command began, and stored only after the driver let another process store in between: a
  -- deterministic concurrent edit, without racing two processes.
  hold = function(self)
    local gate, field, value = os.getenv("SHOP_GATE"), os.getenv("SHOP_HOLD_FIELD"), os.getenv("SHOP_HOLD_VALUE")
    assert(gate and field and value, "hold needs SHOP_GATE, SHOP_HOLD_FIELD and SHOP_HOLD_VALUE")
    if field == "count" then value = math.tointeger(tonumber(value)) end
    self[field] = value
    local held = assert(io.open(gate .. "/held", "w"))
    held:write(self.name)
    held:close()
    for _ = 1, 6000 do                                   -- 6000 × 20 ms: two minutes at most
      local go = io.open(gate .. "/go", "r")
      if go then
        go:close()
        os.remove(gate .. "/go")
        return
      end
      os.execute("sleep 0.02")
    end
    error("hold: " .. gate .. "/go never appeared")
  end,
})

okit.entity("Shop", {
  books = "[Book]",
  -- 500 more books in one command (one store).
  addMany = function(self)
    for i = 1, 500 do
      self.books:append(okit.new("Book", { name = string.format("Bulk %03d", i), count = 0 }))
    end
  end,
  -- Every book's count + 1 in one command: one store that changes every row.
  restock = function(self)
    for _, b in ipairs(self.books) do b.count = b.count + 1 end
  end,
})

shop = okit.model("Shop", {
  storage = "postgres",
  seed = function(root)
    root.books:append(okit.new("Book", { name = "Dune", count = 3 }))
    root.books:append(okit.new("Book", { name = "Emma", count = 1 }))
    root.books:append(okit.new("Book", { name = "Ulysses", count = 0 }))
  end,
})

okit.list("books", {
  type = "Book", dataPath = "books", titlePath = "%Shop", titleCount = "books.@count", subTitleObject = "%Book",
  rowSort = "name", cell = { path = "name", detailPath = "count" },
  addName = "name", search = "#false",
  segue = "book",
  buttons = { { id = "addMany", title = "%Add 500", tapPath = "addMany()" },
              { id = "restock", title = "%Restock", tapPath = "restock()" } },
})

okit.detail("book", {
  titlePath = "%Book", subTitlePath = "name", editAlways = "#true",
  sections = {
    { okit.cell.text    { path = "%Name", id = "name", textPath = "name", placeholder = "%Name" },
      okit.cell.stepper { path = "%Count", id = "count", valuePath = "count", maxValuePath = "#1000000" } },
  },
  buttons = { { id = "hold", title = "%Hold", tapPath = "hold()" } },
})

okit.app { id = "pgshop", home = "books" }
