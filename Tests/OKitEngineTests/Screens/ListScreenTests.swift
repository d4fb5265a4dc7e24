import Foundation
import Testing
@testable import OKitEngine

@Suite struct ListScreenTests {
    func shop(_ names: [String]) throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: names)
        return f
    }

    func decl(_ configure: (inout ListDeclaration) -> Void = { _ in }) -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        configure(&d)
        return d
    }

    func texts(_ s: ScreenSnapshot) -> [String] { s.sections.flatMap { $0.rows.compactMap(\.text) } }

    @Test func rowsSortByTypeCaseAndDiacriticsFoldedWithAStableTieBreak() throws {
        let f = try shop(["banana", "Apple", "élan", "apple", "Cherry", "ebony"])
        let screen = try ListScreen(engine: f.engine, declaration: decl(), context: f.root)
        #expect(texts(try screen.snapshot()) == ["Apple", "apple", "banana", "Cherry", "ebony", "élan"])
        let desc = try ListScreen(engine: f.engine, declaration: decl { $0.rowSortAsc = "#false" }, context: f.root)
        #expect(texts(try desc.snapshot()) == ["élan", "ebony", "Cherry", "banana", "Apple", "apple"])
    }

    @Test func numbersSortNumericallyAndNilLast() throws {
        let f = try shop(["a", "b", "c", "d"])
        for (i, copies) in [10, 9, 100].enumerated() { try f.engine.set(f.book(i), "copies", .int(copies)) }
        let byCopies = try ListScreen(engine: f.engine, declaration: decl { $0.rowSort = "copies" }, context: f.root)
        #expect(texts(try byCopies.snapshot()) == ["d", "b", "a", "c"], "4 < 9 < 10 < 100, not as text")
        let byComment = try ListScreen(engine: f.engine, declaration: decl { $0.rowSort = "comment" }, context: f.root)
        try f.engine.set(f.book(2), "comment", .string("x"))
        #expect(texts(try byComment.snapshot()).first == "c", "nil sorts last")
        let descending = try ListScreen(engine: f.engine, declaration: decl { $0.rowSort = "comment"; $0.rowSortAsc = "#false" }, context: f.root)
        #expect(texts(try descending.snapshot()).first == "c", "nil sorts last in both directions")
    }

    @Test func groupsMakeSectionsOrderedByKey() throws {
        let f = try shop(["Dune", "Anna", "Emma", "Alpha", "dawn"])
        f.engine.extensions.register("string", "initial") { v, _, _ in .string(String((v.displayString ?? "").prefix(1)).uppercased()) }
        let screen = try ListScreen(engine: f.engine, declaration: decl { $0.group = "name/initial"; $0.index = "#true" }, context: f.root)
        let snap = try screen.snapshot()
        #expect(snap.sections.map(\.header) == ["A", "D", "E"])
        #expect(snap.sections.map { $0.rows.compactMap(\.text) } == [["Alpha", "Anna"], ["dawn", "Dune"], ["Emma"]])
        #expect(snap.index.count == 27 && snap.index.first == "A" && snap.index.last == "#", "OKit's whole index")
        let desc = try ListScreen(engine: f.engine, declaration: decl { $0.group = "name/initial"; $0.groupSortAsc = "#false" }, context: f.root)
        #expect(try desc.snapshot().sections.map(\.header) == ["E", "D", "A"])
    }

    @Test func searchUsesOKitsNormalization() throws {
        let f = try shop(["Crème Brûlée", "Dune", "Bookkeeper", "Dune Messiah", "R2-D2"])
        let screen = try ListScreen(engine: f.engine, declaration: decl { $0.search = "#true" }, context: f.root)
        screen.search("creme")
        #expect(texts(try screen.snapshot()) == ["Crème Brûlée"])
        screen.search("BOKEPER")
        #expect(texts(try screen.snapshot()) == ["Bookkeeper"], "repeated characters collapse")
        screen.search("r2d2")
        #expect(texts(try screen.snapshot()) == ["R2-D2"], "non-alphanumerics are ignored")
        screen.search("dune m")
        #expect(texts(try screen.snapshot()) == ["Dune Messiah"])
        screen.search("dune me")
        #expect(texts(try screen.snapshot()) == ["Dune Messiah"], "typing on narrows")
        screen.search("   ")
        #expect(try screen.snapshot().rowCount == 5, "a blank text filters nothing")
        #expect(try screen.snapshot().search == SearchSnapshot(visible: true, text: "   "))
        screen.search("  - ")
        #expect(texts(try screen.snapshot()) == ["R2-D2"], "a text of signs alone is matched as typed")
        #expect(SearchText.normalize("Aaa-Bbb c") == "abc")
    }

    @Test func lettersWithoutADiacriticAreFoundAsTheyAreTyped() throws {
        let f = try shop(["Bœuf bourguignon", "Œufs mimosa", "Straße", "Łódź", "Æbleskiver", "Crêpes"])
        let screen = try ListScreen(engine: f.engine, declaration: decl(), context: f.root)
        for (typed, found) in [("boeuf", ["Bœuf bourguignon"]), ("oeuf", ["Bœuf bourguignon", "Œufs mimosa"]),
                               ("strasse", ["Straße"]), ("lodz", ["Łódź"]), ("aeble", ["Æbleskiver"]),
                               ("crepe", ["Crêpes"]), ("bœuf", ["Bœuf bourguignon"])] {
            screen.search(typed)
            #expect(Set(texts(try screen.snapshot())) == Set(found), "\(typed)")
        }
    }

    @Test func largeListsAreWindowed() throws {
        let f = try shop((0..<30).map { String(format: "Book %02d", $0) })
        let screen = try ListScreen(engine: f.engine, declaration: decl(), context: f.root)
        let snap = try screen.snapshot(offset: 10, limit: 5)
        #expect(snap.rowCount == 30)
        #expect(texts(snap) == ["Book 10", "Book 11", "Book 12", "Book 13", "Book 14"])
        #expect(try screen.snapshot(offset: 28, limit: 5).sections.first?.rows.count == 2)
    }

    @Test func titlesCountsAndObjects() throws {
        let f = try shop(["Dune", "Emma"])
        var d = decl { $0.titlePath = "%Book Shop"; $0.titleCount = "books.@count"; $0.subTitleObject = "%Book" }
        #expect(try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot().subtitle == "2 Books")
        d.subTitleObject = ""
        let snap = try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot()
        #expect(snap.title == "Book Shop (2)" && snap.subtitle == nil)
        d.subTitlePath = "name"
        #expect(try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot().subtitle == "Book Shop")
        // A count that is no number counts 0, as OKit's `getInt(titleCount) ?? 0` (it counted the list's rows).
        for notANumber in ["#abc", "books[0]/name"] {
            d.subTitlePath = ""; d.titleCount = notANumber
            #expect(try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot().title == "Book Shop (0)", "\(notANumber)")
        }
        // OKit swaps without a subtitle too, and computes nothing without a titlePath (§5.1 "Title").
        let swapped = try ListScreen(engine: f.engine, declaration: decl { $0.titlePath = "%Book Shop"; $0.subTitleSwap = "#true" },
                                     context: f.root).snapshot()
        #expect(swapped.title == nil && swapped.subtitle == "Book Shop")
        let noTitle = try ListScreen(engine: f.engine, declaration: decl { $0.subTitlePath = "%Books" }, context: f.root).snapshot()
        #expect(noTitle.title == nil && noTitle.subtitle == nil)
    }

    @Test func keysAreRecomputedOnlyWhenWhatTheyReadChanged() throws {
        let f = try shop(["Dune", "Emma"])
        let screen = try ListScreen(engine: f.engine, declaration: decl { $0.cellDetailPath = "price" }, context: f.root)
        _ = try screen.snapshot()
        #expect(screen.rebuilds == 1)
        try f.engine.set(f.book(0), "price", .double(1))
        let snap = try screen.snapshot()
        #expect(screen.rebuilds == 1, "the price is shown, not sorted on")
        #expect(snap.sections[0].rows[0].detail == "1")
        try f.engine.set(f.book(0), "name", .string("Zorro"))
        #expect(texts(try screen.snapshot()) == ["Emma", "Zorro"])
        #expect(screen.rebuilds == 2)
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Anna")])), into: f.engine.collection(f.root, "books"))
        #expect(texts(try screen.snapshot()) == ["Anna", "Emma", "Zorro"])
        #expect(screen.rebuilds == 3)
    }
}

