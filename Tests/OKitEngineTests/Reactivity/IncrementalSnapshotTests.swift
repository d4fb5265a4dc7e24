import Testing
@testable import OKitEngine

/// Snapshots recompute only what a write affected (screens.md: "Snapshots recompute only what changed").
@Suite struct IncrementalSnapshotTests {
    func screen() throws -> (ShopFixture, ListScreen) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna", "Zorro"])
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"; d.cellPath = "name"; d.cellDetailPath = "formatMarked"; d.titlePath = "name"
        d.titleCount = "books.@count"; d.subTitleObject = "%Book"
        return (f, try ListScreen(engine: f.engine, declaration: d, context: f.shop.root))
    }

    @Test func aWriteToOneBookRecomputesThatRowOnly() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        #expect(screen.rowComputations == 4 && screen.headerComputations == 1)
        _ = try screen.snapshot()
        #expect(screen.rowComputations == 4 && screen.headerComputations == 1, "nothing changed: nothing recomputed")
        try f.engine.set(f.book(1), "marked", .bool(true))
        let snap = try screen.snapshot()
        #expect(screen.rowComputations == 5 && screen.headerComputations == 1)
        #expect(snap.sections[0].rows[1].detail == "marked")
    }

    @Test func aTitleChangeRecomputesTheHeaderOnly() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        try f.engine.set(f.shop.root, "name", .string("Books & More"))
        let snap = try screen.snapshot()
        #expect(snap.title == "Books & More" && screen.headerComputations == 2 && screen.rowComputations == 4)
    }

    @Test func anInsertComputesTheNewRowAndTheCount() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Ulysses")])), into: f.engine.collection(f.shop.root, "books"), append: true)
        let snap = try screen.snapshot()
        #expect(snap.subtitle == "5 Books" && screen.rowComputations == 5 && screen.headerComputations == 2)
    }

    @Test func rowsOutsideTheWindowAreNotComputedAndStopListening() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot(offset: 0, limit: 2)
        #expect(screen.rowComputations == 2)
        _ = try screen.snapshot(offset: 2, limit: 2)
        #expect(screen.rowComputations == 4)
        // Rows 0 and 1 left the window: a write to them computes nothing until they are shown again.
        try f.engine.set(f.book(0), "marked", .bool(true))
        _ = try screen.snapshot(offset: 2, limit: 2)
        #expect(screen.rowComputations == 4)
        let snap = try screen.snapshot(offset: 0, limit: 1)
        #expect(snap.sections[0].rows[0].detail == "marked" && screen.rowComputations == 5)
    }
}

/// Detail screens keep their title bar, sections and cells until a write touches what they read.
@Suite struct IncrementalDetailSnapshotTests {
    func screen() throws -> (ShopFixture, DetailScreen) {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.titlePath = "name"
        d.sections = [
            SectionDeclaration(header: "%General", cells: [
                CellDeclaration(kind: "text", properties: ["path": "name", "textPath": "name"]),
                CellDeclaration(kind: "switch", properties: ["path": "formatMarked", "onPath": "marked"]),
                CellDeclaration(kind: "table", properties: ["path": "%Comment", "detailPath": "comment", "showDisplay": "comment"]),
            ]),
            SectionDeclaration(header: "%Stock", showDisplay: "marked", cells: [
                CellDeclaration(kind: "stepper", properties: ["path": "%Copies", "valuePath": "copies", "showDisplay": "marked"]),
            ]),
        ]
        return (f, try DetailScreen(engine: f.engine, declaration: d, context: f.book(0)))
    }

