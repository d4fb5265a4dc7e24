import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// A file model's journal (storage.md "Journal"): small changes appended as records and replayed at load, torn and
/// stale journals, a record of the wrong type.
@Suite struct FileStorageJournalTests {
    /// A fresh fixture on the folder; the storage is released when the fixture is.
    func open(_ folder: TempFolder) throws -> (ShopFixture, FileStorage) {
        try FileStorageTests().open(folder)
    }
    @Test func smallChangesGoToTheJournalAndReloadCorrectly() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
            try f.engine.store(f.shop)
            try f.engine.set(f.book(7), "name", .string("Seven"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            try f.engine.set(f.book(8), "price", .double(99))
            try f.engine.insert(.entity(f.engine.make("Author", ["name": .string("Extra")])), into: f.engine.collection(f.book(8), "authors"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            #expect(folder.read("default.journal") != nil)
            #expect(folder.read("default.json")?.contains("Seven") == false, "the model file is as of its last full write")
        }
        do {
            let (g, s) = try open(folder)
            try g.start(storage: s, books: [])
            #expect(g.book(7)["name"]!.description == "Seven")
            #expect(g.book(8)["price"]!.isSame(as: .double(99)))
            #expect(try g.engine.collection(g.book(8), "authors").count == 2)
            #expect(try g.engine.collection(g.book(8), "authors").items[1].entity!.parent === g.book(8))
            // A change of membership at the root is a full write, which drops the journal.
            try g.engine.remove(at: 0, from: g.engine.collection(g.root, "books"))
            guard case .full = try g.engine.store(g.shop) else { Issue.record("expected a full write"); return }
            #expect(folder.read("default.journal") == nil)
            #expect(folder.read("default.json")?.contains("Seven") == true)
        }
    }

    @Test func aTornJournalRecordIsIgnored() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<100).map { "Book \($0)" })
            try f.engine.store(f.shop)
            try f.engine.set(f.book(1), "name", .string("Kept"))
            try f.engine.store(f.shop)
            try f.engine.set(f.book(2), "name", .string("Torn"))
            try f.engine.store(f.shop)
        }
        var journal = try #require(try? Data(contentsOf: folder.file("default.journal")))
        journal.removeLast(10)
        try journal.write(to: folder.file("default.journal"))
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(1)["name"]!.description == "Kept")
        #expect(g.book(2)["name"]!.description == "Book 2")
    }

    @Test func aJournalOfAnOlderGenerationIsIgnored() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<100).map { "Book \($0)" })
            try f.engine.store(f.shop)
            try f.engine.set(f.book(1), "name", .string("Stale"))
            try f.engine.store(f.shop)
        }
        let journal = try Data(contentsOf: folder.file("default.journal"))
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(1), "name", .string("New"))
            try f.engine.remove(at: 0, from: f.engine.collection(f.root, "books"))
            try f.engine.store(f.shop)     // full write: new generation
        }
        // A crash between the full write and the journal's removal leaves the old journal behind.
        try journal.write(to: folder.file("default.journal"))
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(0)["name"]!.description == "New")
    }

    @Test func aDataFolderIsLocked() throws {
        let folder = try TempFolder()
        let first = try FileStorage(dataFolder: folder.url)
        do {
            _ = try FileStorage(dataFolder: folder.url)
            Issue.record("a second storage opened the folder")
        } catch let e as StorageError {
            #expect(e.kind == .locked)
        }
        _ = first
    }
    @Test func anEntityMovedBetweenJournalRecordsIsFoundWhereItIsNow() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
            try f.engine.store(f.shop)
            let x = try #require(try f.engine.collection(f.book(3), "authors").items.first?.entity)
            try f.engine.set(x, "name", .string("X1"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            try f.engine.remove(at: 0, from: f.engine.collection(f.book(3), "authors"))
            try f.engine.insert(.entity(x), into: f.engine.collection(f.book(4), "authors"), append: true)
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
            try f.engine.set(x, "name", .string("X2"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        }
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(try g.engine.collection(g.book(3), "authors").count == 0)
        let moved = try g.engine.collection(g.book(4), "authors").items.compactMap { $0.entity?["name"]?.description }
        #expect(moved == ["Author of Book 4", "X2"])
    }

    @Test func aTornJournalIsFollowedByAFullWriteAndNothingIsLost() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<100).map { "Book \($0)" })
            try f.engine.store(f.shop)
            try f.engine.set(f.book(1), "name", .string("Kept"))
            try f.engine.store(f.shop)
            try f.engine.set(f.book(2), "name", .string("Torn"))
            try f.engine.store(f.shop)
        }
        var journal = try Data(contentsOf: folder.file("default.journal"))
        journal.removeLast(10)
        try journal.write(to: folder.file("default.journal"))
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(5), "name", .string("After"))
            // Appending after the torn record would make the new record unreachable: the whole model is written.
            guard case .full = try f.engine.store(f.shop) else { Issue.record("expected a full write"); return }
            #expect(folder.read("default.journal") == nil)
        }
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(1)["name"]!.description == "Kept")
        #expect(g.book(2)["name"]!.description == "Book 2")
        #expect(g.book(5)["name"]!.description == "After")
    }

    @Test func aStaleJournalIsReplacedNotAppendedTo() throws {
        let folder = try TempFolder()
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: (0..<100).map { "Book \($0)" })
            try f.engine.store(f.shop)
            try f.engine.set(f.book(1), "name", .string("Stale"))
            try f.engine.store(f.shop)
        }
        let stale = try Data(contentsOf: folder.file("default.journal"))
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.remove(at: 0, from: f.engine.collection(f.root, "books"))
            try f.engine.store(f.shop)
        }
        try stale.write(to: folder.file("default.journal"))
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(3), "name", .string("Fresh"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        }
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(3)["name"]!.description == "Fresh")
        #expect(g.book(0)["name"]!.description == "Stale", "book 1 moved up to 0 and kept its stored name")
    }

    @Test func unknownFieldsSurviveTheJournal() throws {
        let folder = try TempFolder()
        let books = (0..<100).map { #"{"id":"B\#($0)","name":"Book \#($0)","newField":{"v":[\#($0), true]}}"# }
        try folder.write("default.json", #"{"okit":{"version":1,"type":"Shop"},"books":["# + books.joined(separator: ",") + "]}")
        do {
            let (f, s) = try open(folder)
            try f.start(storage: s, books: [])
            try f.engine.set(f.book(7), "name", .string("Seven"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        }
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(7)["name"]!.description == "Seven")
        try s.compact(g.shop, engine: g.engine)
        let text = try #require(folder.read("default.json"))
        #expect(text.contains(#"{"id":"B7","name":"Seven","#) && text.contains(#""newField":{"v":[7, true]}}"#))
        #expect(folder.read("default.journal") == nil, "compact removes the journal")
    }

    @Test func aJournalRecordOfTheWrongTypeIsAnErrorAndNothingIsWritten() throws {
        let folder = try TempFolder()
        try folder.write("default.json", #"{"okit":{"version":1,"type":"Shop","gen":3},"books":[{"id":"B1","name":"Dune"}]}"#)
        let journal = Journal.header(generation: 3) + Journal.record(Array(#"{"id":"B1","price":"abc"}"#.utf8))
        try Data(journal).write(to: folder.file("default.journal"))
        let (f, s) = try open(folder)
        do {
            try f.start(storage: s, books: [])
            Issue.record("no error")
        } catch let e as StorageError {
            #expect(e.path.hasSuffix("default.journal") && e.jsonPath == "$.price" && e.kind == .wrongType)
            guard case .described(let way)? = e.remedy else { Issue.record("\(String(describing: e.remedy))"); return }
            #expect(way.hasPrefix(#"field "price" of Book is declared double and the file holds a string: "#), "\(way)")
        }
        #expect(try [UInt8](Data(contentsOf: folder.file("default.journal"))) == journal)
        #expect(folder.read("default.json")?.contains(#""gen":3"#) == true)
    }
}
