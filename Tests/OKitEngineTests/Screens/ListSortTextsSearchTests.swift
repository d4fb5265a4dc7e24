import Testing
@testable import OKitEngine

/// When a list searches its sort key (`searchPath` or the cell's path equal to `rowSort`), its full pass keeps
/// the sort texts it numbered — each distinct text's bytes once, each row's number — and the first search folds
/// those instead of reading every row's key from the model again (issue 38: `list_search_first`). The rows a
/// search shows are the same: exactly those whose normalized text contains the normalized query, in order.
@Suite struct ListSortTextsSearchTests {
    /// Names with duplicates (one distinct text for many rows), accents, punctuation, repeats and empty ones.
    static let names = ["Dune", "dune", "Émile Zola", "Dune", "", "Ça va", "naïve", "b-a-n-a-n-a", "ANNA", "Anna",
                        "Ørsted", "日本語", "Émile Zola", "aa", "Dune", "  -- ", "naïve", "straße", "Straße"]

    func texts(_ s: ScreenSnapshot) -> [String] { s.sections.flatMap(\.rows).compactMap(\.text) }

    func expected(_ all: [String], _ query: String) -> [String] {
        let q = SearchText.normalize(query)
        return all.filter { SearchText.contains(SearchText.normalize($0), q) }
    }

    func screen(_ f: ShopFixture, search: String = "#true", group: String = "") throws -> ListScreen {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = group
        d.search = search
        return try ListScreen(engine: f.engine, declaration: d, context: f.root)
    }

    static let queries = ["a", "an", "anna", "dune", "e", "emile", "é", "zola", "ss", "strasse", "本", "nana", "zz", ""]

    @Test func theFirstSearchOfRowsWithRepeatedTextsShowsExactlyTheMatchingRows() throws {
        for group in ["", "name/initial"] {
            let f = try ShopFixture()
            try f.start(books: Self.names)
            let screen = try screen(f, group: group)
            let all = texts(try screen.snapshot(offset: 0, limit: 100))
            #expect(screen.rows.keepsSortTexts, "the full pass kept the sort texts")
            for query in Self.queries {
                screen.search(query)
                #expect(texts(try screen.snapshot(offset: 0, limit: 100)) == expected(all, query), "\(query) (group \(group))")
            }
            #expect(!screen.rows.keepsSortTexts, "the first search used them")
        }
    }

    /// Each query is the first search of a fresh list (the kept texts folded for it).
    @Test func everyQueryAsTheFirstSearchShowsExactlyTheMatchingRows() throws {
        for query in Self.queries {
            let f = try ShopFixture()
            try f.start(books: Self.names)
            let screen = try screen(f)
            let all = texts(try screen.snapshot(offset: 0, limit: 100))
            screen.search(query)
            #expect(texts(try screen.snapshot(offset: 0, limit: 100)) == expected(all, query), "\(query)")
        }
    }

    /// A row renamed before the first search: the kept texts are the old ones, so they are dropped and the
    /// search reads the rows' keys (the renamed row is found by its new name, not its old one).
    @Test func aRowChangedBeforeTheFirstSearchIsSearchedByItsNewText() throws {
        let f = try ShopFixture()
        try f.start(books: Self.names)
        let screen = try screen(f)
        _ = try screen.snapshot(offset: 0, limit: 100)
        try f.engine.set(f.book(0), "name", .string("Xanadu"))
        let all = texts(try screen.snapshot(offset: 0, limit: 100))
        #expect(!screen.rows.keepsSortTexts)
        screen.search("xana")
        #expect(texts(try screen.snapshot(offset: 0, limit: 100)) == ["Xanadu"])
        screen.search("dune")
        #expect(texts(try screen.snapshot(offset: 0, limit: 100)) == expected(all, "dune"))
    }

    /// A list that cannot be searched keeps nothing for a search.
    @Test func aListWithoutSearchKeepsNoSortTexts() throws {
        let f = try ShopFixture()
        try f.start(books: Self.names)
        let screen = try screen(f, search: "#false")
        _ = try screen.snapshot()
        #expect(!screen.rows.keepsSortTexts)
    }

    /// Every text distinct: no row numbers are kept (row i's text is text i); with repeats, each row's is.
    @Test func rowNumbersAreKeptOnlyWhenTextsRepeat() {
        var distinct = TextKeys(capacity: 3)
        for s in ["b", "a", "c"] { distinct.add(.string(s)) }
        let all = distinct.takeTexts()
        #expect(all?.numbers == [] && all?.count == 3 && all?.rows == 3)
        var repeated = TextKeys(capacity: 4)
        for s in ["b", "a", "b", "Ä"] { repeated.add(.string(s)) }
        let some = repeated.takeTexts()
        #expect(some?.numbers == [0, 1, 0, 2] && some?.count == 3 && some?.rows == 4)
        var mixed = TextKeys(capacity: 2)
        mixed.add(.string("a"))
        mixed.add(.int(1))
        let none = mixed.takeTexts()
        #expect(none == nil, "a key that is not text: nothing kept")
    }

    /// The folded texts are `SearchText.normalize`'s, ASCII or not, shared by the rows of one text.
    @Test func keptTextsFoldAsNormalizeDoes() {
        let samples = ["Hello,  World!!", "", "ÉCOLE", "aaBBcc", "Straße", "12--34", "x", "naïve café", "  ", "Ab1"]
        var keys = TextKeys(capacity: samples.count * 2)
        for s in samples + samples.reversed() { keys.add(.string(s)) }
        guard let kept = keys.takeTexts() else { Issue.record("no texts kept"); return }
        var texts = ListRowTexts()
        texts.makeSlots(kept.rows)
        let replaced = texts.replaceSearch(from: kept)
        #expect(replaced)
        for (slot, s) in (samples + samples.reversed()).enumerated() {
            let span = texts.span[slot]
            let bytes = span.start < 0 ? [] : Array(texts.bytes[Int(span.start) ..< Int(span.start + span.length)])
            #expect(bytes == Array(SearchText.normalize(s).utf8), "\(s)")
        }
    }
}
