import Testing
@testable import OKitEngine

/// A schema for selection screens: books that reference authors one way or another.
final class SelectionFixture {
    let schema = Schema()
    let engine: Engine
    let shell: AppShell
    var root: Entity!

    init(_ configure: (inout SelectionDeclaration) -> Void = { _ in }) throws {
        engine = Engine(schema: schema, clock: VirtualClock(), ids: SeededIds(seed: 7))
        try schema.entity("Author", fields: [FieldSpec("name", .string)])
        try schema.entity("Note", hasId: false, fields: [FieldSpec("name", .string)])
        try schema.entity("Pick", fields: [FieldSpec("refKey", "string?"), FieldSpec("note", .string, default: .string("picked"))])
        try schema.entity("Book", fields: [
            FieldSpec("name", .string),
            FieldSpec("author", "ref Author"),
            FieldSpec("editor", "ref Author?"),
            FieldSpec("authors", "[ref Author]"),
            FieldSpec("fans", "{ref Author}"),
            FieldSpec("picks", "[Pick]"),
            FieldSpec("title", .string),
            FieldSpec("holder", "Holder?"),
        ])
        try schema.entity("Holder", fields: [FieldSpec("author", "ref Author")])
        try schema.entity("Shop", fields: [
            FieldSpec("books", "[Book]"), FieldSpec("authors", "[Author]"), FieldSpec("notes", "[Note]"),
            FieldSpec("closing", .bool),
        ])
        try schema.validate()
        root = try engine.register(model: "default", type: "Shop", storage: TransientStorage()).root
        for name in ["Carl", "Anna", "Bert"] {
            try engine.insert(.entity(try engine.make("Author", ["name": .string(name)])), into: engine.collection(root, "authors"), append: true)
        }
        try engine.insert(.entity(try engine.make("Note", ["name": .string("n")])), into: engine.collection(root, "notes"), append: true)
        let book = try engine.make("Book", ["name": .string("Dune"), "holder": .entity(try engine.make("Holder", [:]))])
        try engine.insert(.entity(book), into: engine.collection(root, "books"), append: true)

        shell = AppShell(engine: engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"; books.segue = "book"
        // The book's detail opens the selection (a cell or a bar button): the book is the selection context.
        var detail = DetailDeclaration(id: "book")
        detail.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "%Author", "segue": "pick"])])]
        detail.buttons = [BarButton(title: "Pick", segue: "pick"), BarButton(title: "Modal", present: "pick")]
        var pick = SelectionDeclaration(id: "pick")
        pick.list.dataPath = "/authors"; pick.list.cellPath = "name"; pick.list.rowSort = "name"; pick.list.titlePath = "%Authors"
        pick.selectionPath = "author"
        configure(&pick)
        try shell.declare(books)
        try shell.declare(detail)
        try shell.declare(pick)
        try shell.start(home: ["books"])
    }

    var book: Entity { (try? engine.get(root, "books[0]").entity) ?? root }

    /// Opens the book's detail, then the selection from its cell (the book is the selection context).
    func openOnBook() throws {
        try shell.tap(row: "Dune")
        try shell.tap(row: "Author")
    }

    /// Opens the book's detail (its bar buttons open the selection too).
    func openBook() throws { try shell.tap(row: "Dune") }

    func checked() throws -> [String] {
        try shell.snapshot().screen.sections.flatMap(\.rows).filter { $0.checked == true }.compactMap(\.text)
    }

    func names(_ binding: String) throws -> [String] {
        try engine.get(book, binding).elements?.compactMap { try engine.get($0.entity, "ref/name").displayString } ?? []
    }

    func author(_ binding: String = "author") throws -> String? { try engine.get(book, binding + "/ref/name").displayString }
}

@Suite struct SelectionScreenTests {
    @Test func singleChoiceSelectsReplacesAndUnselects() throws {
        let f = try SelectionFixture()
        try f.openOnBook()
        let snap = try f.shell.snapshot().screen
        #expect(snap.kind == "selection" && snap.title == "Authors")
        #expect(snap.sections.flatMap(\.rows).map(\.text) == ["Anna", "Bert", "Carl"])
        #expect(snap.sections.flatMap(\.rows).map(\.checked) == [false, false, false])
        try f.shell.tap(row: "Bert")
        #expect(try f.author() == "Bert" && f.checked() == ["Bert"])
        try f.shell.select(row: 1)
        #expect(try f.author() == "Anna" && f.checked() == ["Anna"], "a single choice replaces")
        try f.shell.tap(row: "Anna")
        #expect(try f.author() == nil && f.checked() == [], "tapping the selected row unselects it")
        #expect(try f.shell.snapshot().screen.id == "pick", "autoClose defaults to false")
    }