@Suite struct SnapshotJSONTests {
    @Test func snapshotsEncodeInTheSpecsShapeAndOrder() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune"])
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"; d.cellPath = "name"; d.cellDetailPath = "formatMarked"; d.titlePath = "%Book Shop"
        d.titleCount = "books.@count"; d.subTitleObject = "%Book"; d.search = "#true"
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root).snapshot()
        var app = AppSnapshot()
        app.tab = "books"; app.tabs = ["books"]; app.tabTitles = ["Book Shop"]
        app.themeValues = [("tintColor", "#007AFF")]
        let snap = Snapshot(app: app, screen: screen, alert: AlertSnapshot(kind: "prompt", title: "New Book", message: "Enter \"name\"",
                                                                           actions: ["OK", "Cancel"],
                                                                           fields: [AlertFieldSnapshot(placeholder: "Name", value: "secret", secure: true)]))
        let id = try #require(f.book(0).id)
        let expected = ##"{"app":{"tab":"books","tabs":["books"],"tabTitles":["Book Shop"],"menuOpen":false,"covered":false,"cover":null,"theme":"default","themeValues":{"tintColor":"#007AFF"},"depth":1,"presented":false},"##
            + #""screen":{"id":"books","kind":"list","context":"\#(f.root.debugName)","title":"Book Shop","subtitle":"1 Book","prompt":null,"editing":false,"buttons":[{"id":"edit","title":"Edit","enabled":true},{"id":"add","title":"+","enabled":true}],"search":{"visible":true,"text":"","scopes":[],"scope":"All"},"index":[],"sections":[{"header":null,"footer":null,"rows":[{"id":"\#(id)","text":"Dune","detail":"not marked","image":null,"ribbon":null,"accessory":null,"quick":null,"more":false,"delete":true,"checked":null,"selected":false,"control":null}]}],"help":null,"rowCount":1},"#
            + #""alert":{"kind":"prompt","title":"New Book","message":"Enter \"name\"","actions":["OK","Cancel"],"fields":[{"placeholder":"Name","value":null,"secure":true}]}}"#
        #expect(snap.json == expected)
        let data = try #require(snap.json.data(using: .utf8))
        #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "valid JSON")
    }
}
