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
        authors.dataPath = "authors"; authors.cellPath = "name"; authors.titlePath = "%Authors"; authors.search = "#false"
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
        do { try shell.tab("x") } catch { #expect("\(error)" == "no tab \"x\" (tabs: 1 Books)") }
        #expect(throws: ShellError.self) { try shell.declare(ListDeclaration(id: "books")) }
    }

    /// Each kind answers its own help and refuses the list-only commands with its kind's name.
    @Test func otherKindsRefuseListCommandsByName() throws {
        let (_, shell) = try shell()
        var book = DetailDeclaration(id: "book")
        book.titlePath = "%Book"
        book.help = "One book."
        try shell.declare(book)
        try shell.start(home: ["books"])
        do { try shell.help(); Issue.record("help on a list without help") } catch {
            #expect("\(error)" == "screen \"books\" has no help (set help = \"…\")")
        }
        try shell.open("book", context: "books[0]")
        let refusals: [(String, () throws -> Void)] = [
            ("quick", { try shell.quick(row: 1) }), ("more", { try shell.more(row: 1) }), ("add", { try shell.add() }),
            ("delete", { try shell.delete(row: 1) }), ("move", { try shell.move(from: 1, to: 2) }),
        ]
        for (name, command) in refusals {
            do { try command(); Issue.record("\(name) on a detail screen") } catch {
                #expect("\(error)" == "\(name) is not a command of detail screens")
            }
        }
        try shell.help()
        #expect(try shell.snapshot().screen.help == "One book.")
    }
}

@Suite struct DetailScreenTests {
    func shell() throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.dataPath = "books"; books.cellPath = "name"; books.rowSort = "name"; books.segue = "book"
        var book = DetailDeclaration(id: "book")
        book.titlePath = "%Book"; book.subTitlePath = "name"
        book.sections = [
            SectionDeclaration(header: "%General", cells: [
                CellDeclaration(kind: "text", properties: ["path": "name", "textPath": "name"]),
                CellDeclaration(kind: "switch", properties: ["path": "formatMarked", "onPath": "marked"]),
                CellDeclaration(kind: "table", properties: ["path": "%Comment", "detailPath": "comment", "showDisplay": "comment"]),
            ]),
            SectionDeclaration(header: "%Stock", cells: [
                CellDeclaration(kind: "slider", properties: ["path": "%Price", "valuePath": "price", "maxValuePath": "#100"]),
                CellDeclaration(kind: "stepper", properties: ["path": "%Copies", "valuePath": "copies", "maxValuePath": "#10", "stepValuePath": "#2"]),
            ]),
        ]
        try shell.declare(books)
        try shell.declare(book)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    @Test func aRowTapOpensTheDetailWithTheRowsEntity() throws {
        let (f, shell) = try shell()
        try shell.tap(row: "2")
        var snap = try shell.snapshot().screen
        #expect(snap.kind == "detail" && snap.subtitle == "Emma" && snap.context == f.book(1).debugName)
        #expect(snap.sections.map(\.header) == ["General", "Stock"])
        #expect(snap.sections[0].rows.map(\.id) == ["name", "formatMarked"], "a hidden cell is absent")
        #expect(snap.sections[0].rows[1].control == ControlSnapshot(value: .bool(false), enabled: false))
        try shell.back()
        try shell.tap(row: "Dune")
        snap = try shell.snapshot().screen
        #expect(snap.subtitle == "Dune")
        #expect(throws: ShellError.self) { try shell.tap(row: "1") }
    }