    @Test func unselectFalseKeepsTheSelection() throws {
        let f = try SelectionFixture { $0.unselect = "#false" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        try f.shell.tap(row: "Anna")
        #expect(try f.author() == "Anna" && f.checked() == ["Anna"])
    }

    @Test func anUnsetOptionalRefIsWrittenOnSelect() throws {
        let f = try SelectionFixture { $0.selectionPath = "editor" }
        try f.openOnBook()
        #expect(f.book["editor"]?.isNull == true)
        try f.shell.tap(row: "Carl")
        #expect(try f.author("editor") == "Carl" && f.checked() == ["Carl"])
    }

    @Test func checkedComesFromTheModel() throws {
        let f = try SelectionFixture()
        try f.openOnBook()
        #expect(try f.checked() == [])
        let carl = try #require(try f.engine.get(f.root, "authors[0]").entity)
        try f.engine.set(f.book, binding: "author", .entity(carl))
        #expect(try f.checked() == ["Carl"])
    }

    @Test func multiChoiceInsertsAtTheFrontAndUnselects() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        try f.shell.tap(row: "Carl")
        #expect(try f.names("authors") == ["Carl", "Anna"], "OKit inserts new refs at the front")
        #expect(try f.checked() == ["Anna", "Carl"])
        try f.shell.tap(row: "Anna")
        #expect(try f.names("authors") == ["Carl"] && f.checked() == ["Carl"])
    }

