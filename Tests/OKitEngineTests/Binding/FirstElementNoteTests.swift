import Foundation
import Testing
@testable import OKitEngine

/// A collection notes its first element's entity for a binding's `[0]` (`EntityCollection.entityElement`); every
/// change of the collection forgets the note, so `books[0]/…` never reads a book that is no longer first (or no
/// longer there: the note is unretained).
@Suite struct FirstElementNoteTests {
    /// Evaluates `books[0]/name` twice (the general path, then the tight loop that reads the note) and checks
    /// both against the collection's own first element.
    private func expectFirst(_ f: ShopFixture, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let books = try f.engine.collection(f.root, "books")
        let truth: Value = books.items.first?.entity.flatMap { $0["name"] } ?? .null
        let b = try f.engine.compile("books[0]/name")
        for pass in 1...2 {
            let v = try f.engine.evaluate(b, f.root)
            #expect(v.isSame(as: truth), "after \(step), pass \(pass): \(v) instead of \(truth)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func everyChangeOfTheCollectionIsSeenByTheNextRead() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma", "Anna"])
        let books = try f.engine.collection(f.root, "books")
        try expectFirst(f, "the start")
        try f.engine.insert(.entity(try f.engine.make("Book", ["name": .string("Zola")])), into: books)
        try expectFirst(f, "an insert (first, OKit's default)")
        try f.engine.insert(.entity(try f.engine.make("Book", ["name": .string("Last")])), into: books, append: true)
        try expectFirst(f, "an append")
        try f.engine.remove(at: 0, from: books)
        try expectFirst(f, "removing the first")
        try f.engine.move(in: books, from: 2, to: 0)
        try expectFirst(f, "a move to the front")
        try f.engine.move(in: books, from: 0, to: 3)
        try expectFirst(f, "a move away from the front")
        _ = try f.engine.remove(books.items[0], from: books)
        try expectFirst(f, "removing the first by value")
        try f.engine.clear(books)
        try expectFirst(f, "a clear")
        try f.engine.insert(.entity(try f.engine.make("Book", ["name": .string("Again")])), into: books)
        try expectFirst(f, "an insert into the empty list")
    }

    @Test func aRolledBackChangeRestoresTheFirstElement() throws {
        let f = try ShopFixture()
        try f.start(books: ["Dune", "Emma"])
        let books = try f.engine.collection(f.root, "books")
        try expectFirst(f, "the start")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try f.engine.transaction {
                try f.engine.remove(at: 0, from: books)
                try f.engine.insert(.entity(try f.engine.make("Book", ["name": .string("Temp")])), into: books)
                try expectFirst(f, "the changes inside the transaction")
                throw Stop()
            }
        }
        try expectFirst(f, "the rollback")
    }

    @Test func aLongListThatTurnsIntoChunksKeepsItsFirstElement() throws {
        let f = try ShopFixture()
        try f.start(books: (0..<(2 * ValueList.flatMoveLimit + 10)).map { "Book \($0)" })
        let books = try f.engine.collection(f.root, "books")
        try expectFirst(f, "the start")
        // A change in the middle of a long list makes it chunked.
        try f.engine.insert(.entity(try f.engine.make("Book", ["name": .string("Middle")])), into: books,
                            at: books.count / 2)
        #expect(books.items.chunks != nil)
        try expectFirst(f, "the list turned into chunks")
        try f.engine.remove(at: 0, from: books)
        try expectFirst(f, "removing the first of the chunks")
    }

    @Test func aFirstElementReadFromAFileIsNotedAndForgottenOnChange() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-first-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try ShopFixture()
        try f.start(storage: try FileStorage(dataFolder: dir), books: ["Dune", "Emma"])
        try f.engine.store(f.shop)
        try f.engine.reload(f.shop)
        try expectFirst(f, "a reload from the file")
        try f.engine.remove(at: 0, from: try f.engine.collection(f.root, "books"))
        try expectFirst(f, "removing the first after the reload")
    }
}
