import Foundation
import Testing
@testable import OKitEngine
@testable import OKitLua

/// The backups screen shows its `+` in the bar as OKit's does (a JSON client or a terminal drawing the bar's
/// buttons can offer "new backup"), and pressing it is `add`: the New Backup prompt.
@Suite struct BackupsScreenButtonTests {
    static let app = """
    local okit = require "okit"
    okit.entity("Book", { name = "string" })
    okit.entity("Shop", { books = "[Book]" })
    okit.model("Shop")
    okit.list("books", { dataPath = "books", cell = { path = "name" } })
    okit.backups("backups")
    okit.app { home = "backups" }
    """

    @Test func thePlusIsInTheBarAndPressingItAsksForTheName() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        let driver = Driver(shell: app.shell, host: app.session)
        let screen = try app.shell.snapshot().screen
        #expect(screen.kind == "backups" && screen.buttons.map(\.id) == ["add"] && screen.buttons.map(\.title) == ["+"], "\(screen.buttons)")
        try driver.run("button", ["id": .string("+")])
        let prompt = try #require(try app.shell.snapshot().alert, "the + opens the prompt")
        #expect(prompt.kind == "prompt" && prompt.title == "New Backup", "\(prompt)")
        try driver.run("respond", ["action": .int(2)])
        #expect(throws: (any Error).self) { try driver.run("button", ["id": .string("edit")]) }
    }
}
