-- Web cells (lua-api.md "Cells"): the page from urlPath, else htmlPath, else path.
local okit = require "okit"
okit.entity("Page", { url = "string", html = "string" })
page = okit.model("Page", { seed = function(p) p.url = "https://example.org"; p.html = "<h1>Hi</h1>" end })
okit.detail("page", { sections = { {
  okit.cell.web { id = "byUrl", path = "%Site", urlPath = "url" },
  okit.cell.web { id = "byHtml", path = "%Note", htmlPath = "html" },
} } })
okit.app { id = "web", home = "page" }
