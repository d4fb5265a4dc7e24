import Testing
@testable import OKitEngine

/// List screen commands beyond the basics: edit mode, selectPath, tapEdit, navEnabled, reorder, scopes, buttons,
/// title/prompt/subtitle swap, deleteEnabled, addNav, hooks, row addressing.
@Suite struct ListCommandTests {
    func shell(_ configure: (inout ListDeclaration) -> Void = { _ in }) throws -> (ShopFixture, AppShell, Driver) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])
        let shell = AppShell(engine: f.engine)
        var books = ListDeclaration(id: "books")
        books.type = "Book"
        books.dataPath = "books"; books.cellPath = "name"; books.titlePath = "%Books"; books.segue = "book"
        configure(&books)
        var book = DetailDeclaration(id: "book")
        book.titlePath = "name"
        try shell.declare(books)
        try shell.declare(book)
        try shell.start(home: ["books"])
        return (f, shell, Driver(shell: shell, host: nil))
    }

    func texts(_ s: AppShell) throws -> [String] {
        try s.snapshot().screen.sections.flatMap(\.rows).compactMap(\.text)
    }

    @Test func editModeNeedsTheEditButtonAndShowsDone() throws {
        let (_, shell, _) = try shell { $0.edit = "#false" }
        #expect(throws: ShellError.self) { try shell.edit(true) }
        let (_, s2, _) = try self.shell { $0.add = "#false" }   // edit is shown by default, as in OKit
        #expect(try s2.snapshot().screen.buttons.map(\.title) == ["Edit"])
        try s2.edit(true)
        let snap = try s2.snapshot()
        #expect(snap.screen.editing && snap.screen.buttons.map(\.title) == ["Done"])
        try s2.button("Done")
        #expect(try !s2.snapshot().screen.editing)
    }

    @Test func editAlwaysKeepsEditModeOn() throws {
        let (_, shell, _) = try shell { $0.editAlways = "#true" }
        #expect(try shell.snapshot().screen.editing)
        #expect(throws: ShellError.self) { try shell.edit(false) }
        #expect(try shell.snapshot().screen.buttons.map(\.id) == ["add"], "no Edit button while editAlways")
    }

    @Test func selectPathTogglesTheFieldInEditModeOnly() throws {
        let (f, shell, _) = try shell { $0.edit = "#true"; $0.selectPath = "marked" }
        #expect(throws: ShellError.self) { try shell.select(row: 1) }
        try shell.edit(true)
        try shell.select(row: "Emma")
        #expect(f.book(1)["marked"]?.truthy == true)
        #expect(try shell.snapshot().screen.sections[0].rows.map(\.selected) == [false, true, false])
        try shell.select(row: "Emma")
        #expect(f.book(1)["marked"]?.truthy == false)
        // In edit mode a tap selects too (no tapEdit declared).
        try shell.tap(row: 1)
        #expect(f.book(0)["marked"]?.truthy == true)
    }

    @Test func tapEditRunsInEditModeAndTheSegueIsBlockedWhileEditing() throws {
        let (f, shell, _) = try shell { $0.edit = "#true"; $0.actions.tapEdit = .binding("setAsMarked") }
        try shell.edit(true)
        try shell.tap(row: 2)
        #expect(f.book(1)["marked"]?.truthy == true)
        #expect(try shell.snapshot().app.depth == 1)
        let (_, s2, _) = try self.shell { $0.edit = "#true" }
        try s2.edit(true)
        #expect(throws: ShellError.self) { try s2.tap(row: 1) }
    }

    @Test func navEnabledFalseBlocksTheSegue() throws {
        let (_, shell, _) = try shell { $0.navEnabled = "=name == 'Dune'" }
        #expect(throws: ShellError.self) { try shell.tap(row: "Emma") }
        try shell.tap(row: "Dune")
        #expect(try shell.snapshot().screen.id == "book")
    }

    @Test func reorderMovesRowsInEditModeAndWritesTheOrder() throws {
        let (f, shell, driver) = try shell { $0.edit = "#true"; $0.reorder = "#true" }
        #expect(throws: ShellError.self) { try shell.move(from: 1, to: 3) }
        try shell.edit(true)
        try driver.run("move", ["from": .int(1), "to": .int(3)])
        #expect(try texts(shell) == ["Emma", "Anna", "Dune"])
        #expect(try f.engine.collection(f.shop.root, "books").items.compactMap { $0.entity?["name"]?.displayString } == ["Emma", "Anna", "Dune"])
        // With a rowSort, OKit allows the move: the collection takes the new order, the sort puts the rows back.
        let (sf, sorted, _) = try self.shell { $0.edit = "#true"; $0.reorder = "#true"; $0.rowSort = "name" }
        try sorted.edit(true)
        let before = try texts(sorted)
        try sorted.move(from: 1, to: 3)
        #expect(try texts(sorted) == before, "the sort puts the rows back")
        let stored = try sf.engine.collection(sf.shop.root, "books").items.compactMap { $0.entity?["name"]?.displayString }
        #expect(stored == ["Dune", "Anna", "Emma"], "Anna took Emma's place in the collection (OKit: the destination row's index)")
        let (_, grouped, _) = try self.shell { $0.reorder = "#true"; $0.group = "name/initial" }
        try grouped.edit(true)
        #expect(throws: ShellError.self) { try grouped.move(from: 1, to: 2) }
    }

    @Test func searchScopesFilterByTheScopeText() throws {
        let (f, shell, driver) = try shell {
            $0.search = "#true"; $0.searchFilters = "#Fiction,#Classic"; $0.searchFilterPath = "type"
        }
        try f.engine.set(f.book(1), "type", .string("Classic"))
        try f.engine.set(f.book(2), "type", .string("Fiction"))
        var snap = try shell.snapshot()
        #expect(snap.screen.search?.scopes == ["All", "Fiction", "Classic"] && snap.screen.search?.scope == "All")
        try driver.run("search", ["text": .string(""), "scope": .string("Classic")])
        #expect(try texts(shell) == ["Emma"])
        try shell.search("", scope: "2")
        snap = try shell.snapshot()
        #expect(snap.screen.search?.scope == "Fiction")
        let last = try texts(shell)
        #expect(last == ["Anna"], "\(last)")
        #expect(throws: ShellError.self) { try shell.search("", scope: "Poetry") }
        try shell.search("", scope: "All")
        #expect(try texts(shell).count == 3)
    }

    /// Scope texts are kept beside the rows, by slot (issue 38): a row added or changed while a scope is chosen
    /// gets its own text, and a freed slot's text does not stay with the row that reuses it.
    @Test func aScopeFollowsRowsAddedChangedAndRemoved() throws {
        let (f, shell, _) = try shell {
            $0.search = "#true"; $0.searchFilters = "#Fiction,#Classic"; $0.searchFilterPath = "type"
        }
        let (emma, anna) = (f.book(1), f.book(2))
        try f.engine.set(emma, "type", .string("Classic"))
        try shell.search("", scope: "Classic")
        #expect(try texts(shell) == ["Emma"])
        let books = try f.engine.collection(f.shop.root, "books")
        let cleo = try f.engine.make("Book", ["name": .string("Cleo"), "type": .string("Classic")])
        try f.engine.insert(.entity(cleo), into: books)
        try f.engine.set(anna, "type", .string("Classic"))
        let shown = try texts(shell)
        #expect(shown.sorted() == ["Anna", "Cleo", "Emma"], "\(shown)")
        try f.engine.set(emma, "type", .string("Fiction"))
        _ = try f.engine.remove(.entity(cleo), from: books)
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Bess")])), into: books)
        let last = try texts(shell)
        #expect(last == ["Anna"], "\(last)")
    }

    @Test func subtitleSwapPromptAndTitleTap() throws {
        let (f, shell, _) = try shell {
            $0.subTitlePath = "name"; $0.subTitleSwap = "#true"; $0.promptPath = "%Pick one"; $0.titleTap = .binding("books[0]/setAsMarked")
        }
        let snap = try shell.snapshot()
        #expect(snap.screen.title == "Book Shop" && snap.screen.subtitle == "Books" && snap.screen.prompt == "Pick one")
        try shell.titleTap()
        #expect(f.book(0)["marked"]?.truthy == true)
    }

    @Test func deleteEnabledPerRow() throws {
        let (_, shell, _) = try shell { $0.delete = "#true"; $0.deletePrompt = "#false"; $0.deleteEnabled = "=name != 'Dune'" }
        #expect(try shell.snapshot().screen.sections[0].rows.map(\.delete) == [false, true, true])
        #expect(throws: ShellError.self) { try shell.delete(row: "Dune") }
        try shell.delete(row: "Emma")
        #expect(try texts(shell) == ["Dune", "Anna"])
    }

    @Test func addNavOpensTheNewEntityInEditMode() throws {
        let (_, shell, _) = try shell { $0.add = "#true"; $0.addNav = "#true"; $0.addName = "name" }
        try shell.add(text: "Ulysses")
        let snap = try shell.snapshot()
        #expect(snap.screen.id == "book" && snap.screen.title == "Ulysses" && snap.screen.editing)
    }

    @Test func hooksRunOnAppearAddDeleteAndEdit() throws {
        var log: [String] = []
        let (_, shell, _) = try shell {
            $0.add = "#true"; $0.delete = "#true"; $0.deletePrompt = "#false"; $0.edit = "#true"
            $0.hooks.onAppear = .function { _, _ in log.append("appear") }
            $0.hooks.onAdd = .function { e, _ in log.append("add \(e?.type.name ?? "-")") }
            $0.hooks.onDelete = .function { e, _ in log.append("delete \(e?["name"]?.displayString ?? "-")") }
            $0.hooks.onEdit = .function { _, _ in log.append("edit") }
        }
        try shell.add()
        try shell.delete(row: "Emma")
        try shell.edit(true)
        #expect(throws: ShellError.self) { try shell.tap(row: "Dune") }   // not while editing
        #expect(log == ["appear", "add Book", "delete Emma", "edit"])
    }

    @Test func barButtonsRunTheirActionsAndRespectEnabled() throws {
        let (f, shell, _) = try shell {
            $0.buttons = [BarButton(title: "%Mark", tap: .binding("books[0]/setAsMarked")),
                          BarButton(title: "%Never", enabled: "#false"),
                          BarButton(title: "%Open", segue: "book")]
            $0.help = "Books you sell."
        }
        #expect(try shell.snapshot().screen.buttons.map(\.id) == ["edit", "add", "Mark", "Never", "Open", "help"])
        try shell.button("Mark")
        #expect(f.book(0)["marked"]?.truthy == true)
        #expect(throws: ShellError.self) { try shell.button("Never") }
        #expect(throws: ShellError.self) { try shell.button("Nope") }
        try shell.button("help")
        #expect(try shell.snapshot().screen.help == "Books you sell.")
        try shell.button("Open")
        #expect(try shell.snapshot().screen.id == "book")
        #expect(try shell.snapshot().screen.help == nil)
    }

    @Test func rowsAreAddressedByPositionPairIdAndText() throws {
        let (f, shell, driver) = try shell { $0.group = "name.initial"; $0.rowSort = "name" }
        try driver.run("tap", ["row": .list([.int(2), .int(1)])])     // section D, row 1
        #expect(try shell.snapshot().screen.title == "Dune")
        try shell.back()
        try driver.run("tap", ["row": .string(f.book(1).id ?? "")])
        #expect(try shell.snapshot().screen.title == "Emma")
        try shell.back()
        do { try shell.tap(row: "Dun"); Issue.record("no error") } catch {
            #expect("\(error)" == "no row \"Dun\" (did you mean \"Dune\"?)")
        }
        #expect(throws: ShellError.self) { try shell.tap(row: 9) }
        #expect(throws: ShellError.self) { try shell.tap(row: .pair(section: 1, row: 2)) }
        // As a person types it: case and accents aside, when one row matches so.
        try f.engine.set(f.book(0), "name", .string("Dûne"))
        try shell.tap(row: "DUNE")
        #expect(try shell.snapshot().screen.title == "Dûne")
        try shell.back()
        try f.engine.set(f.book(2), "name", .string("Emma"))
        do { try shell.tap(row: "emma"); Issue.record("no error") } catch {
            #expect("\(error)".hasPrefix("\"emma\" matches rows 2, 3"))
        }
        do { try shell.tap(row: "Emma"); Issue.record("no error") } catch {
            #expect("\(error)".hasPrefix("\"Emma\" matches rows 2, 3"))
        }
    }
}

