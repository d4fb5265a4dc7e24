import Testing
@testable import OKitEngine

/// `searchFilters` written as plain titles (`"Fiction, Classic"`) is taken literally, as OKit does (issue 36 item 9):
/// the parts trimmed, shown localized, compared as written; no check warnings. Bindings (`"#Fiction,#Classic"`)
/// work as before (ListCommandTests.searchScopesFilterByTheScopeText).
@Suite struct PlainScopeTitlesTests {
    let setup = ListCommandTests()

    @Test func plainTitlesAreScopesAsWritten() throws {
        let (f, shell, driver) = try setup.shell {
            $0.search = "#true"; $0.searchFilters = "Fiction, Classic"; $0.searchFilterPath = "type"
        }
        try f.engine.set(f.book(1), "type", .string("Classic"))
        try f.engine.set(f.book(2), "type", .string("Fiction"))
        #expect(try shell.snapshot().screen.search?.scopes == ["All", "Fiction", "Classic"])
        try driver.run("search", ["text": .string(""), "scope": .string("Classic")])
        #expect(try setup.texts(shell) == ["Emma"])
        try shell.search("", scope: "2")
        #expect(try setup.texts(shell) == ["Anna"])
        #expect(shell.check().filter { $0.screen == "books" }.map(\.message) == [])
    }

    @Test func plainTitlesAreShownInTheAppsLanguageAndComparedAsWritten() throws {
        let (f, shell, _) = try setup.shell {
            $0.search = "#true"; $0.searchFilters = "Fiction,Classic"; $0.searchFilterPath = "type"
        }
        f.engine.strings.add(language: "de", strings: ["Fiction": "Roman", "Classic": "Klassiker"])
        f.engine.locale.language = "de"
        try f.engine.set(f.book(1), "type", .string("Classic"))
        #expect(try shell.snapshot().screen.search?.scopes == ["Alle", "Roman", "Klassiker"])
        try shell.search("", scope: "Klassiker")
        #expect(try setup.texts(shell) == ["Emma"])
        try shell.search("", scope: "Classic")   // the title as the app wrote it works in any language
        #expect(try setup.texts(shell) == ["Emma"])
    }

    /// Scopes titled with numbers (a rating) are found by title first: "1" is the scope titled "1", not the first
    /// scope ("All"), so that a URL or a recorded test that names a scope by its title gets it back.
    @Test func numericTitlesAreTitlesBeforePositions() throws {
        let (f, shell, _) = try setup.shell {
            $0.search = "#true"; $0.searchFilters = "3, 1"; $0.searchFilterPath = "type"
        }
        try f.engine.set(f.book(1), "type", .string("1"))
        try f.engine.set(f.book(2), "type", .string("3"))
        #expect(try shell.snapshot().screen.search?.scopes == ["All", "3", "1"])
        try shell.search("", scope: "1")
        #expect(try setup.texts(shell) == ["Emma"])
        #expect(try shell.snapshot().screen.search?.scope == "1")
        try shell.search("", scope: "3")
        #expect(try setup.texts(shell) == ["Anna"])
        try shell.search("", scope: "2")   // no title "2": the second scope, by position
        #expect(try shell.snapshot().screen.search?.scope == "3")
    }
}