    @Test func selectAppendAppends() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors"; $0.selectAppend = "#true" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        try f.shell.tap(row: "Carl")
        #expect(try f.names("authors") == ["Anna", "Carl"])
    }

    @Test func uniqueFalseAddsDuplicatesToArraysButNotSets() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors"; $0.unique = "#false"; $0.selectAppend = "#true" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        try f.shell.tap(row: "Anna")
        #expect(try f.names("authors") == ["Anna", "Anna"] && f.checked() == ["Anna"])
        let s = try SelectionFixture { $0.selectionPath = "fans"; $0.unique = "#false" }
        try s.openOnBook()
        try s.shell.tap(row: "Anna")
        try s.shell.tap(row: "Anna")
        #expect(try s.names("fans") == [], "a set never holds a row twice: the second tap unselects")
    }

    @Test func unselectFalseInMultiKeepsTheRef() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors"; $0.unselect = "#false" }
        try f.openOnBook()
        try f.shell.tap(row: "Bert")
        try f.shell.tap(row: "Bert")
        #expect(try f.names("authors") == ["Bert"])
    }

    @Test func refTypeStoresDeclaredRefEntities() throws {
        let f = try SelectionFixture { $0.selectionPath = "picks"; $0.refType = "Pick" }
        try f.openOnBook()
        try f.shell.tap(row: "Bert")
        let pick = try #require(try f.engine.get(f.book, "picks[0]").entity)
        #expect(pick.type.name == "Pick" && pick["note"]?.displayString == "picked")
        #expect(try f.engine.get(f.root, "authors[2]/id").displayString == pick["refKey"]?.displayString)
        #expect(try f.checked() == ["Bert"])
        try f.shell.tap(row: "Bert")
        #expect(try f.engine.get(f.book, "picks").elements?.isEmpty == true)
        // A refType on built-in refs is refused, and nothing changes.
        let g = try SelectionFixture { $0.selectionPath = "authors"; $0.refType = "Pick" }
        try g.openOnBook()
        #expect(throws: SelectionError.self) { try g.shell.tap(row: "Bert") }
        #expect(try g.names("authors") == [])
    }

    @Test func clearUnselectsEverything() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        try f.shell.tap(row: "Bert")
        #expect(try f.shell.snapshot().screen.buttons.map(\.id) == ["clear", "edit", "add"], "Close shows only when presented")
        try f.shell.button("Clear")
        #expect(try f.names("authors") == [] && f.checked() == [])
        let s = try SelectionFixture()
        try s.openOnBook()
        try s.shell.tap(row: "Anna")
        try s.shell.button("clear")
        #expect(try s.author() == nil)
        let hidden = try SelectionFixture { $0.clear = "/closing"; $0.list.edit = "#false"; $0.list.add = "#false" }
        try hidden.openOnBook()
        #expect(try hidden.shell.snapshot().screen.buttons.isEmpty)
        #expect(throws: ShellError.self) { try hidden.shell.button("clear") }
        try hidden.engine.set(hidden.root, "closing", .bool(true))
        #expect(try hidden.shell.snapshot().screen.buttons.map(\.id) == ["clear"], "button flags react to the model")
    }

    @Test func closeDismissesAPresentedSelection() throws {
        // The detail's bar button hands over the detail's context (the book): select into a field reached from it.
        let f = try SelectionFixture { $0.selectionContextPath = "holder" }
        try f.openBook()
        try f.shell.button("Modal")
        var snap = try f.shell.snapshot()
        #expect(snap.app.presented && snap.screen.buttons.map(\.id) == ["close", "clear", "edit", "add"])
        try f.shell.button("Close")
        snap = try f.shell.snapshot()
        #expect(!snap.app.presented && snap.screen.id == "book")
        let hidden = try SelectionFixture { $0.close = "#false"; $0.selectionContextPath = "holder"; $0.list.edit = "#false"; $0.list.add = "#false" }
        try hidden.openBook()
        try hidden.shell.button("Modal")
        #expect(try hidden.shell.snapshot().screen.buttons.map(\.id) == ["clear"])
    }

    @Test func autoCloseClosesAfterEachSelection() throws {
        let f = try SelectionFixture { $0.autoClose = "#true" }
        try f.openOnBook()
        try f.shell.tap(row: "Anna")
        var snap = try f.shell.snapshot()
        #expect(snap.screen.id == "book" && snap.app.depth == 2, "a pushed selection pops")
        #expect(try f.author() == "Anna")
        // Presented: dismissed.
        let g = try SelectionFixture { $0.autoClose = "#true"; $0.selectionContextPath = "holder" }
        try g.openBook()
        try g.shell.button("Modal")
        try g.shell.tap(row: "Bert")
        snap = try g.shell.snapshot()
        #expect(!snap.app.presented && snap.screen.id == "book")
        #expect(try g.author("holder/author") == "Bert")
    }

    @Test func selectionContextPathMovesWhereTheSelectionLives() throws {
        let f = try SelectionFixture { $0.selectionContextPath = "holder" }
        try f.openOnBook()
        try f.shell.tap(row: "Carl")
        #expect(try f.author("holder/author") == "Carl" && f.author() == nil)
        #expect(try f.checked() == ["Carl"])
        let bad = try SelectionFixture { $0.selectionContextPath = "title" }
        try bad.openOnBook()
        #expect(throws: ShellError.self) { try bad.shell.tap(row: "Carl") }
    }

    @Test func aListPushingWithItsOwnContextDefaultsSelectionPathToItsDataPath() throws {
        // OKit's list segue: the selection writes into the pushing list's collection (a bar button of the list).
        let f = try SelectionFixture()
        var authors = ListDeclaration(id: "bookAuthors")
        authors.dataPath = "authors"; authors.cellPath = "ref/name"
        authors.buttons = [BarButton(title: "#Add", segue: "choose")]
        var choose = SelectionDeclaration(id: "choose")
        choose.list.dataPath = "/authors"; choose.list.cellPath = "name"
        try f.shell.declare(authors)
        try f.shell.declare(choose)
        try f.shell.open("bookAuthors", context: "books[0]")
        try f.shell.button("Add")
        try f.shell.tap(row: "Carl")
        #expect(try f.names("authors") == ["Carl"])
        try f.shell.back()
        #expect(try f.shell.snapshot().screen.sections.flatMap(\.rows).map(\.text) == ["Carl"])
    }

    @Test func aListRowSegueSelectsIntoTheListsContextAndDataPath() throws {
        // OKit's list `prepare`: a row's segue to a selection hands over the row entity for the rows' context, but the
        // selection context is the list's context and selectionPath defaults to the list's dataPath.
        let f = try SelectionFixture()
        var authors = ListDeclaration(id: "bookAuthors")
        authors.dataPath = "authors"; authors.cellPath = "ref/name"; authors.segue = "choose"
        var choose = SelectionDeclaration(id: "choose")
        choose.list.dataPath = "/authors"; choose.list.cellPath = "name"; choose.list.rowSort = "name"
        try f.shell.declare(choose)
        authors.buttons = [BarButton(title: "#Add", segue: "choose")]
        try f.shell.declare(authors)
        try f.shell.open("bookAuthors", context: "books[0]")
        try f.shell.button("Add")
        try f.shell.tap(row: "Anna")
        try f.shell.back()
        // A row of the list segues: the rows' context is the row, the selection still the book's authors.
        try f.shell.tap(row: "Anna")
        #expect(try f.shell.snapshot().screen.id == "choose")
        #expect(try f.checked() == ["Anna"])
        try f.shell.tap(row: "Bert")
        #expect(try f.names("authors") == ["Bert", "Anna"])
        // Opened from a detail cell: the context with "." (the fixture's book detail, selectionPath "author").
        let g = try SelectionFixture()
        try g.openOnBook()
        try g.shell.tap(row: "Carl")
        #expect(try g.author() == "Carl")
    }

    @Test func badRowsAndBadTargetsSayWhyAndChangeNothing() throws {
        let f = try SelectionFixture()
        try f.openOnBook()
        #expect(throws: ShellError.self) { try f.shell.tap(row: 9) }
        #expect(throws: ShellError.self) { try f.shell.tap(row: "Zoe") }
        #expect(throws: ShellError.self) { try f.shell.button("nope") }
        let noAdd = try SelectionFixture { $0.list.add = "#false" }
        try noAdd.openOnBook()
        #expect(throws: ShellError.self) { try noAdd.shell.add() }
        let notRefs = try SelectionFixture { $0.selectionPath = "title" }
        try notRefs.openOnBook()
        do {
            try notRefs.shell.tap(row: "Anna")
            Issue.record("a string field is not a selection")
        } catch {
            #expect("\(error)".contains("selectionPath \"title\" must reach a ref"))
        }
        // Rows without an id cannot be referenced.
        let noId = try SelectionFixture { $0.list.dataPath = "/notes"; $0.selectionPath = "authors" }
        try noId.openOnBook()
        #expect(throws: SelectionError.self) { try noId.shell.tap(row: 1) }
        // A row of another type than the refs' target.
        let wrong = try SelectionFixture { $0.list.dataPath = "/books"; $0.selectionPath = "authors" }
        try wrong.openOnBook()
        #expect(throws: SelectionError.self) { try wrong.shell.tap(row: 1) }
        #expect(try wrong.names("authors") == [])
    }

    @Test func aSelectionIsOneTransaction() throws {
        var failing = ScreenHooks()
        failing.onSelect = .function { _, _ in throw FixtureError.boom }
        let f = try SelectionFixture { $0.selectionPath = "authors"; $0.list.hooks = failing }
        try f.openOnBook()
        #expect(throws: EngineError.self) { try f.shell.tap(row: "Anna") }
        do { try f.shell.tap(row: "Anna") } catch {
            #expect("\(error)" == "onSelect hook of screen pick failed: boom", "the hook and the screen are named")
        }
        #expect(try f.names("authors") == [] && f.checked() == [], "a failing onSelect rolls the selection back")
        var log: [String] = []
        var hooks = ScreenHooks()
        hooks.onSelect = .function { e, _ in log.append(e?["name"]?.displayString ?? "-") }
        let g = try SelectionFixture { $0.list.hooks = hooks }
        try g.openOnBook()
        try g.shell.tap(row: "Bert")
        #expect(log == ["Bert"])
    }

    @Test func tapThroughTheDriver() throws {
        let f = try SelectionFixture { $0.selectionPath = "authors" }
        let driver = Driver(shell: f.shell, host: nil)
        try driver.run("tap", ["row": .string("Dune")])
        try driver.run("tap", ["row": .string("Author")])
        try driver.run("tap", ["row": .int(2)])
        try driver.run("select", ["row": .int(3)])
        #expect(try f.names("authors") == ["Carl", "Bert"])
    }

    @Test func checkFindsATypoInSelectionPath() throws {
        let f = try SelectionFixture()
        var home = SelectionDeclaration(id: "homePick")
        home.list.dataPath = "authors"; home.list.cellPath = "name"
        home.selectionPath = "books[0]/autor"; home.unique = "#true"; home.refType = "Nope"
        try f.shell.declare(home)
        let issues = f.shell.check().filter { $0.screen == "homePick" }
        #expect(issues.map(\.property) == ["selectionPath", "refType"])
        #expect(issues.first?.message == "Book has no field \"autor\" (did you mean \"author\"?)")
        // pick is opened from the book's detail (a cell and bar buttons): the book is its selection context, where
        // `author` is a ref — clean.
        #expect(f.shell.check().filter { $0.screen == "pick" }.map(\.message) == [])
    }
}
