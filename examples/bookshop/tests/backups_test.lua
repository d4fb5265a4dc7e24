-- The backups screen: secure backups (name, password twice), newest first, restore after a confirmation and the
-- password (everything comes back as it was), a wrong password refused with the data unchanged, delete.
local launch = require("okit.test").launch

local function openBackups(app)
  app:menu()
  app:menuItem("Backups")
end

local function create(app, name, password)
  app:add()
  return app:respond("OK", { name, password, password })
end

describe("backups", function()
  local app
  before_each(function()
    app = launch("../app.lua")
    openBackups(app)
  end)

  it("start empty and ask for a name and the password twice", function()
    local snap = app:expectScreen { screen = { id = "backups", kind = "backups", title = "Backups" } }
    assert.equal(0, #snap.screen.sections[1].rows)
    snap = app:add()
    assert.same({ "Name", "Password", "Confirm Password" },
      { snap.alert.fields[1].placeholder, snap.alert.fields[2].placeholder, snap.alert.fields[3].placeholder })
    assert.is_true(snap.alert.fields[2].secure)
  end)

  it("are listed by name with their relative date", function()
    create(app, "daily", "s3cret")
    local row = app:screen().screen.sections[1].rows[1]
    assert.equal("daily", row.text)
    assert.equal("Today, 10:00 AM", row.detail)
  end)

  it("refuse OK while the passwords differ or the name is empty", function()
    app:add()
    assert.has_error(function() app:respond("OK", { "daily", "one", "two" }) end, "OK is refused: the passwords do not match")
    assert.has_error(function() app:respond("OK", { "", "pw", "pw" }) end, "OK needs every field filled in")
    app:respond("Cancel")
    assert.equal(0, #app:screen().screen.sections[1].rows)
  end)

  it("refuse a name that is taken, with an alert", function()
    create(app, "daily", "pw")
    local snap = create(app, "daily", "pw")
    assert.equal("Backup Failed", snap.alert.title)
    assert.truthy(snap.alert.message:find("exists", 1, true))
    assert.same({ "OK" }, snap.alert.actions)
  end)

  it("are listed newest first", function()
    create(app, "first", "pw")
    app:advance(3600)
    create(app, "second", "pw")
    local rows = app:screen().screen.sections[1].rows
    assert.equal("second", rows[1].text)
    assert.equal("first", rows[2].text)
  end)

  it("restore everything after a confirmation and the password", function()
    create(app, "daily", "pw")
    local books = app.models.default.books
    books[1].name = "Changed"
    books:remove(2)                                     -- Emma, deleted after the backup
    app.models.directory.groups[1].group.name = "Renamed"
    local snap = app:tap("daily")
    assert.same({ "Yes", "No" }, snap.alert.actions)
    snap = app:respond("Yes")
    assert.equal("Password", snap.alert.title)
    app:respond("OK", { "pw" })
    books = app.models.default.books
    assert.equal(2, #books)
    assert.equal("Dune", books[1].name)
    assert.equal("Emma", books[2].name)
    assert.equal("Favourites", app.models.directory.groups[1].name)
    assert.equal("Favourites", app.models.directory.groups[1].group.name)
    app:expectScreen { screen = { id = "books" } }
    app:relaunch()
    assert.equal(2, #app.models.default.books)
  end)

  it("refuse a wrong password with an alert and change nothing", function()
    create(app, "daily", "pw")
    app.models.default.books[1].name = "Changed"
    app:store()
    app:tap("daily")
    app:respond("Yes")
    local snap = app:respond("OK", { "wrong" })
    assert.equal("Restore Failed", snap.alert.title)
    assert.equal('That is not the password of the backup "daily"; nothing was changed.', snap.alert.message)
    app:respond("OK")
    assert.equal("Changed", app.models.default.books[1].name)
    app:relaunch()
    assert.equal("Changed", app.models.default.books[1].name)
  end)

  it("say a failure in the app's language", function()
    local de = launch("../app.lua", { lang = "de" })
    openBackups(de)
    de:expectScreen { screen = { id = "backups", title = "Backups" } }
    create(de, "täglich", "pw")
    de:tap("täglich")
    de:respond("Ja")
    local snap = de:respond("OK", { "falsch" })
    assert.equal("Wiederherstellen fehlgeschlagen", snap.alert.title)
    assert.equal("Das ist nicht das Passwort des Backups „täglich“; nichts wurde geändert.", snap.alert.message)
    de:respond("OK")
    snap = create(de, "täglich", "pw")
    assert.equal("Ein Backup namens „täglich“ gibt es schon; wählen Sie einen anderen Namen.", snap.alert.message)
    -- `%Backups` (the screen's title and the bookshop's menu item) is okit's own word when the app has no string.
    local fr = launch("../app.lua", { lang = "fr" })
    fr:menu()
    fr:menuItem("Sauvegardes")
    fr:expectScreen { screen = { id = "backups", title = "Sauvegardes" } }
  end)

  it("are deleted after a confirmation", function()
    create(app, "daily", "pw")
    app:delete("daily")
    app:respond("No")
    assert.equal(1, #app:screen().screen.sections[1].rows)
    app:delete("daily")
    app:respond("Yes")
    assert.equal(0, #app:screen().screen.sections[1].rows)
  end)
end)
