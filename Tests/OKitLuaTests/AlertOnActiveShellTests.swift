import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// An alert or prompt raised by app code (`okit.alert`, `okit.prompt`) shows to the person whose command raised
/// it: in a shell of its own (the web's sessions) it is that shell's alert, never the first shell's.
@Suite struct AlertOnActiveShellTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string",
      ask = function(self) okit.alert { title = "%Marked", message = "%" .. self.name, actions = { "%OK" } } end })
    okit.entity("Shop", { books = "[Book]" })
    shop = okit.model("Shop", { seed = function(root) root.books:append(okit.new("Book", { name = "Dune" })) end })
    okit.list("books", { dataPath = "books", cell = { path = "name" }, segue = "book" })
    okit.detail("book", { titlePath = "name", buttons = { { id = "mark", title = "#Mark", tapPath = "ask()" } } })
    okit.app { home = "books" }
    """

    @Test func anAlertFromAppCodeGoesToTheShellWhoseCommandRaisedIt() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        let other = try app.session.makeShell()
        let driver = Driver(shell: other, host: app.session)
        try driver.run("tap", ["row": .string("Dune")])
        try driver.run("button", ["id": .string("mark")])
        let alert = try #require(try other.snapshot().alert, "the person who tapped sees the alert")
        #expect(alert.title == "Marked" && alert.message == "Dune", "\(alert)")
        #expect(try app.shell.snapshot().alert == nil, "the first shell's person sees nothing")
    }
}
