import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine
#if canImport(Glibc)
import Glibc
#endif

/// Files another program removes under a running app (storage.md "Files other programs remove"): the key file, a
/// model file with a journal, the lock file.
@Suite struct RemovedFilesTests {
    func keyFile(_ folder: TempFolder) -> String { folder.url.appendingPathComponent("okit/keys/data.key").path }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    // MARK: The key file

    @Test func aKeyFileRemovedWhileTheAppRunsIsWrittenAgainByTheNextSealedStore() throws {
        let folder = try TempFolder()
        let key: Data
        do {
            let (f, _) = try EncryptedStorageTests().open(folder, passphrase: nil, books: ["Dune"])
            try f.engine.store(f.shop)
            key = try Data(contentsOf: URL(fileURLWithPath: keyFile(folder)))
            try FileManager.default.removeItem(atPath: keyFile(folder))
            try f.engine.set(f.book(0), "name", .string("Dune Messiah"))
            try f.engine.store(f.shop)
            #expect(try Data(contentsOf: URL(fileURLWithPath: keyFile(folder))) == key, "the same key, from memory")
            let mode = try FileManager.default.attributesOfItem(atPath: keyFile(folder))[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(f.engine.warnings.contains { $0.contains("data.key was removed while the app ran; okit wrote it again") },
                    "\(f.engine.warnings)")
        }
        let (g, storage) = try EncryptedStorageTests().open(folder, passphrase: nil)
        let model = try g.engine.register(model: "default", type: "Shop", storage: storage)
        #expect(try g.engine.get(model.root, "books[0]/name").displayString == "Dune Messiah")
    }

    @Test func theExitWritesTheKeyFileAgainEvenWithNothingToStore() throws {
        let folder = try TempFolder()
        let (f, storage) = try EncryptedStorageTests().open(folder, passphrase: nil, books: ["Dune"])
        try f.engine.store(f.shop)
        try FileManager.default.removeItem(atPath: keyFile(folder))
        try storage.compact(f.shop, engine: f.engine)
        #expect(exists(keyFile(folder)))
    }

    @Test func aStartWithSealedFilesAndNoKeyFileMakesNoNewKey() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try EncryptedStorageTests().open(folder, passphrase: nil, books: ["Dune"])
            try f.engine.store(f.shop)
        }
        try FileManager.default.removeItem(atPath: keyFile(folder))
        let sealed = try Data(contentsOf: folder.file("default.json"))
        let storage = try FileStorage(dataFolder: folder.url)
        do {
            try storage.seal(model: "default", passphrase: nil)
            Issue.record("a new key was made")
        } catch let e as StorageError {
            #expect(e.description.contains("the key file okit/keys/data.key is missing, but \(folder.file("default.json").path) is sealed"), "\(e)")
            #expect(e.remedy == .restoreKeys)
        }
        #expect(!exists(keyFile(folder)), "no key file made")
        #expect(try Data(contentsOf: folder.file("default.json")) == sealed)
    }

    @Test func aStartWithSealedFilesAndNoSaltMakesNoNewSalt() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try EncryptedStorageTests().open(folder, passphrase: "pass", books: ["Dune"])
            try f.engine.store(f.shop)
        }
        let salt = folder.url.appendingPathComponent("okit/keys/salt").path
        try FileManager.default.removeItem(atPath: salt)
        #expect(throws: StorageError.self) { try DataKeys.key(dataFolder: folder.url, passphrase: "pass") }
        do { _ = try DataKeys.key(dataFolder: folder.url, passphrase: "pass") } catch let e as StorageError {
            #expect(e.description.contains("the salt file okit/keys/salt is missing"), "\(e)")
        }
        #expect(!exists(salt))
    }

    @Test func aSealedFileMovedAsideByRecoverLetsANewKeyBeMade() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try EncryptedStorageTests().open(folder, passphrase: nil, books: ["Dune"])
            try f.engine.store(f.shop)
        }
        try FileManager.default.removeItem(atPath: keyFile(folder))
        try FileStorage.recover(dataFolder: folder.url, model: "default")
        _ = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(exists(keyFile(folder)))
    }

    // MARK: A journal without its model file

    /// A shop of 200 books stored whole, then one rename stored into the journal.
    func journaled(_ folder: TempFolder) throws -> (ShopFixture, FileStorage) {
        let (f, s) = try FileStorageTests().open(folder)
        try f.start(storage: s, books: (0..<200).map { "Book \($0)" })
        try f.engine.store(f.shop)
        try f.engine.set(f.book(1), "name", .string("Confirmed rename"))
        guard case .journal = try f.engine.store(f.shop) else { throw FixtureError.boom }
        return (f, s)
    }

    @Test func aStoreAfterTheModelFileWasRemovedWritesTheWholeModel() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try journaled(folder)
            try FileManager.default.removeItem(at: folder.file("default.json"))
            try f.engine.set(f.book(1), "name", .string("Confirmed rename 2"))
            guard case .full = try f.engine.store(f.shop) else { Issue.record("expected a full write"); return }
            #expect(f.engine.warnings.contains { $0.contains("default.json was removed by another program while the app ran; okit wrote the whole model again") },
                    "\(f.engine.warnings)")
            #expect(folder.read("default.journal") == nil)
            // The next small change journals again, beside the file just written.
            try f.engine.set(f.book(2), "name", .string("Journaled"))
            guard case .journal = try f.engine.store(f.shop) else { Issue.record("expected a journal write"); return }
        }
        let (g, s) = try FileStorageTests().open(folder)
        try g.start(storage: s, books: [])
        #expect(g.book(1)["name"]!.description == "Confirmed rename 2")
        #expect(g.book(2)["name"]!.description == "Journaled")
    }

    @Test func aStoreAfterTheModelFileWasReplacedWritesTheWholeModel() throws {
        let folder = try TempFolder()
        let (f, _) = try journaled(folder)
        let copy = folder.file("copy.json")
        try FileManager.default.copyItem(at: folder.file("default.json"), to: copy)
        #expect(rename(copy.path, folder.file("default.json").path) == 0)
        try f.engine.set(f.book(1), "name", .string("Again"))
        guard case .full = try f.engine.store(f.shop) else { Issue.record("expected a full write"); return }
        #expect(folder.read("default.json")?.contains("Again") == true)
    }

    @Test func aJournalWithoutItsModelFileStopsTheStartAndIsKept() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try journaled(folder)
            _ = f
        }
        try FileManager.default.removeItem(at: folder.file("default.json"))
        let journal = try Data(contentsOf: folder.file("default.journal"))
        do {
            let (g, s) = try FileStorageTests().open(folder)
            do {
                _ = try g.engine.register(model: "default", type: "Shop", storage: s)
                Issue.record("the model started fresh")
            } catch let e as StorageError {
                #expect(e.description.contains("a journal of changes without its model file default.json"), "\(e)")
                #expect(e.path == folder.file("default.journal").path)
                #expect(e.remedy == .restoreModelFile(model: "default"))
            }
            // A store of the model that did not load writes nothing.
        }
        #expect(try Data(contentsOf: folder.file("default.journal")) == journal, "the journal is left as it is")
        #expect(folder.read("default.json") == nil, "no fresh model written")
        // --recover moves the journal aside; the model then starts fresh.
        let moved = try FileStorage.recover(dataFolder: folder.url, model: "default")
        #expect(moved.count == 1 && moved[0].contains("default.journal.corrupt-"))
        let (h, s) = try FileStorageTests().open(folder)
        _ = try h.engine.register(model: "default", type: "Shop", storage: s)
    }

    // MARK: The lock file

    var lockFile: (TempFolder) -> String { { $0.url.appendingPathComponent("okit/lock").path } }

    @Test func aLockFileRemovedWhileTheAppRunsIsTakenAgainAtTheNextStore() throws {
        let folder = try TempFolder()
        let (f, s) = try FileStorageTests().open(folder)
        try f.start(storage: s, books: ["Dune"])
        try FileManager.default.removeItem(atPath: lockFile(folder))
        try f.engine.set(f.book(0), "name", .string("Dune 2"))
        try f.engine.store(f.shop)
        #expect(f.engine.warnings.contains { $0.contains("lock was removed while the app ran; okit made it again") }, "\(f.engine.warnings)")
        // Another process (another open file description) is refused the lock again.
        let other = open(lockFile(folder), O_RDWR)
        defer { close(other) }
        #expect(other >= 0)
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    }

    @Test func aStoreAfterAnotherProcessTookTheRemovedLockIsRefused() throws {
        let folder = try TempFolder()
        let (f, s) = try FileStorageTests().open(folder)
        try f.start(storage: s, books: ["Dune"])
        try f.engine.store(f.shop)
        let stored = folder.read("default.json")
        try FileManager.default.removeItem(atPath: lockFile(folder))
        // Another okit process: it makes the lock file again and locks it, stores, and quits (unlocks).
        let other = open(lockFile(folder), O_RDWR | O_CREAT, 0o644)
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        close(other)
        try f.engine.set(f.book(0), "name", .string("Overwrite"))
        for _ in 0..<2 {
            do {
                try f.engine.store(f.shop)
                Issue.record("stored over another process's data")
            } catch let e as StorageError {
                #expect(e.kind == .locked)
                #expect(e.description.contains("the lock file okit/lock was removed while this app ran and another okit process has opened this data folder since"), "\(e)")
            }
        }
        #expect(throws: StorageError.self) { try s.compact(f.shop, engine: f.engine) }
        #expect(folder.read("default.json") == stored, "nothing written")
    }
}
