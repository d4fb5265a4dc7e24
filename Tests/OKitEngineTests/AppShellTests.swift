import Testing
@testable import OKitEngine

@Suite struct AppShellTests {
    func shell() throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.search = "#true"
        var authors = ListDeclaration(id: "authors")
        authors.dataPath = "authors"; authors.cellPath = "name"; authors.titlePath = "%Authors"
        try shell.declare(books)
        try shell.declare(authors)
        return (f, shell)
    }

    @Test func tabsStacksAndBack() throws {
        let (f, shell) = try shell()
        try shell.start(home: ["books", "authors"])
        var snap = try shell.snapshot()
        #expect(snap.app.tabs == ["books", "authors"] && snap.app.tabTitles == ["Books", "Authors"] && snap.screen.id == "books")
        try shell.open("authors", context: "books[0]")
        snap = try shell.snapshot()
        #expect(snap.app.depth == 2 && snap.screen.id == "authors" && snap.screen.context == f.book(0).debugName)
        #expect(snap.screen.sections.first?.rows.first?.text == "Author of Dune")
        try shell.tab("authors")
        #expect(try shell.snapshot().app.depth == 1)
        try shell.tab("books")
        try shell.back()
        #expect(try shell.snapshot().screen.id == "books")
    }

    @Test func impossibleCommandsSayWhyAndChangeNothing() throws {
        let (_, shell) = try shell()
        #expect(throws: ShellError.self) { try shell.snapshot() }
        #expect(throws: ShellError.self) { try shell.start(home: ["nope"]) }
        try shell.start(home: ["books"])
        #expect(throws: ShellError.self) { try shell.back() }
        #expect(throws: ShellError.self) { try shell.tab("authors") }
        #expect(throws: ShellError.self) { try shell.open("nope") }
        #expect(throws: ShellError.self) { try shell.open("authors", context: "comment") }
        try shell.open("authors", context: "books[0]")
        #expect(throws: ShellError.self) { try shell.search("x") }
        do { try shell.tab("x") } catch { #expect("\(error)" == "no tab \"x\" (tabs: books)") }
        #expect(throws: ShellError.self) { try shell.declare(ListDeclaration(id: "books")) }
    }
}
