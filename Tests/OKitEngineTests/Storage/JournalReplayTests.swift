import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Journal replay finds the entities its records name while the model file is read (`JournalTargets.note`); where
/// the reader shows it one id twice (or cannot show it every entity), the loaded tree is walked as before.
/// FileStorageTests' journal tests run the first path; these hold the second to the walk's answer.
@Suite struct JournalReplayTests {
    func open(_ folder: TempFolder) throws -> (ShopFixture, FileStorage) {
        (try ShopFixture(), try FileStorage(dataFolder: folder.url))
    }

    /// A model of 50 books stored whole, then book 1 renamed "Renamed" and stored as a journal record; the ids of
    /// book 1 and of its first author.
    func storeRenameInJournal(_ folder: TempFolder) throws -> (book: String, author: String) {
        let (f, s) = try open(folder)
        try f.start(storage: s, books: (0..<50).map { "Book \($0)" })
        try f.engine.store(f.shop)
        let book = try #require(f.book(1).id)
        let author = try #require(try f.engine.collection(f.book(1), "authors").items.first?.entity?.id)
        try f.engine.set(f.book(1), "name", .string("Renamed"))
        guard case .journal = try f.engine.store(f.shop) else { throw JournalReplayFailure("expected a journal write") }
        return (book, author)
    }

    struct JournalReplayFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A book whose author has the book's own id (a file edited by hand): the walk meets the book first, the
    /// reader finishes the author first. The record (a Book) replaces the book, as it always did.
    @Test func anIdCopiedToADescendantIsReplacedWhereTheWalkMeetsItFirst() throws {
        let folder = try TempFolder()
        let (bookId, authorId) = try storeRenameInJournal(folder)
        let text = try #require(folder.read("default.json"))
        #expect(text.components(separatedBy: authorId).count == 2)
        try text.replacingOccurrences(of: authorId, with: bookId).write(to: folder.file("default.json"), atomically: true, encoding: .utf8)
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(1)["name"]?.description == "Renamed")
        #expect(g.book(1).type.name == "Book")
    }

    /// A record naming an entity the model file does not have (the file edited by hand after the journal was
    /// written) cannot be applied: a warning says which record and which id, the rest loads.
    @Test func aRecordNamingNoEntityIsSaidNotDroppedSilently() throws {
        let folder = try TempFolder()
        let bookId = try storeRenameInJournal(folder).book
        let text = try #require(folder.read("default.json"))
        let otherId = "0D0D0D0D-0000-4000-8000-000000000001"
        try text.replacingOccurrences(of: bookId, with: otherId).write(to: folder.file("default.json"), atomically: true, encoding: .utf8)
        let (g, s) = try open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(1)["name"]?.description == "Book 1")
        let warning = try #require(g.engine.warnings.first { $0.contains("default.journal") })
        #expect(warning.contains("record 1") && warning.contains(bookId) && warning.contains("not applied"))
    }

    /// The CRC of a record is zlib's for contiguous bytes and the table's for any other collection: the same.
    @Test func theChecksumIsTheSameByZlibAndByTheTable() {
        var bytes: [UInt8] = []
        var x: UInt32 = 42
        for _ in 0..<10_000 { x = x &* 1_103_515_245 &+ 12345; bytes.append(UInt8(truncatingIfNeeded: x >> 16)) }
        for n in [0, 1, 7, 8, 9, 63, 64, 1000, 10_000] {
            let prefix = Array(bytes[..<n])
            #expect(CRC32.checksum(prefix) == CRC32.tableChecksum(prefix))
            #expect(CRC32.checksum(prefix.lazy.map { $0 }) == CRC32.tableChecksum(prefix))
        }
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}

/// A journal's records replace the content of the entities they name after the model file's reader listed the
/// entities with ids: the list follows them (the replaced ones out, the records' in), so the id index's first
/// lookup reads it instead of walking the tree, and finds exactly what the model holds.
@Suite struct JournalReplayIdListTests {
    /// 50 books stored whole; then book 1's first author replaced by a new one and book 2 renamed, both stored as
    /// journal records. The ids of the replaced author, the new one and book 1.
    func replaceAnAuthorInJournal(_ folder: TempFolder) throws -> (old: String, added: String, book: String) {
        let f = try ShopFixture()
        try f.start(storage: try FileStorage(dataFolder: folder.url), books: (0..<50).map { "Book \($0)" })
        try f.engine.store(f.shop)
        let authors = try f.engine.collection(f.book(1), "authors")
        let old = try #require(authors.items.first?.entity?.id)
        let newAuthor = try f.engine.make("Author", ["name": .string("New Author")])
        try f.engine.remove(at: 0, from: authors)
        try f.engine.insert(.entity(newAuthor), into: authors, append: true)
        try f.engine.set(f.book(2), "name", .string("Renamed"))
        guard case .journal = try f.engine.store(f.shop) else { throw JournalReplayTests.JournalReplayFailure("expected a journal write") }
        return (old, try #require(newAuthor.id), try #require(f.book(1).id))
    }

    @Test func theFirstLookupAfterAJournalFindsTheRecordsEntitiesWithoutAWalk() throws {
        let folder = try TempFolder()
        let (old, added, bookId) = try replaceAnAuthorInJournal(folder)
        let g = try ShopFixture()
        try g.start(storage: try FileStorage(dataFolder: folder.url), books: [])
        #expect(g.book(2)["name"]?.description == "Renamed")
        #expect(g.engine.lookup(id: added)?["name"]?.description == "New Author")
        #expect(g.engine.lookup(id: old) == nil, "the replaced author left the model")
        #expect(g.engine.lookup(id: bookId) === g.book(1))
        let listed = try #require(try g.engine.collection(g.book(1), "authors").items.first?.entity)
        #expect(g.engine.lookup(id: added) === listed, "the record's author, as the model holds it")
        #expect(g.engine.idIndex.walkedTrees == 0, "the reader's list was kept right")
    }
}
