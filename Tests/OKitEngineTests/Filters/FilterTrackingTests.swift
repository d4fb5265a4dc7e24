import Foundation
import Testing
@testable import OKitEngine

/// Filters are dependency-tracked per element and field read (bindings.md "Filters"): a write to a field that a
/// predicate read re-evaluates what depends on it, once per transaction; other writes re-evaluate nothing.
///
/// The shop's books: Dune (price 10.5, copies 1), Emma (21, 2), Anna (31.5, 3).
@Suite struct FilterTrackingTests {
    @Test func aWriteToAFieldThePredicateReadReevaluatesOnce() throws {
        let f = try ShopFixture()
        try f.start()
        let sum = try f.engine.subscribe(f.root, "books[copies > 1].@sum.price")
        let marked = try f.engine.subscribe(f.root, "books[marked].@count")
        #expect(sum.value.isSame(as: .double(52.5)))
        #expect(sum.evaluationCount == 1 && marked.evaluationCount == 1)

        try f.engine.set(f.book(0), "name", .string("X"))
        #expect(!sum.isStale && !marked.isStale, "no predicate or sum reads names")
        try f.engine.set(f.book(0), "price", .double(99))
        #expect(!sum.isStale, "Dune is filtered out: its price is not read")
        try f.engine.set(f.book(1), "price", .double(1))
        #expect(sum.isStale && !marked.isStale)
        #expect(sum.value.isSame(as: .double(32.5)))
        #expect(sum.evaluationCount == 2)

        try f.engine.set(f.book(0), "copies", .int(5))
        #expect(sum.isStale && !marked.isStale, "the predicate read Dune's copies")
        #expect(sum.value.isSame(as: .double(131.5)))
        #expect(sum.evaluationCount == 3)

        try f.engine.set(f.book(2), "marked", .bool(true))
        #expect(marked.isStale && !sum.isStale)
        #expect(marked.value.isSame(as: .int(1)))
        #expect(marked.evaluationCount == 2)
        _ = marked.value
        #expect(marked.evaluationCount == 2, "lazy, and once")
    }

    @Test func aTransactionReevaluatesOnceAndMembershipCounts() throws {
        let f = try ShopFixture()
        try f.start()
        var seen: [String] = []
        let names = try f.engine.subscribe(f.root, "books[copies >= 2]/name") { s in seen.append(s.value.description) }
        #expect(names.value.description == "Emma, Anna")
        try f.engine.transaction {
            try f.engine.set(f.book(0), "copies", .int(2))
            try f.engine.set(f.book(1), "copies", .int(0))
            try f.engine.set(f.book(2), "name", .string("Anna K."))
        }
        #expect(seen == ["Dune, Anna K."])
        #expect(names.evaluationCount == 2)
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("Zoe"), "copies": .int(7)])),
                            into: f.engine.collection(f.root, "books"), append: true)
        #expect(seen == ["Dune, Anna K.", "Dune, Anna K., Zoe"], "membership was read")
        #expect(names.evaluationCount == 3)
    }

    @Test func readsThroughRefsInAPredicateAreTracked() throws {
        let f = try ShopFixture()
        try f.start()
        let herbert = try f.engine.make("Author", ["name": .string("Herbert")])
        let austen = try f.engine.make("Author", ["name": .string("Austen")])
        for a in [herbert, austen] { try f.engine.insert(.entity(a), into: f.engine.collection(f.directory.root, "authors")) }
        try f.engine.set(f.book(0), "author", .entity(herbert))
        try f.engine.set(f.book(1), "author", .entity(austen))
        let s = try f.engine.subscribe(f.root, "books[price > 10 and author.ref.name == 'Herbert']/name")
        #expect(s.value.description == "Dune")
        try f.engine.set(austen, "name", .string("Herbert"))
        #expect(s.isStale, "the predicate read Emma's author's name")
        #expect(s.value.description == "Dune, Emma")
        try f.engine.set(f.book(2), "copies", .int(9))
        #expect(!s.isStale)
        #expect(s.evaluationCount == 2)
    }

    @Test func aListOverAFilteredCollectionFollowsThePredicate() throws {
        let f = try ShopFixture()
        try f.start()
        var d = ListDeclaration(id: "books")
        d.dataPath = "books[copies > 1]"
        d.cellPath = "name"
        d.rowSort = "name"
        d.titleCount = "books[copies > 1].@count"
        d.titlePath = "%Books"
        let screen = try ListScreen(engine: f.engine, declaration: d, context: f.root)
        func texts() throws -> [String] { try screen.snapshot().sections.flatMap { $0.rows.compactMap(\.text) } }
        #expect(try texts() == ["Anna", "Emma"])
        #expect(try screen.snapshot().title == "Books (2)")
        #expect(screen.rebuilds == 1)
        try f.engine.set(f.book(0), "price", .double(1))
        #expect(try texts() == ["Anna", "Emma"])
        #expect(screen.rebuilds == 1, "neither the predicate nor the rows read a price")
        try f.engine.set(f.book(0), "copies", .int(4))
        #expect(try texts() == ["Anna", "Dune", "Emma"], "Dune's copies flipped the predicate")
        #expect(try screen.snapshot().title == "Books (3)")
        #expect(screen.rebuilds == 2)
        try f.engine.set(f.book(1), "copies", .int(0))
        #expect(try texts() == ["Anna", "Dune"])
        #expect(screen.rebuilds == 3)
        try f.engine.set(f.book(2), "name", .string("Zora"))
        #expect(try texts() == ["Dune", "Zora"])
    }
}