    @Test func editCellsWriteThroughTheirBindingsInEditModeWithClamping() throws {
        let (f, shell) = try shell()
        try shell.tap(row: "1")
        #expect(throws: ShellError.self) { try shell.set(cell: "name", value: .string("X")) }
        try shell.edit(true)
        try shell.set(cell: "name", value: .string("Dune Messiah"))
        try shell.set(cell: "formatMarked", value: .bool(true))
        try shell.set(cell: "Price", value: .double(250))
        try shell.set(cell: "Copies", value: .int(5))
        #expect(f.book(0)["name"]!.description == "Dune Messiah")
        #expect(f.book(0)["marked"]!.truthy)
        #expect(f.book(0)["price"]!.isSame(as: .double(100)), "clamped to the maximum")
        #expect(f.book(0)["copies"]!.isSame(as: .int(5)), "inside the range as given (UIStepper steps only by − and +), integral")
        let snap = try shell.snapshot().screen
        #expect(snap.editing && snap.sections[0].rows[1].text == "marked")
        #expect(snap.sections[1].rows[1].control == ControlSnapshot(value: .int(5), enabled: true, min: .int(0), max: .int(10), step: .int(2)),
                "a stepper shows its range and step")
        #expect(throws: ShellError.self) { try shell.set(cell: "nope", value: .int(1)) }
        #expect(throws: InvalidValue.self, "refused as a text cell refuses it") { try shell.set(cell: "Price", value: .string("cheap")) }
        try f.engine.set(f.book(0), "comment", .string("hi"))
        try shell.edit(false)
        #expect(try shell.snapshot().screen.sections[0].rows.count == 3, "the comment cell shows once there is one")
    }
}

@Suite struct AddDeleteAlertTests {
    func shell(_ configure: (inout ListDeclaration) -> Void) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"; books.titleCount = "books.@count"; books.titlePath = "%Books"
        books.subTitleObject = "%Book"; books.add = "#true"; books.delete = "#true"
        configure(&books)
        try shell.declare(books)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    func texts(_ shell: AppShell) throws -> [String] {
        try shell.snapshot().screen.sections.flatMap { $0.rows.compactMap(\.text) }
    }

    @Test func addAsksForTheNameAndRefusesAnEmptyOne() throws {
        let (f, shell) = try shell { $0.addName = "name" }
        let before = f.managedLog.count
        try shell.add()
        let alert = try #require(try shell.snapshot().alert)
        #expect(alert.kind == "prompt" && alert.title == "New Book" && alert.message == "Enter name for this Book")
        #expect(alert.actions == ["OK", "Cancel"] && alert.fields.first?.placeholder == "Name")
        #expect(throws: ShellError.self) { try shell.tap(row: "1") }
        #expect(throws: ShellError.self) { try shell.respond("OK", fields: [""]) }
        #expect(try shell.snapshot().alert != nil, "still waiting")
        try shell.respond("OK", fields: ["Anna"])
        #expect(try shell.snapshot().alert == nil)
        #expect(try texts(shell) == ["Anna", "Dune", "Emma"], "added at the front")
        #expect(try shell.snapshot().screen.subtitle == "3 Books")
        #expect(f.managedLog.count == before, "books have no managed hook; nothing else was attached")
        try shell.add(text: "Zorro")
        #expect(try texts(shell).first == "Zorro", "a name given with the command skips the prompt")
        try shell.add()
        try shell.respond("Cancel")
        #expect(try texts(shell).count == 4)
    }

    /// A name given to a list without `addName` is refused with why, not dropped (nothing is added); `add` alone adds.
    @Test func aNameGivenToAListWithoutAddNameIsRefused() throws {
        let (_, shell) = try shell { _ in }
        #expect { try shell.add(text: "zed") } throws: { "\($0)".contains("has no addName") }
        #expect(try texts(shell) == ["Dune", "Emma"])
        try shell.add(text: "  ")
        #expect(try shell.snapshot().screen.sections.flatMap(\.rows).count == 3, "a blank name is no name: add alone")
    }

    @Test func deleteConfirmsFirst() throws {
        let (f, shell) = try shell { $0.addAppend = "#true"; $0.addName = "name" }
        try shell.add(text: "Last")
        #expect(try texts(shell) == ["Dune", "Emma", "Last"])
        try shell.delete(row: "Emma")
        #expect(try shell.snapshot().alert?.title == "Confirm Deletion")
        try shell.respond("No")
        #expect(try texts(shell).count == 3)
        try shell.delete(row: "1")
        try shell.respond("1")
        #expect(try texts(shell) == ["Emma", "Last"])
        #expect(throws: ShellError.self) { try shell.respond("Yes") }
        _ = f
    }

    @Test func deleteWithoutPromptAndRefusedCommands() throws {
        let (_, shell) = try shell { $0.deletePrompt = "#false"; $0.add = "#false" }
        try shell.delete(row: "Dune")
        #expect(try texts(shell) == ["Emma"])
        #expect(throws: ShellError.self) { try shell.add(text: "x") }
        #expect(throws: ShellError.self) { try shell.delete(row: "9") }
    }

