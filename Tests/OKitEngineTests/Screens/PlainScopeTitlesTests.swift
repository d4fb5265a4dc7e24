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
}
