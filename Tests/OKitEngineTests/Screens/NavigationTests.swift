import Testing
@testable import OKitEngine

/// Navigation across tabs, pushed and presented screens and the menu; help; the driver's errors.
@Suite struct NavigationTests {
    func shell(menu: (inout MenuDeclaration) -> Void = { _ in }) throws -> (ShopFixture, AppShell, Driver) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"
        books.segue = "book"; books.edit = "#true"; books.help = "All the books."
        var authors = ListDeclaration(id: "authors")
        authors.dataPath = "authors"; authors.cellPath = "name"; authors.titlePath = "%Authors"; authors.editInherit = "#true"
        var book = DetailDeclaration(id: "book")
        book.titlePath = "name"; book.editInherit = "#true"
        var m = MenuDeclaration(list: {
            var l = ListDeclaration(id: "menu")
            l.type = "Book"; l.dataPath = "books"; l.cellPath = "name"; l.titlePath = "%Menu"; l.segue = "book"
            return l
        }())
        m.rowIdentifier = "authors"
        m.items = [MenuItem(title: "%Home"), MenuItem(title: "%Authors", identifier: "authors")]
        menu(&m)
        for d in [books, authors] as [any ScreenDeclaration] { try shell.declare(d) }
        try shell.declare(book)
        try shell.declare(m)
        try shell.start(home: ["books"], menu: "menu")
        return (f, shell, Driver(shell: shell, host: nil))
    }

    @Test func presentedScreensStackAndCloseReturnsExactlyWhereTheUserWas() throws {
        let (_, shell, _) = try shell()
        try shell.tap(row: "Dune")
        try shell.present("authors", context: "")
        var snap = try shell.snapshot()
        #expect(snap.app.presented && snap.app.depth == 1 && snap.screen.id == "authors")
        #expect(throws: ShellError.self) { try shell.back() }      // the first presented screen: close it
        try shell.present("book")
        #expect(try shell.snapshot().screen.title == "Dune")
        try shell.close()
        try shell.close()
        snap = try shell.snapshot()
        #expect(!snap.app.presented && snap.app.depth == 2 && snap.screen.title == "Dune")
        #expect(throws: ShellError.self) { try shell.close() }
    }

    @Test func pushesFromAPresentedScreenStayOnItsStack() throws {
        let (_, shell, _) = try shell()
        try shell.present("books")
        try shell.tap(row: "Emma")
        var snap = try shell.snapshot()
        #expect(snap.app.presented && snap.app.depth == 2 && snap.screen.title == "Emma")
        try shell.back()
        snap = try shell.snapshot()
        #expect(snap.app.depth == 1 && snap.screen.id == "books" && snap.app.presented)
    }

    @Test func editInheritTakesEditModeFromTheOpener() throws {
        let (_, shell, _) = try shell()
        try shell.open("book", context: "books[0]")
        #expect(try !shell.snapshot().screen.editing)
        try shell.back()
        try shell.edit(true)
        try shell.open("book", context: "books[0]")
        #expect(try shell.snapshot().screen.editing)
    }

    /// A list leaves edit mode before a segue it declares opens another screen, as OKit's list controller does:
    /// the screen opened inherits no edit mode, and the list is in display mode again when the person comes back
    /// (host code's `open`, above, leaves it as it is).
    @Test func aListLeavesEditModeBeforeItsOwnSegue() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"
        books.buttons = [BarButton(id: "info", title: "#Info", segue: "book")]
        var book = DetailDeclaration(id: "book")
        book.titlePath = "name"; book.editInherit = "#true"
        try shell.declare(books)
        try shell.declare(book)
        try shell.start(home: ["books"])
        try shell.edit(true)
        try shell.button("info")
        #expect(try shell.snapshot().screen.id == "book" && !shell.snapshot().screen.editing)
        try shell.back()
        #expect(try !shell.snapshot().screen.editing, "the list is in display mode again")
        // A browser's forward to the book's URL goes through the same segue: the list leaves edit mode again.
        try shell.button("info")
        let onBook = shell.location
        try shell.back()
        try shell.edit(true)
        #expect(try shell.go(to: onBook))
        #expect(try shell.snapshot().screen.id == "book" && !shell.snapshot().screen.editing)
        try shell.back()
        #expect(try !shell.snapshot().screen.editing, "forward through a URL leaves edit mode as the segue does")
    }

    @Test func theMenuShowsRowsContentAndItems() throws {
        let (_, shell, driver) = try shell()
        #expect(try !shell.snapshot().app.menuOpen)
        try driver.run("menu", [:])
        var snap = try shell.snapshot()
        #expect(snap.app.menuOpen && snap.screen.kind == "menu" && snap.screen.buttons.map(\.title) == ["Edit", "+", "Home", "Authors"])
        // A row tap follows the segue into the content and hides the menu.
        try shell.tap(row: "Emma")
        snap = try shell.snapshot()
        #expect(!snap.app.menuOpen && snap.screen.title == "Emma" && snap.app.depth == 2)
        // The accessory shows rowIdentifier as the content with the row's entity; every row shows it is there.
        try shell.openMenu()
        #expect(try shell.snapshot().screen.sections.flatMap(\.rows).allSatisfy { $0.accessory == AccessorySnapshot(kind: "button", text: nil, enabled: true) })
        try shell.accessory(row: "Dune")
        snap = try shell.snapshot()
        #expect(!snap.app.menuOpen && snap.screen.id == "authors" && snap.app.depth == 2)
        #expect(snap.screen.sections.first?.rows.first?.text == "Author of Dune")
        // Items: an identifier shows that screen, none goes home.
        try shell.openMenu()
        try driver.run("menuItem", ["title": .string("Home")])
        snap = try shell.snapshot()
        #expect(snap.screen.id == "books" && snap.app.depth == 1 && !snap.app.menuOpen)
        try shell.openMenu()
        #expect(throws: ShellError.self) { try shell.menuItem("Nope") }
        try shell.back()   // back closes the menu
        #expect(try !shell.snapshot().app.menuOpen)
    }

    @Test func hideMenuFalseKeepsTheMenuOpen() throws {
        let (_, shell, _) = try shell { $0.hideMenu = "#false" }
        try shell.openMenu()
        try shell.tap(row: "Dune")
        #expect(try shell.snapshot().app.menuOpen)
        try shell.close()
        let snap = try shell.snapshot()
        #expect(!snap.app.menuOpen && snap.screen.title == "Dune")
    }

    @Test func withoutAMenuTheMenuCommandSaysSo() throws {
        let f = try ShopFixture()
        try f.start()
        let shell = AppShell(engine: f.engine)
        var l = ListDeclaration(id: "books"); l.dataPath = "books"
        try shell.declare(l)
        try shell.start(home: ["books"])
        #expect(throws: ShellError.self) { try shell.openMenu() }
        #expect(throws: ShellError.self) { try shell.start(home: ["books"], menu: "nope") }
    }

    @Test func helpShowsUntilTheNextCommand() throws {
        let (_, shell, driver) = try shell()
        try driver.run("help", [:])
        #expect(try shell.snapshot().screen.help == "All the books.")
        try driver.run("screen", [:])
        #expect(try shell.snapshot().screen.help == "All the books.")    // a query keeps it
        try shell.tap(row: 1)
        #expect(try shell.snapshot().screen.help == nil)
        #expect(throws: ShellError.self) { try shell.help() }            // the detail has none
    }

    @Test func theDriverSaysWhatIsWrongWithACommand() throws {
        let (_, _, driver) = try shell()
        func message(_ name: String, _ args: [String: Value] = [:]) -> String {
            do { try driver.run(name, args); return "" } catch { return "\(error)" }
        }
        #expect(message("fly").hasPrefix("unknown command \"fly\" (commands: screen, open,"))
        #expect(message("tap") == "tap needs row (a position, {section, row}, an id or a row's text)")
        #expect(message("tap", ["row": .bool(true)]) == "tap: row must be a position, {section, row}, an id or a row's text")
        #expect(message("set", ["cell": .int(1)]) == "set needs value")
        #expect(message("advance", ["seconds": .int(-1)]) == "advance needs seconds (a number ≥ 0)")
        #expect(message("store").hasPrefix("this command without a running app"))
        #expect(try driver.run("quit", [:]))
    }

    @Test func anAlertBlocksEverythingButRespondAndScreen() throws {
        let (_, shell, driver) = try shell()
        shell.present(PendingAlert(kind: "alert", title: "Hi", message: nil, actions: ["OK"]) { _, _ in })
        for cmd in ["tap", "back", "menu", "help", "close", "edit", "titleTap"] {
            #expect(throws: ShellError.self, "\(cmd)") { try driver.run(cmd, ["row": .int(1)]) }
        }
        try driver.run("screen", [:])
        try driver.run("respond", ["action": .string("OK")])
        try driver.run("tap", ["row": .int(1)])
    }

    @Test func aThemeChangeKeepsTheNavigationState() throws {
        let (f, shell, _) = try shell()
        shell.settingsBindings["themeName"] = "name"
        shell.themes = ["Dark": [("tintColor", "#FF9500")]]
        try shell.tap(row: "Emma")
        #expect(try shell.snapshot().app.theme == "Book Shop")
        try f.engine.set(f.shop.root, "name", .string("Dark"))
        let snap = try shell.snapshot()
        #expect(snap.app.theme == "Dark" && snap.app.themeValues.first?.value == "#FF9500")
        #expect(snap.app.depth == 2 && snap.screen.title == "Emma")
    }
}
