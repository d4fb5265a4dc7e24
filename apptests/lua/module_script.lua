-- app: apptests/lua/shop/app.lua
-- Every function of the okit module, from Lua.
local okit = require "okit"
assert(okit == _G.okit, "require 'okit' is the global okit")

-- models, state
local models = okit.models()
assert(models.default == shop and models.directory == directory and models.session == session)
assert(shop.name == "Book Shop", "a default from a required module")
local dune = shop.books[1]

-- entity objects
assert(dune.parent == shop and okit.rootof(dune) == shop and okit.typeof(dune) == "Book" and okit.modelof(dune) == "default")
assert(dune.id == dune.id:upper())
dune.copies = "7"; assert(dune.copies == 7)
dune.rating = 4; assert(dune.comment == "rating was 0", "didSet")
dune.priceWithTax = 24; assert(math.abs(dune.price - 20) < 1e-9, "writable computed")
assert(dune.formatMarked == "not marked"); dune:setAsMarked(); assert(dune.formatMarked == "marked")
dune.tags.kind = "novel"; assert(dune.tags.kind == "novel", "maps")
dune.stamps:append(okit.new("Stamp")); assert(dune.stamps[1].id == nil, "id = false")

-- refs and ids
local herbert = okit.byId("HERBERT")
dune.lead = herbert; dune.authors:add(herbert)
assert(okit.get(dune, "lead/ref/name") == "Frank Herbert" and tostring(dune.lead) == "Frank Herbert")
assert(okit.get(dune, "genre/ref/name") == "Science Fiction")
assert(dune.authors:contains(herbert))

-- new, collections, hooks
local before = MANAGED or 0
local emma = okit.new("Book", { name = "Emma" })
shop.books:add(emma); assert(shop.books[1] == emma and MANAGED == before + 1)
shop.books:append(okit.new("Book", { name = "Anna" })); shop.books:move(3, 1)
assert(shop.books[1].name == "Anna" and #shop.books == 3)
assert(shop.books:find(function(b) return b.name == "Emma" end) == emma)
assert(#shop.books:filter(function(b) return b.price > 1 end) == 1)
shop.books:remove(emma); assert(UNMANAGED == 1)

-- bindings
assert(okit.get(shop, "books.@count") == 2)
assert(okit.get(dune, "%Price: ,price, %EUR") == "Price: 20 EUR")
local all = okit.getAll(dune, "name,comment,#3"); assert(all.n == 3 and all[3] == 3)
okit.set(shop, "books[1]/name", "Dune!"); assert(dune.name == "Dune!")
okit.call(dune, "setAsMarked()")
local b = okit.binding("name/initial"); assert(b:get(dune) == "D" and b.text == "name/initial")
b = okit.binding("name"); b:set(dune, "Dune"); assert(dune.name == "Dune")

-- transactions
local ok = pcall(okit.transaction, function() dune.name = "X"; shop.books:clear(); error("no") end)
assert(not ok and dune.name == "Dune" and #shop.books == 2, "rolled back")
assert(okit.transaction(function() return 42 end) == 42)

-- dependency tracking through a Lua extension: re-evaluates when what it read changes, and not otherwise
local seen = {}
local w = okit.watch(dune, "shout(#?)", function(v) seen[#seen + 1] = v end)
assert(w.value == "DUNE?" and w.evaluations == 1)
local calls = EXT_CALLS
dune.price = 99                                   -- not read by shout
assert(#seen == 0 and EXT_CALLS == calls, "an unrelated write does not re-run the extension")
dune.name = "Dune Messiah"                        -- read by shout
assert(#seen == 1 and seen[1] == "DUNE MESSIAH?" and EXT_CALLS == calls + 1, "exactly one re-run")
okit.transaction(function() dune.name = "A"; dune.name = "B" end)
assert(#seen == 2 and seen[2] == "B?", "once per transaction")
w:cancel(); dune.name = "Dune"; assert(#seen == 2)

-- localization, dates, timers
assert(okit.localize("entry") == "Entry" and okit.get(dune, "copies/suffixPlural(#entry)") == "7 Entries")
assert(okit.locale().timeZone == "UTC")
local now = okit.date.now(); assert(tostring(now) == "2019-05-01T10:00:00Z" and dune.date == now)
assert(okit.date.parse("2019-05-02T10:00:00Z") - now == 86400 and now:format("yyyy") == "2019")
assert(okit.date.fromTime(0).year == 1970 and okit.date.components(now).weekday == 4)
local t = okit.after(5, function() end); t:cancel()
local e = okit.every(5, function() end); e:cancel()

-- data
ok = pcall(okit.data.write, dune, "comment", "x", "text/plain"); assert(not ok, "only data and image fields hold bytes")

-- store, restore, migrations
okit.store(shop)
dune.name = "unsaved"
okit.restoreState()
assert(shop.books[2].name == "Dune", "restoreState reloads what was stored")
assert(MIGRATED == nil, "a fresh model needs no migration")
assert(LOADED ~= nil and LOADED >= 2, "loaded hooks ran for the reloaded books")
okit.storeState()
print("module script: all assertions passed")
