-- The built-in okit.Settings: first-launch defaults, darkMode, the timeouts, and protection by default.
local launch = require("okit.test").launch

describe("okit.Settings", function()
  local app, settings
  before_each(function()
    app = launch("fixtures/settings_app.lua")
    settings = app.models.settings
  end)

  it("starts with encryption and protection on and a 5 minute timeout", function()
    assert.is_true(settings.encryption)
    assert.is_true(settings.protection)
    assert.equal(5, settings.protectionTimeout.ref.minutes)
    local names = {}
    for _, t in ipairs(settings.timeouts) do names[#names + 1] = t.name end
    assert.same({ "Immediately", "1 Minute", "5 Minutes", "10 Minutes" }, names)
    app:expectScreen { app = { theme = "default" } }
  end)

  it("switches to the dark theme through darkMode", function()
    app:present("preferences")
    app:set("Dark", true)
    assert.equal("dark", settings.themeName)
    app:expectScreen { app = { theme = "dark" } }
    app:set("Dark", false)
    assert.equal("", settings.themeName)
  end)

  it("protects the app by default", function()
    app:background()
    app:expectScreen { app = { covered = true } }
    app:advance(299)
    app:foreground()
    app:expectScreen { app = { covered = false } }
  end)

  it("keeps a chosen timeout across a relaunch", function()
    app:present("preferences")
    app:set("Timeout", "Immediately")
    app:relaunch()
    assert.equal(0, app.models.settings.protectionTimeout.ref.minutes)
  end)
end)
