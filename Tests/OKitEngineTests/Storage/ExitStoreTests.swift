import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Quitting stores a file model like any other store (issue 38; storage.md "Writing"): an unchanged model is not
/// touched, a rename is a journal append that stays on disk and is read at the next launch, the journal is folded
/// into the file by the store that would grow it past its fraction, and an encrypted model still never journals.
@Suite struct ExitStoreTests {
    static let bookCount = 200

    /// A shop of `bookCount` books (ids B0…) written as a model file, as a previous full write left it.
    func seed(_ folder: TempFolder, version: Int = 1) throws {
        let books = (0..<Self.bookCount).map { #"{"id":"B\#($0)","name":"Book \#($0)"}"# }
        try folder.write("default.json", #"{"okit":{"version":\#(version),"type":"Shop","gen":1},"books":["#
                         + books.joined(separator: ",") + "]}")
    }

    /// A session on the folder with the shop registered as a `kind` model (launched: the model is loaded).
    func launch(_ folder: TempFolder, kind: StorageKind = .file, passphrase: String? = nil) throws -> AppSession {
        var options = SessionOptions()
        options.dataFolder = folder.url
        options.passphrase = passphrase
        let session = AppSession(options: options)
        let schema = session.engine.schema
        try schema.entity("Book", fields: [FieldSpec("name", .string)])
        try schema.entity("Shop", fields: [try FieldSpec("books", "[Book]")])
        try schema.validate()
        let storage = try session.makeStorage(kind: kind, model: "default")
        _ = try session.engine.register(model: "default", type: "Shop", storage: storage)
        return session
    }

    func book(_ session: AppSession, _ i: Int) throws -> Entity {
        let root = try #require(session.engine.model(named: "default")).root
        return try #require(try session.engine.get(root, "books[\(i)]").entity)
    }

    /// Launches, renames book `i` to `name`, quits (the exit store) and gives the data folder back.
    func renameAndQuit(_ folder: TempFolder, book i: Int, to name: String, kind: StorageKind = .file,
                       passphrase: String? = nil) throws {
        let session = try launch(folder, kind: kind, passphrase: passphrase)
        try session.engine.set(try book(session, i), "name", .string(name))
        #expect(try session.storeAtExit().isEmpty)
        session.closeDataFolder()
    }

    /// The model file's bytes, inode and modification time.
    func identity(_ folder: TempFolder, _ name: String = "default.json") throws -> (Data, Int, Date) {
        let path = folder.file(name).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let inode = try #require((attributes[.systemFileNumber] as? NSNumber)?.intValue)
        let mtime = try #require(attributes[.modificationDate] as? Date)
        return (try Data(contentsOf: folder.file(name)), inode, mtime)
    }

    @Test func aRenameThenQuitIsAJournalAppendAndTheModelFileIsUntouched() throws {
        let folder = try TempFolder()
        try seed(folder)
        let before = try identity(folder)
        try renameAndQuit(folder, book: 7, to: "Seven")
        let after = try identity(folder)
        #expect(after.0 == before.0, "the model file is byte for byte as it was")
        #expect(after.1 == before.1 && after.2 == before.2, "not replaced, not written")
        let journal = try #require(folder.read("default.journal"), "the journal stays after exit")
        #expect(journal.contains(#""id":"B7","name":"Seven""#))
        let again = try launch(folder)
        #expect(try book(again, 7)["name"]!.description == "Seven", "the next launch reads the journal")
    }

    @Test func anUnchangedModelIsNotTouchedAtQuitEvenWithAJournalOnDisk() throws {
        let folder = try TempFolder()
        try seed(folder)
        let untouched = try identity(folder)
        do {
            let session = try launch(folder)
            #expect(try session.storeAtExit().isEmpty)
            session.closeDataFolder()
        }
        let quit = try identity(folder)
        #expect(quit.0 == untouched.0 && quit.1 == untouched.1 && quit.2 == untouched.2)
        #expect(folder.read("default.journal") == nil, "nothing written at all")
        // With a journal left by an earlier session, quitting unchanged touches neither file.
        try renameAndQuit(folder, book: 3, to: "Three")
        let model = try identity(folder), journal = try identity(folder, "default.journal")
        do {
            let session = try launch(folder)
            #expect(try session.storeAtExit().isEmpty)
            session.closeDataFolder()
        }
        let (m, j) = (try identity(folder), try identity(folder, "default.journal"))
        #expect(m.0 == model.0 && m.1 == model.1 && m.2 == model.2)
        #expect(j.0 == journal.0 && j.1 == journal.1 && j.2 == journal.2)
    }

    @Test func manySessionsCompactOnceTheJournalPassesItsFraction() throws {
        let folder = try TempFolder()
        try seed(folder)
        let first = try identity(folder)
        var compactedAt: Int?
        for i in 0..<Self.bookCount {
            try renameAndQuit(folder, book: i, to: "Renamed \(i)")
            if compactedAt == nil, try identity(folder).0 != first.0 { compactedAt = i }
            if compactedAt != nil { break }
        }
        let at = try #require(compactedAt, "the journal never compacted")
        #expect(at > 1, "several sessions appended before the journal passed its fraction")
        let text = try #require(folder.read("default.json"))
        for i in 0...at { #expect(text.contains(#""name":"Renamed \#(i)""#), "the file holds rename \(i)") }
        #expect(folder.read("default.journal") == nil, "the full write removed the journal")
        let again = try launch(folder)
        for i in 0...at { #expect(try book(again, i)["name"]!.description == "Renamed \(i)") }
        #expect(try book(again, at + 1)["name"]!.description == "Book \(at + 1)")
    }

    @Test func anEncryptedModelNeverJournalsAtQuit() throws {
        let folder = try TempFolder()
        try seed(folder)
        try renameAndQuit(folder, book: 2, to: "Sealed two", kind: .encrypted, passphrase: "pass")
        #expect(SealedFile.isSealed([UInt8](try identity(folder).0)), "a full sealed write")
        #expect(!FileManager.default.fileExists(atPath: folder.file("default.journal").path))
        let sealed = try identity(folder)
        do {
            let session = try launch(folder, kind: .encrypted, passphrase: "pass")
            #expect(try book(session, 2)["name"]!.description == "Sealed two")
            #expect(try session.storeAtExit().isEmpty)
            session.closeDataFolder()
        }
        let quit = try identity(folder)
        #expect(quit.0 == sealed.0 && quit.1 == sealed.1 && quit.2 == sealed.2, "unchanged: not rewritten")
    }

    /// Newer data is never written by an older app (storage.md "Versions"), not even as a journal record: the
    /// store is refused and nothing lands beside the file.
    @Test func anOlderAppDoesNotJournalIntoNewerData() throws {
        let folder = try TempFolder()
        try seed(folder, version: 2)
        let before = try identity(folder)
        let session = try launch(folder)
        try session.engine.set(try book(session, 1), "name", .string("Old app"))
        #expect(throws: StorageError.self) { try session.storeAtExit() }
        session.closeDataFolder()
        #expect(try identity(folder).0 == before.0)
        #expect(!FileManager.default.fileExists(atPath: folder.file("default.journal").path))
    }
}