@Suite struct ShellErrorWordingTests {
    @Test func aRowPastTheEndCountsTheRowsInGoodEnglish() {
        #expect("\(ShellError.noRow("99", count: 1))" == "no row 99 (the list has 1 row)")
        #expect("\(ShellError.noRow("99", count: 3))" == "no row 99 (the list has 3 rows)")
        #expect("\(ShellError.noRowMatching("Zed", candidates: [], count: 1))"
                == "no row \"Zed\" (the list has 1 row; address rows by position, id or text)")
        #expect("\(ShellError.noCellAt("99", count: 1))" == "no cell 99 (the screen has 1 cell)")
        #expect("\(DetailError.takesNoValue("Cover", "image"))" == "cell \"Cover\" (image) takes no value")
        #expect("\(DetailError.takesNoValue("Read", "progress"))" == "cell \"Read\" (progress) takes no value")
    }

    /// A detail screen shows cells: a position past them says so (it said `no row 99 (the list has 6 rows)`).
    @Test func aCellPastTheEndOfADetailScreenCountsItsCells() throws {
        let (_, s) = try DetailCellBehaviourTests().screen([
            CellDeclaration(kind: "text", properties: ["path": "%Name", "textPath": "name"]),
            CellDeclaration(kind: "text", properties: ["path": "%Copies", "textPath": "copies"]),
        ])
        do { try s.tap(.position(99)); Issue.record("no error") } catch {
            #expect("\(error)" == "no cell 99 (the screen has 2 cells)")
        }
        do { try s.tap(.pair(section: 1, row: 5)); Issue.record("no error") } catch {
            #expect("\(error)" == "no cell {1, 5} (the screen has 2 cells)")
        }
    }
}