    @Test func aWriteRecomputesOnlyTheCellsThatReadIt() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        #expect(screen.headerComputations == 1 && screen.sectionComputations == 2 && screen.cellComputations == 4,
                "the hidden cell is computed once, to know it is hidden")
        _ = try screen.snapshot()
        #expect(screen.cellComputations == 4 && screen.headerComputations == 1, "nothing changed: nothing recomputed")
        try f.engine.set(f.book(0), "comment", .string("classic"))
        let snap = try screen.snapshot()
        #expect(screen.cellComputations == 5 && screen.headerComputations == 1 && screen.sectionComputations == 2)
        #expect(snap.sections[0].rows.count == 3 && snap.sections[0].rows[2].detail == "classic")
        try f.engine.set(f.book(1), "marked", .bool(true))
        _ = try screen.snapshot()
        #expect(screen.cellComputations == 5 && screen.sectionComputations == 2, "another book's write touches nothing")
    }

    @Test func aWriteThatShowsASectionComputesItsCells() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        try f.engine.set(f.book(0), "marked", .bool(true))
        let snap = try screen.snapshot()
        // The switch cell, the second section (its header) and the stepper cell read `marked`.
        #expect(screen.sectionComputations == 3 && screen.cellComputations == 6 && screen.headerComputations == 1)
        #expect(snap.sections.count == 2 && snap.sections[1].header == "Stock" && snap.sections[1].rows[0].control?.value == .int(1))
    }

    @Test func aTitleChangeRecomputesTheTitleBarAndTheCellsThatShowTheName() throws {
        let (f, screen) = try screen()
        _ = try screen.snapshot()
        try f.engine.set(f.book(0), "name", .string("Dune Messiah"))
        let snap = try screen.snapshot()
        #expect(snap.title == "Dune Messiah" && screen.headerComputations == 2 && screen.cellComputations == 5)
    }

    @Test func editModeComputesEverythingOnceAgain() throws {
        let (f, screen) = try screen()
        defer { withExtendedLifetime(f) {} }
        _ = try screen.snapshot()
        try screen.setEditing(true)
        _ = try screen.snapshot()
        #expect(screen.headerComputations == 2 && screen.sectionComputations == 4 && screen.cellComputations == 8)
    }

    /// A part's subscription holds its part and screen unowned: a screen that goes cancels them all, so writes
    /// after it run nothing (and the graph keeps no edge of it); a part computed again in another state cancels the
    /// one it replaces.
    @Test func writesAfterTheScreenWentRunNothing() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.titlePath = "name"
        d.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name"])])]
        let edges = f.engine.graph.edgeCount
        do {
            let screen = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
            _ = try screen.snapshot()
            try screen.setEditing(true)
            _ = try screen.snapshot()                            // the parts of display mode are replaced
            #expect(f.engine.graph.edgeCount > edges)
        }
        #expect(f.engine.graph.edgeCount == edges, "the screen went: its parts left the graph")
        try f.engine.set(f.book(0), "name", .string("Dune Messiah"))   // nothing left to run (no crash)
        #expect(try f.engine.get(f.book(0), "name").displayString == "Dune Messiah")
    }

    /// A part that read nothing (a section without flags or bound texts) is cancelled (no edges, nobody's
    /// dependency): it is computed again only when the screen's state changes.
    @Test func aPartThatReadNothingKeepsNoSubscription() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        var d = DetailDeclaration(id: "book")
        d.sections = [SectionDeclaration(cells: [CellDeclaration(kind: "table", properties: ["path": "name"])])]
        let screen = try DetailScreen(engine: f.engine, declaration: d, context: f.book(0))
        _ = try screen.snapshot()
        let part = try #require(screen.sectionCache[0])
        #expect(part.constant && part.cancelled && part.readsNothing)
        let cell = try #require(screen.cellCache[0])
        #expect(!cell.constant && !cell.cancelled && !cell.readsNothing)
        try f.engine.set(f.book(0), "name", .string("Dune Messiah"))
        let snap = try screen.snapshot()
        #expect(snap.sections[0].rows[0].text == "Dune Messiah" && screen.sectionComputations == 1)
        try screen.setEditing(true)
        _ = try screen.snapshot()
        #expect(screen.sectionComputations == 2, "another state: computed again")
    }

    /// A part's state is kept in one byte: states 0-254 as they are, any larger one never matches.
    @Test func aPartIsInTheStateItWasComputedInOnly() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        let screen = try DetailScreen(engine: f.engine, declaration: DetailDeclaration(id: "book"), context: f.book(0))
        func part(_ state: Int) -> CachedDetailPart<Int> {
            CachedDetailPart(0, state: state, screen: screen, position: DetailScreen.CellPosition(section: 0, cell: 0),
                             count: { _ in }, compute: { _, _ in 1 })
        }
        let three = part(3)
        #expect(three.isIn(3) && !three.isIn(1) && !three.isIn(259))
        let large = part(300)
        #expect(!large.isIn(300) && !large.isIn(44) && !large.isIn(255))
    }
}
