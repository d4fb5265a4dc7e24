-- The protection cover's art (screens.md "App shell"): protectionText and protectionImage on the cover screen,
-- protectionCover turns them off; covered either way.
local okit = require "okit"
okit.entity("Prefs", { protection = { "bool", default = true }, art = { "bool", default = true }, secret = "string" })
prefs = okit.model("Prefs", { seed = function(p) p.secret = "the combination is 1234" end })
okit.detail("home", { titlePath = "secret", sections = { { okit.cell.table { path = "secret" } } } })
okit.app {
  id = "cover", home = "home", protection = "protection", protectionCover = "art",
  protectionText = "#Locked", protectionImage = "#padlock.png",
}
