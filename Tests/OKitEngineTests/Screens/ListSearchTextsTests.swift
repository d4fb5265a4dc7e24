import Testing
@testable import OKitEngine

/// The first search computes every row's search text at once (gathered from the sort keys in place, folded
/// through pointers, copied into display order: issue 16). Whatever the texts — accents, empty, longer than the
/// fold buffer, not text at all, rows deleted before the search — a search shows exactly the rows whose
/// normalized text contains the normalized query, in the list's order.
@Suite struct ListSearchTextsTests {
    static let names = [
        "Émile Zola", "emma", "Anna Karenina", "", "Dune", "  -- ", "Ça va", "ANNA", "naïve", "Ørsted", "日本語の本",
        String(repeating: "Long ", count: 80) + "tail", String(repeating: "é", count: 300) + "x", "a", "Aa", "b-a-n-a-n-a",
    ]

    func texts(_ s: ScreenSnapshot) -> [String] { s.sections.flatMap(\.rows).compactMap(\.text) }

    /// What a search must show: the rows of the unsearched list whose normalized text contains the query.
    func expected(_ all: [String], _ query: String) -> [String] {
        let q = SearchText.normalize(query)
        return all.filter { SearchText.contains(SearchText.normalize($0), q) }
    }

    func check(searchPath: String, deleteFirst: Bool) throws {
        let f = try ShopFixture()
        try f.start(books: Self.names + Self.names.map { $0 + " 2" })
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.search = "#true"
        d.searchPath = searchPath
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot(offset: 0, limit: 1000)
        if deleteFirst {
            // Rows taken out before the first search leave free slots in the table.
            let books = try f.engine.collection(f.root, "books")
            try f.engine.remove(at: 3, from: books)
            try f.engine.remove(at: 0, from: books)
            _ = try screen.snapshot(offset: 0, limit: 1000)
        }
        let all = texts(try screen.snapshot(offset: 0, limit: 1000))
        for query in ["a", "an", "ann", "anna", "e", "emile", "é", "long", "tail", "eeex", "本", "2", "zz", "n-a", ""] {
            screen.search(query)
            #expect(texts(try screen.snapshot(offset: 0, limit: 1000)) == expected(all, query), "\(query) (searchPath \(searchPath))")
        }
    }

    @Test func searchingTheSortKeyShowsExactlyTheMatchingRows() throws {
        try check(searchPath: "", deleteFirst: false)
        try check(searchPath: "", deleteFirst: true)
    }

    /// A search path other than the sort key: every text is computed by evaluating it (and may not fit the
    /// buffer sized for 24 bytes a row).
    @Test func searchingAnotherPathShowsExactlyTheMatchingRows() throws {
        try check(searchPath: "=name .. ' ' .. name .. ' ' .. name", deleteFirst: false)
        try check(searchPath: "name", deleteFirst: true)
    }

    @Test func aSortKeyThatIsNotTextIsSearchedAsItsDisplayText() throws {
        let f = try ShopFixture()
        try f.start(books: ["x", "y", "z"])
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "price"
        d.rowSort = "price"
        d.search = "#true"
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        _ = try screen.snapshot()
        screen.search("21")
        #expect(try screen.snapshot().rowCount == 1)
        screen.search("5")
        #expect(try screen.snapshot().rowCount == 2)   // 10.5 and 31.5
    }

    @Test func gatheredTextsFallBackWhenTheyAreNotTextOrTooLong() {
        var g = ListRowTexts.Gathered(rows: 3)
        defer { g.deallocate() }
        var keys: [Value] = [.string("Abc"), .int(3), .string(String(repeating: "x", count: 10_000))]
        keys.withUnsafeBufferPointer { k in
            for i in 0..<3 { g.add(i, k.baseAddress! + i) }
        }
        #expect(g.text(0).map { Array($0) } == Array("Abc".utf8))
        #expect(g.text(1) == nil)
        #expect(g.text(2) == nil, "longer than the room left: computed the other way")
        keys.removeAll()
    }
}
