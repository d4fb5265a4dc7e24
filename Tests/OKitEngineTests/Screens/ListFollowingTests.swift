import Foundation
import Testing
@testable import OKitEngine

/// A list open over a collection follows adds, deletes and renames row by row (issue 16: adding N rows cost
/// N full passes) and always shows what a list opened afresh shows.
@Suite struct ListFollowingTests {
    func shop(_ names: [String]) throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: names)
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(String((v.displayString ?? "").prefix(1)).uppercased()) }
        return f
    }

    func decl(_ configure: (inout ListDeclaration) -> Void = { _ in }) -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = "name/initial"
        d.index = "#true"
        configure(&d)
        return d
    }

    /// Sections and rows (by entity identity) as a person sees them.
    func shape(_ s: ScreenSnapshot) -> [String] {
        s.sections.flatMap { sec in ["[\(sec.header ?? "-")]"] + sec.rows.map { "\($0.text ?? "nil")#\($0.id ?? "")" } }
    }

    func fresh(_ f: ShopFixture, _ d: ListDeclaration) throws -> ScreenSnapshot {
        try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot(offset: 0, limit: 10_000)
    }

    func books(_ f: ShopFixture) throws -> EntityCollection { try f.engine.collection(f.root, "books") }

    @Test func addsDeletesAndRenamesMoveOneRowWithoutAFullPass() throws {
        let f = try shop(["Dune", "Emma", "Anna", "Dune"])
        let d = decl()
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        #expect(screen.fullPasses == 1)
        // Added at the front (OKit's default): among equal names it comes first, as the data's order says.
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Dune")])), into: books(f))
        #expect(shape(try screen.snapshot(offset: 0, limit: 100)) == shape(try fresh(f, d)))
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Cleo")])), into: books(f), append: true)
        #expect(shape(try screen.snapshot(offset: 0, limit: 100)) == shape(try fresh(f, d)))
        try f.engine.set(f.book(1), "name", .string("Zorro"))
        #expect(shape(try screen.snapshot(offset: 0, limit: 100)) == shape(try fresh(f, d)))
        try f.engine.remove(at: 2, from: books(f))
        #expect(shape(try screen.snapshot(offset: 0, limit: 100)) == shape(try fresh(f, d)))
        #expect(try screen.indexLettersPresent() == ["A", "C", "D", "Z"])
        #expect(screen.fullPasses == 1, "every change was followed row by row")
    }

    /// The first pass prefetches rows ahead of the one it reads (`EntityReadAhead`): over more rows than it reads
    /// ahead, with keys on the heap, ids kept as bits (`PackedId`) and ids kept as text, every row is there once,
    /// in order.
    @Test func aLongListSortedByIdOrByALongTextShowsEveryRowOnceInOrder() throws {
        let f = try shop((0..<200).map { "A rather long book title \(($0 * 7919) % 200)" })
        for i in stride(from: 0, to: 200, by: 17) { try f.engine.set(f.book(i), "id", .string("code-\(i)")) }
        let ids = (0..<200).map { f.book($0).id ?? "" }
        #expect(Set(ids).count == 200 && ids.contains { $0.count == 36 } && ids.contains { $0.hasPrefix("code-") })
        let folded = { (a: String, b: String) -> Bool in a.lowercased() != b.lowercased() ? a.lowercased() < b.lowercased() : a < b }
        for sort in ["id", "name"] {
            let snap = try fresh(f, decl { $0.rowSort = sort; $0.group = ""; $0.index = "" })
            let rows = snap.sections.flatMap(\.rows)
            #expect(rows.count == 200, "\(sort)")
            #expect(Set(rows.compactMap(\.id)) == Set(ids), "\(sort): every row once")
            let keys = sort == "id" ? rows.compactMap(\.id) : rows.compactMap(\.text)
            #expect(keys == keys.sorted(by: folded), "\(sort): in order")
        }
    }

    @Test func randomEditsAlwaysShowWhatAFreshListShows() throws {
        let names = ["alpha", "Alpha", "bravo", "Bravo", "charlie", "élan", "Echo", "delta", "", "zulu"]
        var r = SplitMix64(seed: 16)
        let f = try shop((0..<30).map { _ in names[r.below(names.count)] })
        for configure: (inout ListDeclaration) -> Void in [
            { _ in }, { $0.rowSortAsc = "#false" }, { $0.groupSortAsc = "#false" }, { $0.group = "" },
            { $0.rowSort = "price" }, { $0.search = "#true" },
        ] {
            let d = decl(configure)
            let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
            if d.search == "#true" { screen.search("a") }
            for step in 0..<120 {
                let c = try books(f)
                switch r.below(5) {
                case 0, 1:
                    let b = try f.engine.make("Book", ["name": .string(names[r.below(names.count)]), "price": .double(Double(r.below(5)))])
                    try f.engine.insert(.entity(b), into: c, at: r.below(c.count + 1))
                case 2 where c.count > 3:
                    try f.engine.remove(at: r.below(c.count), from: c)
                case 3 where c.count > 0:
                    try f.engine.set(c.items[r.below(c.count)].entity!, "name", .string(names[r.below(names.count)]))
                default:
                    // Several edits in one transaction.
                    try f.engine.transaction {
                        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string(names[r.below(names.count)])])), into: c)
                        if c.count > 3 { try f.engine.remove(at: r.below(c.count), from: c) }
                        try f.engine.set(c.items[r.below(c.count)].entity!, "name", .string(names[r.below(names.count)]))
                    }
                }
                let expected = try ListScreen(engine: f.engine, declaration: d, context: f.root)
                if d.search == "#true" { expected.search("a") }
                let want = try expected.snapshot(offset: 0, limit: 10_000)
                let got = try screen.snapshot(offset: 0, limit: 10_000)
                #expect(shape(got) == shape(want), "step \(step) of \(d.rowSort) \(d.group)")
                #expect(try screen.indexLettersPresent() == (try expected.indexLettersPresent()), "step \(step)")
                #expect(got.rowCount == want.rowCount)
            }
            #expect(screen.fullPasses < 20, "\(screen.fullPasses) full passes for 120 edits")
        }
    }

    @Test func aFailedTransactionLeavesTheRowsAsTheyWere() throws {
        let f = try shop(["Dune", "Emma"])
        let d = decl()
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        #expect(throws: (any Error).self) {
            try f.engine.transaction {
                try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Anna")])), into: books(f))
                try f.engine.set(f.book(1), "name", .string("Xena"))
                throw FixtureError.boom
            }
        }
        #expect(shape(try screen.snapshot()) == shape(try fresh(f, d)))
        #expect(try screen.snapshot().rowCount == 2)
    }

    @Test func keysReadingOtherEntitiesFallBackToAFullPass() throws {
        let f = try shop(["Dune", "Emma", "Anna"])
        let d = decl { $0.rowSort = "authors[0]/name"; $0.group = "" }
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        let author = try f.engine.collection(f.book(2), "authors").items[0].entity!
        try f.engine.set(author, "name", .string("Zed"))
        #expect(shape(try screen.snapshot()) == shape(try fresh(f, d)))
        #expect(screen.fullPasses == 2)
    }

    @Test func manyAddsInOneTransactionTakeOneFullPass() throws {
        let f = try shop(["Dune"])
        let d = decl()
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        try f.engine.transaction {
            for i in 0..<300 { try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("B\(i)")])), into: books(f)) }
        }
        #expect(try screen.snapshot().rowCount == 301)
        #expect(shape(try screen.snapshot(offset: 0, limit: 1000)) == shape(try fresh(f, d)))
        #expect(screen.fullPasses == 2)
    }

    @Test func aThousandFrontAddsBetweenTwoRowsRenumberAndStayInOrder() throws {
        // Equal names: the tie-break is the data's order, kept by positions between neighbours; when no room is
        // left between two, a full pass renumbers.
        let f = try shop(["Same", "Same"])
        let d = decl()
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        for _ in 0..<200 {
            try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Same")])), into: books(f), at: 1)
        }
        #expect(shape(try screen.snapshot(offset: 0, limit: 1000)) == shape(try fresh(f, d)))
        #expect(screen.fullPasses < 10)
    }

    @Test func searchTextsComeOnTheFirstSearchAndFollowRenames() throws {
        let f = try shop(["Dune", "Emma", "Anna"])
        let d = decl { $0.search = "#true"; $0.searchPath = "name" }
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        #expect(!screen.rows.texts.hasSearch, "no search yet: no search texts")
        try f.engine.set(f.book(0), "name", .string("Dunes of Arrakis"))
        screen.search("arrakis")
        #expect(try screen.snapshot().sections.flatMap(\.rows).map(\.text) == ["Dunes of Arrakis"])
        try f.engine.set(f.book(1), "name", .string("Arrakis Again"))
        #expect(try screen.snapshot().sections.flatMap(\.rows).map(\.text) == ["Arrakis Again", "Dunes of Arrakis"])
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Arrakis Anew")])), into: books(f))
        #expect(try screen.snapshot().rowCount == 3)
        // A longer text narrows the kept matches, read from the texts in display order made after the changes.
        screen.search("arrakis a")
        #expect(try screen.snapshot().sections.flatMap(\.rows).map(\.text) == ["Arrakis Again", "Arrakis Anew"])
        // (The insert went first: book 1 is now "Dunes of Arrakis".)
        try f.engine.set(f.book(1), "name", .string("Zed Arrakis Again"))
        let renamed = try screen.snapshot().sections.flatMap(\.rows).map(\.text)
        #expect(renamed == ["Arrakis Again", "Arrakis Anew", "Zed Arrakis Again"])
        #expect(try screen.indexLettersPresent() == ["A", "Z"], "index letters of the matches, in display order")
        #expect(screen.fullPasses == 1)
    }

    @Test func searchComparesNormalizedBytes() {
        #expect(SearchText.contains("cremebrulee", "brul"))
        #expect(SearchText.contains("abc", ""))
        #expect(!SearchText.contains("ab", "abc"))
        #expect(SearchText.contains("aab", "ab"), "a first byte that matches early but not the rest")
        #expect(!SearchText.contains("xyz", "xz"))
        #expect(SearchText.contains(SearchText.normalize("Ærø Café"), SearchText.normalize("cafe")))
        #expect(SearchText.normalize("Hello, World 42!") == "heloworld42", "case folded, punctuation dropped, repeats collapsed")
    }

    /// A delete finds the row's entity from where the rows last saw it in the data (issue 16: it scanned the
    /// collection), also after adds at the front and in the middle moved every position since the full pass.
    @Test func deletesFindTheRowsEntityAfterTheDataMovedUnderIt() throws {
        let f = try shop((0..<40).map { String(format: "B%02d", $0) })
        let shell = AppShell(engine: f.engine)
        try shell.declare(decl { $0.delete = "#true"; $0.deletePrompt = "#false"; $0.group = ""; $0.index = "" })
        try shell.start(home: ["books"])
        _ = try shell.snapshot()
        let c = try books(f)
        for i in 0..<7 { try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("A\(i)")])), into: c) }
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("B20a")])), into: c, at: 30)
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("C")])), into: c, append: true)
        var r = SplitMix64(seed: 21)
        while c.count > 0 {
            let shown = try shell.snapshot(offset: 0, limit: 100).screen.sections.flatMap(\.rows).compactMap(\.text)
            let k = r.below(shown.count)
            try shell.delete(row: .position(k + 1))
            let data = c.items.compactMap { $0.entity?["name"]?.displayString }
            var want = shown
            want.remove(at: k)
            #expect(data.sorted() == want, "deleting row \(k + 1) (\(shown[k]))")
        }
    }
}
