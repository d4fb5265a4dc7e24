import Foundation
import Testing
@testable import OKitEngine

/// `Engine.evaluate(_:on:inOrder:)` (a binding on many entities in an order, reading ahead) gives what evaluating each
/// in turn gives: the same values, in the order's places, for any binding (a plain field, a path through a
/// collection, a computed field, an extension, several parts), entities of several types, repeats and an order
/// longer than the read-ahead; an error stops the pass at its entity; the reads are recorded as one by one.
@Suite struct EvaluateInOrderTests {
    static let names = (0..<40).map { "Book \($0)" }

    /// The values one by one and in one pass, for each binding.
    @Test(arguments: ["name", "authors[0]/name", "formatMarked", "name/initial", "name,price", "=price * 2", "#x", "genre/name"])
    func theValuesAreThoseOfOneByOne(_ text: String) throws {
        let f = try ShopFixture()
        let root = try f.start(books: Self.names)
        let books = try f.engine.collection(root, "books").items.compactMap(\.entity)
        for (i, b) in books.enumerated() where i % 3 == 0 {
            try f.engine.insert(.entity(try f.engine.make("Author", ["name": .string("Author \(i)")])),
                                into: try f.engine.collection(b, "authors"), append: true)
        }
        let entities = books + [root]   // another type: its fields are looked up as a book's would not be
        var order: [Int] = []
        var x = 42
        for _ in 0..<300 { x = (1_103_515_245 &* x &+ 12_345) % 2_147_483_648; order.append(x % entities.count) }
        order += [entities.count - 1, 0, 0, 1]
        let binding = try f.engine.compile(text)
        var seen: [(Int, Value)] = []
        for _ in 1...2 {   // cold slot caches, then warm ones
            seen = []
            try f.engine.evaluate(binding, on: entities, inOrder: order) { k, v in seen.append((k, v)) }
            #expect(seen.map(\.0) == Array(order.indices))
            for (k, v) in seen {
                let one = try f.engine.evaluate(binding, entities[order[k]])
                #expect(v.isSame(as: one), "\(text), place \(k): \(v) instead of \(one)")
            }
        }
    }

    @Test func anEmptyOrderEvaluatesNothing() throws {
        let f = try ShopFixture()
        let root = try f.start()
        var calls = 0
        try f.engine.evaluate(try f.engine.compile("name"), on: [root], inOrder: []) { _, _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test func anErrorStopsThePassAtItsEntity() throws {
        let f = try ShopFixture()
        let root = try f.start()
        let books = try f.engine.collection(root, "books").items.compactMap(\.entity)
        var places: [Int] = []
        #expect(throws: (any Error).self) {
            try f.engine.evaluate(try f.engine.compile("fail()"), on: books, inOrder: [0, 1, 2]) { k, _ in places.append(k) }
        }
        #expect(places.isEmpty)
        struct Enough: Error {}
        #expect(throws: Enough.self) {
            try f.engine.evaluate(try f.engine.compile("name"), on: books, inOrder: [2, 1, 0]) { k, _ in
                places.append(k)
                if k == 1 { throw Enough() }
            }
        }
        #expect(places == [0, 1])
    }

    /// A subscription that evaluates in one pass depends on each entity's field it read: a rename of one of them
    /// makes it stale, a rename of a book it did not read does not.
    @Test func theReadsAreRecorded() throws {
        let f = try ShopFixture()
        let root = try f.start(books: Self.names)
        let books = try f.engine.collection(root, "books").items.compactMap(\.entity)
        let binding = try f.engine.compile("name")
        let sub = f.engine.graph.subscribe {
            var joined = ""
            try f.engine.evaluate(binding, on: books, inOrder: [3, 5, 7]) { _, v in joined += v.displayString ?? "" }
            return .string(joined)
        }
        try f.engine.set(books[4], "name", .string("Other"))
        #expect(!sub.isStale)
        try f.engine.set(books[5], "name", .string("Renamed"))
        #expect(sub.isStale)
        _ = sub
    }
}
