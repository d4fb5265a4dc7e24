import Foundation
import Testing
@testable import OKitEngine

/// Sections with equal titles merge and their rows keep the row order (screens.md "List"; OKit merges rows into
/// the first key seen, in row order): with `groupName` naming several keys alike, a merged section's rows come
/// by `rowSort` (else in the data's order), not key after key — when the list opens and as it follows writes.
@Suite struct MergedSectionsTests {
    /// A shop whose books have these names and copies; `level` names 5 copies and more High, fewer Low.
    func shop(_ books: [(String, Int)]) throws -> ShopFixture {
        let f = try ShopFixture()
        try f.start(books: books.map(\.0))
        for (i, b) in books.enumerated() { try f.engine.set(f.book(i), "copies", .int(b.1)) }
        f.engine.extensions.register("number", "level") { v, _, _ in .string((v.intValue ?? 0) >= 5 ? "High" : "Low") }
        f.engine.extensions.register("number", "parity") { v, _, _ in .string((v.intValue ?? 0) % 2 == 0 ? "even" : "odd") }
        return f
    }

    func decl(_ configure: (inout ListDeclaration) -> Void = { _ in }) -> ListDeclaration {
        var d = ListDeclaration(id: "books")
        d.dataPath = "books"
        d.cellPath = "name"
        d.rowSort = "name"
        d.group = "copies"
        d.groupName = "copies/level"
        configure(&d)
        return d
    }

    /// Sections as a person sees them: `Title: a,b`.
    func shape(_ s: ListScreen) throws -> [String] {
        try s.snapshot(offset: 0, limit: 1000).sections.map { "\($0.header ?? "-"): " + $0.rows.compactMap(\.text).joined(separator: ",") }
    }

    func fresh(_ f: ShopFixture, _ d: ListDeclaration) throws -> [String] {
        try shape(ListScreen(engine: f.engine, declaration: d, context: f.root))
    }

    @Test func keysNamedAlikeMakeOneSectionInRowOrder() throws {
        let f = try shop([("a", 10), ("b", 9), ("c", 1), ("d", 5), ("e", 2)])
        #expect(try fresh(f, decl()) == ["Low: c,e", "High: a,b,d"], "not key after key (d, b, a)")
        #expect(try fresh(f, decl { $0.rowSortAsc = "#false" }) == ["Low: e,c", "High: d,b,a"])
    }

    @Test func sectionsApartInTheKeyOrderMergeInTheDatasOrderWithoutRowSort() throws {
        // Keys 5, 4, 3, 2, 1 (descending): odd, even, odd, even, odd — the odd section in its first place.
        let f = try shop([("one", 1), ("two", 2), ("three", 3), ("four", 4), ("five", 5)])
        let d = decl { $0.rowSort = ""; $0.groupName = "copies/parity"; $0.groupSortAsc = "#false" }
        #expect(try fresh(f, d) == ["odd: one,three,five", "even: two,four"])
    }

    @Test func aWriteThatMakesKeysShareATitleMergesTheirRowsInRowOrder() throws {
        let f = try shop([("a", 10), ("c", 1)])
        let d = decl()
        let s = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        #expect(try shape(s) == ["Low: c", "High: a"])
        try f.engine.set(f.book(1), "copies", .int(6))   // c: High on key 6, before a's key 10
        #expect(try shape(s) == ["High: a,c"])
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("b"), "copies": .int(7)])),
                            into: f.engine.collection(f.root, "books"), append: true)
        #expect(try shape(s) == ["High: a,b,c"])
        try f.engine.set(f.book(0), "copies", .int(2))   // a: Low again
        #expect(try shape(s) == fresh(f, d))
        #expect(try shape(s) == ["Low: a", "High: b,c"])
    }

    @Test func writesThatKeepEveryTitleOnOneKeyAreFollowedRowByRow() throws {
        let f = try shop([("a", 10), ("b", 1), ("c", 2)])
        f.engine.extensions.register("number", "name") { v, _, _ in .string("n\(v.intValue ?? 0)") }
        let d = decl { $0.groupName = "copies/name" }
        let s = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        #expect(try shape(s) == ["n1: b", "n2: c", "n10: a"])
        try f.engine.set(f.book(1), "name", .string("z"))           // sorted again within its section
        try f.engine.set(f.book(2), "copies", .int(3))              // a new title on a new key
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("d"), "copies": .int(10)])),
                            into: f.engine.collection(f.root, "books"))
        #expect(try shape(s) == ["n1: z", "n3: c", "n10: a,d"])
        #expect(try shape(s) == fresh(f, d))
        #expect(s.fullPasses == 1, "nothing merged: every change was followed row by row")
    }
}
