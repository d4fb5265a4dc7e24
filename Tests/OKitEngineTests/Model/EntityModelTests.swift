import Foundation
import Testing
@testable import OKitEngine

@Suite struct EntityModelTests {
    @Test func defaultsFollowTheFieldTypes() throws {
        let f = try ShopFixture()
        let b = try f.engine.make("Book")
        #expect(b["name"]!.isSame(as: .string("")))
        #expect(b["copies"]!.isSame(as: .int(0)))
        #expect(b["price"]!.isSame(as: .double(0)))
        #expect(b["marked"]!.isSame(as: .bool(false)))
        #expect(b["date"]!.isSame(as: .date(f.clock.now)))
        #expect(b["comment"]!.isNull)
        #expect(b["type"]!.isSame(as: .string("0")))
        guard case .collection(let c) = b["authors"]! else { Issue.record("authors is not a collection"); return }
        #expect(c.isEmpty && c.kind == .array)
        guard case .entity(let ref) = b["author"]! else { Issue.record("author is not a ref"); return }
        #expect(ref.type.isRef && ref["refKey"]!.isNull)
        let a = try f.engine.make("Author")
        #expect(a["name"]!.description == "<New Author>")
    }

    /// JSON holds no infinity or NaN: such a number written to a stored field is refused (it used to be stored as
    /// null and read back as the field's default, silently).
    @Test func infinityAndNaNAreRefusedByNumberAndDateFields() throws {
        let f = try ShopFixture()
        try f.start()
        let b = f.book(0)
        for bad: Value in [.double(.infinity), .double(-.infinity), .double(.nan), .string("inf"), .string("nan")] {
            #expect(throws: (any Error).self) { try f.engine.set(b, "price", bad) }
        }
        #expect(throws: (any Error).self) { try f.engine.set(b, "date", .double(.infinity)) }
        #expect(b["price"]!.isSame(as: .double(10.5)), "the field keeps its value")
        do { try f.engine.set(b, "price", .double(.infinity)) } catch {
            #expect("\(error)".contains("a model cannot hold infinity or NaN"), "\(error)")
        }
    }

    @Test func idsAreUpperCaseUUIDsAndCanBeGiven() throws {
        let f = try ShopFixture()
        let b = try f.engine.make("Book")
        let id = try #require(b.id)
        #expect(UUID(uuidString: id) != nil)
        #expect(id == id.uppercased())
        let g = try f.engine.make("Genre", ["id": .string("FANTASY")])
        #expect(g.id == "FANTASY")
        let d = try f.engine.make("BookDate")
        #expect(d.id == nil)
    }

    @Test func seededIdsRepeat() throws {
        let a = try ShopFixture(seedIds: 7), b = try ShopFixture(seedIds: 7)
        #expect(try a.engine.make("Book").id == b.engine.make("Book").id)
    }