    @Test func alertsQueueAndAnswerInOrder() throws {
        let (f, shell) = try shell { _ in }
        var answers: [String] = []
        shell.present(PendingAlert(kind: "alert", title: "First", message: nil, actions: ["A", "B"]) { c, _ in
            answers.append("first \(c)")
            shell.present(PendingAlert(kind: "alert", title: "Third", message: nil, actions: ["OK"]) { _, _ in answers.append("third") })
        })
        shell.present(PendingAlert(kind: "sheet", title: "Second", message: nil, actions: ["X", "Cancel"]) { c, _ in
            answers.append("second \(c)")
            try f.engine.set(f.book(0), "name", .string("Changed"))
        })
        #expect(try shell.snapshot().alert?.title == "First")
        try shell.respond("B")
        #expect(try shell.snapshot().alert?.title == "Second", "an alert raised while answering appears after the waiting ones")
        try shell.respond("X")
        try shell.respond("OK")
        #expect(answers == ["first 2", "second 1", "third"])
        #expect(f.book(0)["name"]!.description == "Changed", "a response may write")
        #expect(throws: ShellError.self) { try shell.respond("OK") }
    }
}

@Suite struct RowActionTests {
    func shell(_ configure: (inout RowActions) -> Void) throws -> (ShopFixture, AppShell) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"; books.dataPath = "books"; books.cellPath = "name"; books.cellDetailPath = "formatMarked"
        configure(&books.actions)
        try shell.declare(books)
        try shell.start(home: ["books"])
        return (f, shell)
    }

    func rows(_ shell: AppShell) throws -> [RowSnapshot] { try shell.snapshot().screen.sections.flatMap(\.rows) }

    @Test func quickActionsAndAccessoriesShowPerRowAndRun() throws {
        let (f, shell) = try shell { a in
            a.quickName = "#Mark"; a.quickEnabled = "!marked"; a.quickTap = .binding("setAsMarked()")
            a.accyText = "#Mark"; a.accyShow = "!marked"; a.accyTap = .binding("setAsMarked()")
        }
        var r = try rows(shell)
        #expect(r[0].quick == QuickSnapshot(title: "Mark", enabled: true))
        #expect(r[0].accessory == AccessorySnapshot(kind: "button", text: "Mark", enabled: true))
        try shell.quick(row: "Dune")
        #expect(f.book(0)["marked"]!.truthy)
        r = try rows(shell)
        #expect(r[0].quick?.enabled == false && r[0].accessory == nil && r[0].detail == "marked", "the row follows the model")
        #expect(throws: ShellError.self) { try shell.quick(row: "Dune") }
        try shell.accessory(row: "Emma")
        #expect(f.book(1)["marked"]!.truthy)
    }

    @Test func moreActionsMakeASheetOfTheEnabledActions() throws {
        var ran: [String] = []
        let (f, shell) = try shell { a in
            a.more = "#true"
            a.moreActions = "%Activate,%Set as Marked,%Rename"
            a.moreActionsEnabled = ",!marked,#false"
            a.moreActionsTap = [.function { e, _ in ran.append("activate \(e?["name"]?.description ?? "")") }, .binding("setAsMarked()"), .binding("")]
        }
        #expect(try rows(shell)[0].more)
        let rowText = try rows(shell)[0].text
        try shell.more(row: "1")
        #expect(try shell.snapshot().alert == AlertSnapshot(kind: "sheet", title: rowText, message: "Select an action",
                                                           actions: ["Activate", "Set as Marked", "Cancel"]),
                "OKit's sheet: the cell text as title, \"Select an action\"")
        try shell.respond("Set as Marked")
        #expect(f.book(0)["marked"]!.truthy)
        try shell.more(row: "1")
        #expect(try shell.snapshot().alert?.actions == ["Activate", "Cancel"], "a disabled action is absent")
        try shell.respond("Activate")
        #expect(ran == ["activate Dune"])
    }

    @Test func aTapActionRunsInsteadOfTheSegue() throws {
        let (f, shell) = try shell { a in a.tap = .binding("setAsMarked()") }
        try shell.tap(row: "Emma")
        let depth = try shell.snapshot().app.depth
        #expect(f.book(1)["marked"]!.truthy && depth == 1)
    }
}
