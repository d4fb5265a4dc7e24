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

    /// A file in the backup folder that does not read as a backup says so in its row instead of a date.
    @Test func aDamagedFileSaysSoInItsRow() throws {
        let t = try TempApp(["app.lua": Self.app])
        let app = try t.launch()
        try app.session.createBackup(name: "good", password: nil)
        let folder = try #require(app.session.options.dataFolder)
        try Data("garbage\n".utf8).write(to: folder.appendingPathComponent("okit/backup/garbage.okbackup"))
        let rows = try app.shell.snapshot().screen.sections.flatMap(\.rows)
        let detail = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0.detail) })
        #expect(detail["garbage"] == "Damaged: cannot be restored", "\(rows)")
        #expect(detail["good"] != "Damaged: cannot be restored" && detail["good"] != nil, "\(rows)")
    }
}