    @Test func addInsertsAtTheFrontByDefaultAndAppendAtTheEnd() throws {
        let f = try ShopFixture()
        let root = try f.start(books: [])
        let books = try f.engine.collection(root, "books")
        for n in ["A", "B"] { try f.engine.insert(.entity(f.engine.make("Book", ["name": .string(n)])), into: books) }
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("C")])), into: books, append: true)
        try f.engine.insert(.entity(f.engine.make("Book", ["name": .string("D")])), into: books, at: 1)
        #expect(books.items.map { $0.entity!["name"]!.description } == ["B", "D", "A", "C"])
    }

    @Test func removeAndMove() throws {
        let f = try ShopFixture()
        let root = try f.start(books: ["A", "B", "C", "D"])
        let books = try f.engine.collection(root, "books")
        try f.engine.move(in: books, from: 0, to: 3)
        #expect(books.items.map { $0.entity!["name"]!.description } == ["B", "C", "D", "A"])
        let idx = try f.engine.remove(.entity(f.book(1)), from: books)
        #expect(idx == 1)
        #expect(books.items.map { $0.entity!["name"]!.description } == ["B", "D", "A"])
        #expect(throws: EngineError.self) { try f.engine.move(in: books, from: 0, to: 9) }
        #expect(throws: EngineError.self) { try f.engine.remove(at: 5, from: books) }
    }

    @Test func managedAndUnmanagedFireExactlyOnce() throws {
        let f = try ShopFixture()
        let root = try f.start(books: [])
        let book = try f.engine.make("Book", ["name": .string("Dune")])
        let author = try f.engine.make("Author", ["name": .string("Herbert")])
        // Added to a detached book: no hook yet.
        try f.engine.insert(.entity(author), into: f.engine.collection(book, "authors"))
        #expect(f.managedLog.isEmpty)
        try f.engine.insert(.entity(book), into: f.engine.collection(root, "books"))
        #expect(f.managedLog == ["Herbert in Book"])
        #expect(author.parent === book && author.state == .managed)
        try f.engine.remove(.entity(book), from: f.engine.collection(root, "books"))
        // Each entity once when it arrives in the model, once when it leaves: the author leaves with its book.
        #expect(f.unmanagedLog == ["Herbert from Book"], "the removed book's author gets its hook")
        try f.engine.remove(.entity(author), from: f.engine.collection(book, "authors"))
        #expect(f.unmanagedLog == ["Herbert from Book"], "the author was already removed with its book")
        let a2 = try f.engine.make("Author", ["name": .string("Le Guin")])
        try f.engine.insert(.entity(a2), into: f.engine.collection(root, "authors"))
        try f.engine.remove(.entity(a2), from: f.engine.collection(root, "authors"))
        #expect(f.managedLog == ["Herbert in Book", "Le Guin in Shop"])
        #expect(f.unmanagedLog == ["Herbert from Book", "Le Guin from Shop"])
    }

    @Test func theIdIndexFollowsAddsRemovesAndIdChanges() throws {
        let f = try ShopFixture()
        try f.start()
        let b = f.book(0)
        let id = try #require(b.id)
        #expect(f.engine.lookup(id: id) === b)
        try f.engine.set(b, "id", .string("NEW"))
        #expect(f.engine.lookup(id: id) == nil)
        #expect(f.engine.lookup(id: "NEW") === b)
        try f.engine.remove(.entity(b), from: f.engine.collection(f.root, "books"))
        #expect(f.engine.lookup(id: "NEW") == nil)
    }

    @Test func duplicateIdsPreferTheOwnModel() throws {
        let f = try ShopFixture()
        try f.start(books: [])
        let a1 = try f.engine.make("Author", ["id": .string("X"), "name": .string("in shop")])
        let a2 = try f.engine.make("Author", ["id": .string("X"), "name": .string("in directory")])
        try f.engine.insert(.entity(a1), into: f.engine.collection(f.root, "authors"))
        try f.engine.insert(.entity(a2), into: f.engine.collection(f.directory.root, "authors"))
        #expect(f.engine.idIndex.lookup("X", from: f.directory) === a2)
        #expect(f.engine.idIndex.lookup("X", from: f.shop) === a1)
        #expect(f.engine.idIndex.isDuplicate("X"))
    }

    @Test func refsResolveThroughTheIndexAcrossModels() throws {
        let f = try ShopFixture()
        try f.start()
        let a = try f.engine.make("Author", ["name": .string("Herbert")])
        try f.engine.insert(.entity(a), into: f.engine.collection(f.directory.root, "authors"))
        try f.engine.set(f.book(0), "author", .entity(a))
        let ref = try #require(f.book(0)["author"]?.entity)
        #expect(ref["refKey"]!.description == a.id!)
        #expect(f.engine.resolveRef(ref) === a)
        try f.engine.set(f.book(1), "author", .string(a.id!))
        #expect(f.engine.resolveRef(f.book(1)["author"]!.entity!) === a)
        // A ref whose target is gone resolves to nil and keeps its refKey.
        try f.engine.remove(.entity(a), from: f.engine.collection(f.directory.root, "authors"))
        #expect(f.engine.resolveRef(ref) == nil)
        #expect(ref["refKey"]!.description == a.id!)
        #expect(ref.displayString == nil)
    }

    @Test func entitiesOwnedElsewhereAreRefused() throws {
        let f = try ShopFixture()
        try f.start()
        let author = try #require(try f.engine.collection(f.book(0), "authors").items.first?.entity)
        #expect(throws: EngineError.self) {
            try f.engine.insert(.entity(author), into: f.engine.collection(f.book(1), "authors"))
        }
        #expect(throws: EngineError.self) {
            try f.engine.insert(.entity(f.root), into: f.engine.collection(f.root, "books"))
        }
        #expect(throws: EngineError.self) {
            try f.engine.insert(.entity(f.engine.make("Genre")), into: f.engine.collection(f.root, "books"))
        }
    }

    @Test func setsAreUniqueAndMapsAreKeyed() throws {
        let f = try ShopFixture()
        try f.start()
        let fav = try f.engine.collection(f.root, "favorites")
        try f.engine.insert(.entity(f.engine.make("Book", ["id": .string("B1")])), into: fav)
        try f.engine.insert(.entity(f.engine.make("Book", ["id": .string("B2")])), into: fav, append: true)
        #expect(fav.count == 2)
        let notes = try f.engine.collection(f.book(0), "notes")
        try f.engine.put(.string("good"), forKey: "review", in: notes)
        try f.engine.put(.string("better"), forKey: "review", in: notes)
        #expect(notes.count == 1 && notes.value(forKey: "review")!.description == "better")
        let tags = try f.engine.collection(f.book(0), "tags")
        try f.engine.insert(.int(5), into: tags)
        #expect(tags.items.first!.isSame(as: .string("5")))
    }

    @Test func computedFieldsReadAndWrite() throws {
        let f = try ShopFixture()
        try f.start()
        try f.engine.set(f.book(0), "priceWithTax", .double(12))
        #expect(abs(f.book(0)["price"]!.doubleValue! - 10) < 1e-9)
        #expect(throws: EngineError.self) { try f.engine.set(f.book(0), "formatMarked", .string("x")) }
    }

    @Test func didSetFiresWithTheOldValue() throws {
        let f = try ShopFixture()
        try f.start()
        try f.engine.set(f.book(0), "rating", .int(3))
        try f.engine.set(f.book(0), "rating", .int(3))   // unchanged: no observer call
        try f.engine.set(f.book(0), "rating", .int(4))
        #expect(f.didSetLog == ["0 -> 3", "3 -> 4"])
    }

    @Test func aRemovedEntityCanBeReAddedUntilStoredThenNotUsed() throws {
        let f = try ShopFixture()
        try f.start()
        let b = f.book(0)
        let books = try f.engine.collection(f.root, "books")
        try f.engine.remove(.entity(b), from: books)
        #expect(b.state == .removed)
        try f.engine.set(b, "name", .string("moved"))
        try f.engine.insert(.entity(b), into: books)
        #expect(b.state == .managed && b["name"]!.description == "moved")
        try f.engine.remove(.entity(b), from: books)
        try f.engine.store(f.shop)
        #expect(throws: EngineError.self) { try f.engine.set(b, "name", .string("x")) }
        do { try f.engine.set(b, "name", .string("x")) } catch {
            #expect("\(error)".contains("was removed from its model"))
        }
    }

    @Test func modelNamesAreValidated() throws {
        let f = try ShopFixture()
        for bad in ["", "../x", "a/b", ".hidden", "a\\b"] {
            #expect(throws: EngineError.self) { try f.engine.register(model: bad, type: "Shop", storage: TransientStorage()) }
        }
        try f.start()
        #expect(throws: EngineError.self) { try f.engine.register(model: "default", type: "Shop", storage: TransientStorage()) }
        #expect(throws: EngineError.self) { try f.engine.register(model: "x", type: "Nope", storage: TransientStorage()) }
    }

    @Test func seedRunsOnlyForAFreshModel() throws {
        let f = try ShopFixture()
        var seeded = 0
        _ = try f.engine.register(model: "default", type: "Shop", storage: TransientStorage()) { root in
            seeded += 1
            try f.engine.insert(.entity(f.engine.make("Genre", ["id": .string("FANTASY")])), into: f.engine.collection(root, "genres"))
        }
        #expect(seeded == 1)
        #expect(f.engine.lookup(id: "FANTASY") != nil)
    }

    @Test func parentsAreSetWhenATreeJoinsAModelAndClearedWhenItLeaves() throws {
        let f = try ShopFixture()
        try f.start(books: [])
        let book = try f.engine.make("Book", ["name": .string("Dune")])
        let author = try f.engine.make("Author")
        try f.engine.insert(.entity(author), into: f.engine.collection(book, "authors"))
        #expect(author.parent == nil, "a detached tree has no parents yet")
        // Cycles are refused in detached trees too.
        #expect(throws: EngineError.self) { try f.engine.insert(.entity(book), into: f.engine.collection(book, "authors")) }
        let shelf = try f.engine.make("Shop")
        try f.engine.insert(.entity(book), into: f.engine.collection(shelf, "books"))
        #expect(throws: EngineError.self) { try f.engine.insert(.entity(shelf), into: f.engine.collection(book, "authors")) }
        try f.engine.remove(.entity(book), from: f.engine.collection(shelf, "books"))
        try f.engine.insert(.entity(book), into: f.engine.collection(f.root, "books"))
        #expect(book.parent === f.root && author.parent === book)
        #expect(book["author"]!.entity!.parent === book, "default refs get their parent too")
        try f.engine.remove(.entity(book), from: f.engine.collection(f.root, "books"))
        #expect(book.parent === f.root, "a removed entity keeps its parent until stored")
        try f.engine.store(f.shop)
        #expect(book.parent == nil && author.parent == nil, "after the store the removed tree has no parents")
    }

    @Test func aFailedTransactionFreesWhatItAdded() throws {
        let f = try ShopFixture()
        try f.start(books: [])
        let book = try f.engine.make("Book")
        #expect(throws: FixtureError.self) {
            try f.engine.transaction {
                try f.engine.insert(.entity(book), into: f.engine.collection(f.root, "books"))
                throw FixtureError.boom
            }
        }
        try f.engine.insert(.entity(book), into: f.engine.collection(f.root, "books"))
        #expect(try f.engine.collection(f.root, "books").count == 1)
    }

    @Test func aFailingObserverUndoesTheWrite() throws {
        let schema = Schema()
        try schema.entity("T", fields: [FieldSpec("n", .int, didSet: { _, _ in throw FixtureError.boom })])
        let engine = Engine(schema: schema)
        let m = try engine.register(model: "default", type: "T", storage: TransientStorage())
        #expect(throws: FixtureError.self) { try engine.set(m.root, "n", .int(5)) }
        #expect(m.root["n"]!.isSame(as: .int(0)))
    }

    /// A ref field's observer runs on every change of what it points to — the first, the next, the clearing — with
    /// the entity it pointed to before; never when the same entity is set again. It ran only for the first.
    @Test func aRefFieldsDidSetFiresWithTheEntityItPointedTo() throws {
        let schema = Schema()
        var log: [String] = []
        try schema.entity("P", fields: [FieldSpec("name", .string)])
        try schema.entity("I", fields: [try FieldSpec("who", "ref P", didSet: { e, old in
            log.append("\(old.entity?["name"]?.description ?? "nil") -> \(e["who"]?.entity.map { $0.values[1].description } ?? "?")")
        })])
        try schema.entity("R", fields: [try FieldSpec("ps", "[P]"), try FieldSpec("items", "[I]")])
        let engine = Engine(schema: schema)
        let m = try engine.register(model: "default", type: "R", storage: TransientStorage())
        let ps = try engine.collection(m.root, "ps")
        let ana = try engine.make("P", ["id": .string("ana"), "name": .string("Ana")])
        let bo = try engine.make("P", ["id": .string("bo"), "name": .string("Bo")])
        try engine.insert(.entity(ana), into: ps, append: true)
        try engine.insert(.entity(bo), into: ps, append: true)
        let item = try engine.make("I", [:])
        try engine.insert(.entity(item), into: try engine.collection(m.root, "items"), append: true)
        try engine.set(item, "who", .entity(ana))
        try engine.set(item, "who", .string("ana"))      // the same entity: no call
        try engine.set(item, "who", .entity(bo))
        try engine.set(item, "who", .null)
        #expect(log == ["nil -> ana", "Ana -> bo", "Bo -> "], "\(log)")
    }
}

