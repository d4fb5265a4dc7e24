import Foundation
import Testing
@testable import OKitEngine

/// Protection on the app clock (storage.md "Protection"), in the engine without Lua.
@Suite struct ProtectionTests {
    func shell(protection: String = "#true", timeout: String? = "#2") throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"
        try shell.declare(books)
        shell.settingsBindings["protection"] = protection
        if let timeout { shell.settingsBindings["protectionTimeout"] = timeout }
        shell.settingsBindings["protectionText"] = "name"
        try shell.start(home: ["books"])
        return (f, shell)
    }

    @Test func backgroundCoversOnlyWithProtectionOn() throws {
        let (_, off) = try shell(protection: "#false")
        try off.wentToBackground()
        #expect(!off.covered)
        let (_, on) = try shell()
        try on.wentToBackground()
        let snap = try on.snapshot()
        #expect(snap.app.covered && snap.app.cover == "Book Shop" && snap.screen.kind == "cover")
        #expect(snap.screen.sections.flatMap(\.rows).map(\.text) == ["Book Shop"], "the cover's one row, nothing of the models")
        #expect(throws: ShellError.self) { try on.tap(row: .position(1)) }
    }

    /// Issue 13, hole 12: a covered snapshot carried the tab titles computed from the models.
    @Test func aCoveredSnapshotHoldsNoModelValue() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "name"
        try shell.declare(books)
        shell.settingsBindings["protection"] = "#true"
        shell.settingsBindings["protectionText"] = "#Locked"
        shell.settingsBindings["themeName"] = "name"
        try shell.start(home: ["books"])
        try shell.open("books", context: nil)
        #expect(try shell.snapshot().app.tabTitles == ["Book Shop"], "uncovered, the title comes from the model")
        try shell.wentToBackground()
        let snap = try shell.snapshot()
        #expect(snap.app.covered && snap.app.cover == "Locked")
        let json = snap.json
        #expect(!json.contains("Book Shop") && !json.contains("Dune"), "the covered snapshot leaks model data: \(json)")
        #expect(snap.app.tabTitles.isEmpty && snap.app.depth == 1 && snap.app.theme == "default")
    }

    @Test func foregroundWithinTheTimeoutUncovers() throws {
        let (f, shell) = try shell()
        try shell.wentToBackground()
        f.clock.advance(by: 119)
        try shell.cameToForeground()
        #expect(!shell.covered)
    }

    @Test func afterTheTimeoutOnlyAuthenticationUncovers() throws {
        let (f, shell) = try shell()
        try shell.wentToBackground()
        f.clock.advance(by: 120)
        try shell.cameToForeground()
        #expect(shell.covered)
        #expect(throws: ShellError.self) { try shell.authenticate(false) }
        try shell.authenticate(true)
        #expect(!shell.covered)
        #expect(throws: ShellError.self) { try shell.authenticate(true) }
    }

    @Test func aZeroTimeoutNeedsAuthenticationAtOnce() throws {
        let (_, shell) = try shell(timeout: "#0")
        try shell.wentToBackground()
        try shell.cameToForeground()
        #expect(shell.covered)
    }
}
