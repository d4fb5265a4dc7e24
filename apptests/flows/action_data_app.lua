-- Detail cells as a user of OKit and Action Data writes them (issue 36 items 8 and 12), run in German: a date cell
-- whose detail is the date in the app's language, a picker over texts (optionValues), a segment that stores its
-- title (byTitle), a photo kept as base64 text, a switch on a "yes"/"no" text field.
local okit = require "okit"
okit.strings("de", { Pet = "Tier", Born = "Geboren", Kind = "Art", Size = "Größe", Vaccinated = "Geimpft",
                     Photo = "Foto", Dog = "Hund", Cat = "Katze", Bird = "Vogel", ["Golden Retriever"] = "Golden Retriever" })
okit.entity("Pet", {
  name       = "string",
  born       = "date",
  kind       = { "string", default = "Dog" },
  size       = { "string", default = "Small" },
  vaccinated = { "string", default = "no" },
  photo      = "string?",
})
okit.entity("Clinic", { pets = "[Pet]" })
-- A 1x1 PNG.
png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
clinic = okit.model("Clinic", { seed = function(c)
  c.pets:append(okit.new("Pet", { name = "Bello", born = "2026-11-26T00:48:31Z", photo = png }))
end })

okit.list("pets", { type = "Pet", dataPath = "pets", titlePath = "%Pet", cell = { path = "name" }, segue = "pet" })
okit.detail("pet", { type = "Pet", titlePath = "name", sections = { {
  okit.cell.date    { path = "%Born", id = "Born", datePath = "born", modePath = "#1" },
  okit.cell.date    { path = "%Born", id = "Born at", datePath = "born" },
  okit.cell.picker  { path = "%Kind", id = "Kind", optionValues = "Dog,Cat,Bird,Golden Retriever", selectionPath = "kind" },
  okit.cell.segment { path = "%Size", id = "Size", segmentsPath = "#Small,#Large", selectIndexPath = "size", byTitle = "#true" },
  okit.cell.switch  { path = "%Vaccinated", id = "Vaccinated", onPath = "vaccinated" },
  okit.cell.image   { path = "%Photo", id = "Photo", imagePath = "photo" },
} } })
okit.app { home = "pets" }
