import Foundation
import Testing
@testable import OKitEngine

/// Section aggregates (issue 19, item 2): `groupHeader` / `groupFooter` on each section's `rows` and `key`, the
/// list's `footerPath` on the rows shown; kept per section and computed again only when its rows or what it
/// read changed, always equal to what a list opened afresh shows.
@Suite struct SectionAggregateTests {
    /// Books of types A and B: Dune (A, 1 copy), Emma (B, 2), Anna (A, 3).
    func shop(_ names: [String] = ["Dune", "Emma", "Anna"], types: [String] = ["A", "B", "A"]) throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: names)
        for (i, t) in types.enumerated() where i < names.count { try f.engine.set(f.book(i), "type", .string(t)) }
        return f
    }

    func decl(_ configure: (inout ListDeclaration) -> Void = { _ in }) -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = "type"
        d.groupHeader = "%Key:,key,rows.@count"
        d.groupFooter = "%Total:,rows.@sum.copies"
        d.footerPath = "%Shown:,rows.@count,%copies:,rows.@sum.copies"
        configure(&d)
        return d
    }

    func open(_ f: ShopFixture, _ d: ListDeclaration) throws -> ListScreen {
        try ListScreen(engine: f.engine, declaration: d, context: f.root)
    }

    /// Each section's title, lines and rows, and the footer, as a person sees them.
    func lines(_ s: ScreenSnapshot) -> [String] {
        s.sections.map { sec in
            "[\(sec.header ?? "-")|\(sec.subheader ?? "-")|\(sec.footer ?? "-")] " + sec.rows.map { $0.text ?? "nil" }.joined(separator: ",")
        } + ["footer: \(s.footer ?? "-")"]
    }

    func books(_ f: ShopFixture) throws -> EntityCollection { try f.engine.collection(f.root, "books") }

    @Test func headerAndFooterLinesPerSectionWithTheKey() throws {
        let f = try shop()
        let snap = try open(f, decl()).snapshot()
        #expect(lines(snap) == ["[A|Key: A 2|Total: 4] Anna,Dune", "[B|Key: B 1|Total: 2] Emma", "footer: Shown: 3 copies: 6"])
        // JSON: `subheader` after `header` (only when there is one); the list's `footer` after the sections.
        let json = snap.json
        #expect(json.contains(#"{"header":"A","subheader":"Key: A 2","footer":"Total: 4","rows":["#))
        #expect(json.contains(#"],"footer":"Shown: 3 copies: 6","help":null,"rowCount":3}"#))
    }

    @Test func aListWithoutThemHasNoLinesAndComputesNone() throws {
        let f = try shop()
        let screen = try open(f, decl { $0.groupHeader = ""; $0.groupFooter = ""; $0.footerPath = "" })
        let snap = try screen.snapshot()
        #expect(lines(snap) == ["[A|-|-] Anna,Dune", "[B|-|-] Emma", "footer: -"])
        #expect(!snap.json.contains("subheader") && !snap.json.contains(#"],"footer""#))
        #expect(screen.sectionComputations == 0 && screen.footerComputations == 0)
    }

    @Test func withoutGroupTheOneSectionGetsTheLinesAndANilKey() throws {
        let f = try shop()
        let snap = try open(f, decl { $0.group = ""; $0.groupHeader = "key/isNil" }).snapshot()
        #expect(lines(snap) == ["[-|true|Total: 6] Anna,Dune,Emma", "footer: Shown: 3 copies: 6"])
    }

    @Test func aggregatesOfEveryKind() throws {
        let f = try shop()
        let d = decl {
            $0.groupHeader = "rows.@min.copies,rows.@max.copies,rows.@avg.copies,rows.@first.name,rows.@last.name"
            $0.groupFooter = "rows/name"
        }
        #expect(lines(try open(f, d).snapshot()) == ["[A|1 3 2 Anna Dune|Anna, Dune] Anna,Dune", "[B|2 2 2 Emma Emma|Emma] Emma",
                                                   "footer: Shown: 3 copies: 6"])
    }

    @Test func theSectionsAndTheFooterCountTheRowsShownAfterSearchAndScope() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Dora"], types: ["A", "B", "A", "B"])
        let screen = try open(f, decl { $0.searchFilters = "#A,#B"; $0.searchFilterPath = "type"; $0.searchPath = "name" })
        #expect(try screen.snapshot().footer == "Shown: 4 copies: 10")
        screen.search("d")
        #expect(lines(try screen.snapshot()) == ["[A|Key: A 1|Total: 1] Dune", "[B|Key: B 1|Total: 4] Dora", "footer: Shown: 2 copies: 5"])
        try screen.search("", scope: "B")
        #expect(lines(try screen.snapshot()) == ["[B|Key: B 2|Total: 6] Dora,Emma", "footer: Shown: 2 copies: 6"])
        try screen.search("", scope: "All")
        #expect(try screen.snapshot().footer == "Shown: 4 copies: 10")
    }

    @Test func aWindowedSnapshotComputesItsSectionsOverAllTheirRows() throws {
        let f = try shop(["Anna", "Bert", "Carl", "Dora", "Emma"], types: ["A", "A", "A", "B", "B"])
        let screen = try open(f, decl())
        // Rows 2…4: the end of A and the start of B; both totals count every row of their section.
        let snap = try screen.snapshot(offset: 1, limit: 3)
        #expect(lines(snap) == ["[A|Key: A 3|Total: 6] Bert,Carl", "[B|Key: B 2|Total: 9] Dora", "footer: Shown: 5 copies: 15"])
    }

    @Test func aWriteToASummedFieldComputesThatSectionOnly() throws {
        let f = try shop()
        let screen = try open(f, decl())
        _ = try screen.snapshot()
        #expect(screen.sectionComputations == 2 && screen.footerComputations == 1)
        try f.engine.set(f.book(1), "copies", .int(10))   // Emma, section B
        #expect(lines(try screen.snapshot()) == ["[A|Key: A 2|Total: 4] Anna,Dune", "[B|Key: B 1|Total: 10] Emma", "footer: Shown: 3 copies: 14"])
        #expect(screen.sectionComputations == 3, "section B only")
        #expect(screen.footerComputations == 2)
        // A field nothing of them reads: nothing computed again.
        try f.engine.set(f.book(1), "price", .double(99))
        _ = try screen.snapshot()
        #expect(screen.sectionComputations == 3 && screen.footerComputations == 2)
        // A snapshot without any change computes nothing.
        _ = try screen.snapshot()
        #expect(screen.sectionComputations == 3 && screen.footerComputations == 2)
        #expect(screen.fullPasses == 1)
    }

    @Test func aWatchedSnapshotGoesStaleWhenOnlyATotalChanges() throws {
        // What a front end's live page does (ScreenWatch): the snapshot inside a subscription of its own. The rows
        // do not read `copies`; only the lines do, and their subscriptions tell the outer one.
        let f = try shop()
        let screen = try open(f, decl())
        let watch = f.engine.graph.subscribe({ _ = try screen.snapshot(); return .null })
        #expect(!watch.isStale)
        try f.engine.set(f.book(1), "copies", .int(10))
        #expect(watch.isStale)
        _ = watch.value
        #expect(!watch.isStale)
        try f.engine.set(f.book(0), "copies", .int(7))
        #expect(watch.isStale, "and again, through a kept section")
        watch.cancel()
    }

    @Test func aRowMovingBetweenSectionsComputesBothAndNoOther() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Zora"], types: ["A", "B", "A", "C"])
        let d = decl()
        let screen = try open(f, d)
        _ = try screen.snapshot()
        #expect(screen.sectionComputations == 3)
        try f.engine.set(f.book(0), "type", .string("B"))   // Dune: A → B
        let snap = try screen.snapshot()
        #expect(lines(snap) == lines(try open(f, d).snapshot()))
        #expect(lines(snap) == ["[A|Key: A 1|Total: 3] Anna", "[B|Key: B 2|Total: 3] Dune,Emma", "[C|Key: C 1|Total: 4] Zora",
                                "footer: Shown: 4 copies: 10"])
        #expect(screen.sectionComputations == 5, "A and B, not C")
        #expect(screen.fullPasses == 1, "the row moved by itself")
    }

    @Test func addsDeletesRenamesAndWritesShowWhatAFreshListShows() throws {
        let f = try shop()
        let d = decl()
        let screen = try open(f, d)
        _ = try screen.snapshot()
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Cleo"), "type": .string("B"), "copies": .int(5)])), into: books(f))
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        #expect(try screen.snapshot().sections[1].footer == "Total: 7")
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Xena"), "type": .string("X"), "copies": .int(1)])), into: books(f), append: true)
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        try f.engine.remove(at: 1, from: books(f))
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        try f.engine.set(f.book(0), "name", .string("Zed"))
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        try f.engine.set(f.book(0), "copies", .int(40))
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        // The last row of a section leaves it: the section is gone, its lines too.
        try f.engine.set(f.book(3), "type", .string("A"))
        #expect(lines(try screen.snapshot()) == lines(try open(f, d).snapshot()))
        #expect(try !screen.snapshot().sections.contains { $0.header == "X" })
    }

    @Test func randomEditsAlwaysShowWhatAFreshListShows() throws {
        var r = SplitMix64(seed: 19)
        let types = ["A", "B", "C"]
        let f = try shop((0..<20).map { "Book \($0)" }, types: (0..<20).map { _ in types[r.below(3)] })
        for configure: (inout ListDeclaration) -> Void in [
            { _ in }, { $0.groupSortAsc = "#false" }, { $0.group = "" }, { $0.searchPath = "name" },
        ] {
            let d = decl(configure)
            let screen = try open(f, d)
            if !d.searchPath.isEmpty { screen.search("1") }
            for step in 0..<80 {
                let c = try books(f)
                switch r.below(6) {
                case 0:
                    let b = try f.engine.make("Book", ["name": .string("New \(r.below(30))"), "type": .string(types[r.below(3)]),
                                                       "copies": .int(r.below(9))])
                    try f.engine.insert(.entity(b), into: c, at: r.below(c.count + 1))
                case 1 where c.count > 3:
                    try f.engine.remove(at: r.below(c.count), from: c)
                case 2 where c.count > 0:
                    try f.engine.set(c.items[r.below(c.count)].entity!, "type", .string(types[r.below(3)]))
                case 3 where c.count > 0:
                    try f.engine.set(c.items[r.below(c.count)].entity!, "name", .string("Renamed \(r.below(30))"))
                case 4 where c.count > 0:
                    try f.engine.set(c.items[r.below(c.count)].entity!, "copies", .int(r.below(50)))
                default:
                    try f.engine.transaction {
                        try f.engine.set(c.items[r.below(c.count)].entity!, "copies", .int(r.below(50)))
                        try f.engine.set(c.items[r.below(c.count)].entity!, "type", .string(types[r.below(3)]))
                    }
                }
                let expected = try open(f, d)
                if !d.searchPath.isEmpty { expected.search("1") }
                let window = r.below(3) == 0 ? (offset: r.below(10), limit: 1 + r.below(6)) : (offset: 0, limit: 10_000)
                #expect(lines(try screen.snapshot(offset: window.offset, limit: window.limit))
                            == lines(try expected.snapshot(offset: window.offset, limit: window.limit)), "step \(step)")
            }
        }
    }

    @Test func aSectionIsAnEntityOfTypeSectionWithRowsAndKey() throws {
        let f = try shop()
        let d = decl {
            $0.groupHeader = "=rows.@count > 1 ? 'many' : 'one'"
            $0.groupFooter = "=key .. ': ' .. rows.@sum.copies"
        }
        #expect(lines(try open(f, d).snapshot()).prefix(2) == ["[A|many|A: 4] Anna,Dune", "[B|one|B: 2] Emma"])
        // An extension for entities of type `section`.
        f.engine.extensions.register("section", "summary") { v, _, _ in
            .string("\(v.entity?.type.name ?? "?") of \(v.entity?["rows"]?.elements?.count ?? -1)")
        }
        let s = try open(f, decl { $0.groupHeader = "summary" }).snapshot()
        #expect(s.sections.map(\.subheader) == ["section of 2", "section of 1"])
    }

    @Test func checkFindsABadFieldInsideAnAggregate() throws {
        let f = try shop()
        let run = ScreenCheckRun(engine: f.engine, screenIds: ["books"], settingsContextPath: "")
        var d = decl()
        d.groupHeader = "rows.@sum.copies,key/isNil"
        d.groupFooter = "%Total:,rows.@sum.copis"
        d.footerPath = "rows.@sum.pirce,kye"
        d.check(run, receiving: f.root.type)
        let found = run.issues.map { "\($0.property):\($0.column): \($0.message)" }
        #expect(found == [
            "groupFooter:19: Book has no field \"copis\" (did you mean \"copies\"?)",
            "footerPath:11: Book has no field \"pirce\" (did you mean \"price\"?)",
            "footerPath:17: section has no field \"kye\" (did you mean \"key\"?)",
        ])
    }

    @Test func checkTypesTheKeyAsTheGroupsValue() throws {
        let f = try shop()
        let run = ScreenCheckRun(engine: f.engine, screenIds: ["books"], settingsContextPath: "")
        var d = decl()
        d.group = "copies"
        d.groupHeader = "key/nope"
        d.check(run, receiving: f.root.type)
        #expect(run.issues.map(\.message).first?.hasPrefix("no extension \"nope\" for number values") == true)
    }
}
