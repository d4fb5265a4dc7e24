local launch = require("okit.test").launch

describe("web cells", function()
  it("show the URL, or the HTML text", function()
    local rows = launch("web_app.lua"):screen().screen.sections[1].rows
    assert.equal("https://example.org", rows[1].control.value)
    assert.equal("<h1>Hi</h1>", rows[2].control.value)
  end)
end)
