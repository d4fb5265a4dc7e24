import Crypto
import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// `okit-run keys passphrase` (storage.md "Keys"): every sealed file re-sealed with the new key, crash-safely; a
/// wrong old passphrase changes nothing; an interrupted change is readable with either passphrase and finished
/// by running it again. The same few passphrases are used throughout (each derivation costs a PBKDF2).
@Suite struct KeyChangeTests {
    /// The sealed files of `sealedFolder`, relative to `<data>/okit`, in the order a change visits them.
    static let sealedFiles = ["data/default/_data/d1.raw", "data/default/_image/i1.png", "data/default/p1.json", "data/default.json",
                              "pending/default.json"]
    static let plainFile = "data/default/_data/plain.raw"

    /// A data folder sealed with the key from `passphrase` (nil: the key file): the shop model written by
    /// `FileStorage`, and by hand a partial's payload, an image, a data file and a body waiting for a server
    /// sealed with the same key, and a plain data file. The storage is closed before returning.
    func sealedFolder(_ passphrase: String?) throws -> (TempFolder, SymmetricKey) {
        let folder = try TempFolder()
        let key: SymmetricKey
        do {
            let f = try ShopFixture()
            let storage = try FileStorage(dataFolder: folder.url)
            try storage.seal(model: "default", passphrase: passphrase)
            try f.start(storage: storage, books: ["Dune Secret"])
            try f.engine.store(f.shop)
            key = try #require(storage.keys["default"])
            storage.close()
        }
        try put("pending/default.json", try SealedFile.seal(Array(#"{"okit":{"version":1,"type":"Shop"}}"#.utf8), key: key), in: folder)
        try put("data/default/p1.json", try SealedFile.seal(Array(#"{"okit":{"version":1,"type":"Book"},"name":"Payload"}"#.utf8), key: key), in: folder)
        try put("data/default/_image/i1.png", try SealedFile.seal([0x89, 0x50, 0x4E, 0x47, 1, 2, 3], key: key), in: folder)
        try put("data/default/_data/d1.raw", try SealedFile.seal(Array("raw bytes".utf8), key: key), in: folder)
        try put(Self.plainFile, Array("plain bytes".utf8), in: folder)
        return (folder, key)
    }

    func put(_ relative: String, _ bytes: [UInt8], in folder: TempFolder) throws {
        let url = folder.url.appendingPathComponent("okit/" + relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func bytes(_ relative: String, in folder: TempFolder) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("okit/" + relative)))
    }

    func keysFile(_ name: String, in folder: TempFolder) -> String { folder.url.appendingPathComponent("okit/keys/\(name)").path }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Every file under `<data>/okit` with its bytes.
    func snapshot(_ folder: TempFolder) throws -> [String: [UInt8]] {
        let root = folder.url.appendingPathComponent("okit").path
        var out: [String: [UInt8]] = [:]
        let e = try #require(FileManager.default.enumerator(atPath: root))
        while let name = e.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDir), !isDir.boolValue {
                out[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/" + name)))
            }
        }
        return out
    }

    /// Expects every sealed file to open with `key` (and be sealed with it).
    func expectAllOpen(_ folder: TempFolder, with key: SymmetricKey, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for file in Self.sealedFiles {
            let sealed = try bytes(file, in: folder)
            #expect(KeyChange.sealedKeyId(sealed) == SealedFile.keyId(key), "\(file) is sealed with the new key", sourceLocation: sourceLocation)
            #expect((try? SealedFile.open(sealed, key: key)) != nil, "\(file) opens", sourceLocation: sourceLocation)
        }
    }

    @Test func aPassphraseChangeReSealsEveryFileAndTheOldPassphraseNoLongerOpensThem() throws {
        let (folder, a) = try sealedFolder("A")
        let plain = try bytes(Self.plainFile, in: folder)
        var reports: [Int] = []
        let count = try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "B") { done, total in
            #expect(total == 5)
            reports.append(done)
        }
        #expect(count == 5)
        #expect(reports == [1, 2, 3, 4, 5])
        let keys = try KeyChange.keys(dataFolder: folder.url, passphrase: "B")
        #expect(keys.map(SealedFile.keyId).suffix(1) == [SealedFile.keyId(a)], "the new key first, then the retired one")
        let b = try #require(keys.first)
        try expectAllOpen(folder, with: b)
        for file in Self.sealedFiles {
            #expect(throws: SealedFile.OpenError.self) { try SealedFile.open(try bytes(file, in: folder), key: a) }
        }
        #expect(try bytes(Self.plainFile, in: folder) == plain, "a plain file is left plain")
        // The old passphrase, with the new salt, gives another key.
        let aNow = try DataKeys.key(dataFolder: folder.url, passphrase: "A")
        #expect(SealedFile.keyId(aNow) != SealedFile.keyId(b))
        #expect(throws: SealedFile.OpenError.self) { try SealedFile.open(try bytes("data/default.json", in: folder), key: aNow) }
        // Nothing of the change is left; the salt is private.
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
        for leftover in ["salt.new", "data.key", "data.key.new", "change-in-progress"] { #expect(!exists(keysFile(leftover, in: folder)), "\(leftover)") }
        let mode = try FileManager.default.attributesOfItem(atPath: keysFile("salt", in: folder))[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        // The model loads with the new key.
        let f = try ShopFixture()
        let storage = try FileStorage(dataFolder: folder.url)
        storage.seal(model: "default", key: b)
        let model = try f.engine.register(model: "default", type: "Shop", storage: storage)
        #expect(try f.engine.get(model.root, "books[0]/name").displayString == "Dune Secret")
    }

    @Test func aWrongOldPassphraseChangesNothing() throws {
        let (folder, _) = try sealedFolder("A")
        let before = try snapshot(folder)
        do {
            try KeyChange.changePassphrase(dataFolder: folder.url, old: "B", new: "C")
            Issue.record("a wrong passphrase was accepted")
        } catch let e as KeyChangeError {
            #expect(e.kind == .wrongOld)
            #expect(e.description.contains("the current passphrase is wrong: no file opens with it"))
        }
        #expect(try snapshot(folder) == before, "byte-identical tree")
        // The key file is not the key either (and there is none).
        #expect(throws: KeyChangeError.self) { try KeyChange.changePassphrase(dataFolder: folder.url, old: nil, new: "C") }
        #expect(try snapshot(folder) == before)
    }

    @Test func aKeyFileBecomesAPassphraseAndBack() throws {
        let (folder, k) = try sealedFolder(nil)
        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: nil, new: "B") == 5)
        #expect(exists(keysFile("salt", in: folder)) && !exists(keysFile("data.key", in: folder)))
        let b = try #require(try KeyChange.keys(dataFolder: folder.url, passphrase: "B").first)
        try expectAllOpen(folder, with: b)

        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: "B", new: "") == 5)
        #expect(!exists(keysFile("salt", in: folder)) && exists(keysFile("data.key", in: folder)))
        let mode = try FileManager.default.attributesOfItem(atPath: keysFile("data.key", in: folder))[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let fresh = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(SealedFile.keyId(fresh) != SealedFile.keyId(k), "a fresh random key file")
        try expectAllOpen(folder, with: fresh)
        #expect(try KeyChange.keys(dataFolder: folder.url, passphrase: nil).map(SealedFile.keyId) == [SealedFile.keyId(fresh), SealedFile.keyId(b), SealedFile.keyId(k)],
                "the current key, then the keys the changes retired, newest first")
    }

    @Test func anInterruptedChangeIsReadableWithEitherPassphraseAndFinishedByRunningItAgain() throws {
        let (folder, a) = try sealedFolder("A")
        #expect(try KeyChange.change(dataFolder: folder.url, old: "A", new: "B", progress: nil, crash: .afterFiles(2)) == 2)
        #expect(KeyChange.interruptedChange(dataFolder: folder.url))
        #expect(exists(keysFile("salt.new", in: folder)))

        let withA = try KeyChange.keys(dataFolder: folder.url, passphrase: "A")
        let withB = try KeyChange.keys(dataFolder: folder.url, passphrase: "B")
        #expect(withA.count == 2)
        #expect(withA.first.map(SealedFile.keyId) == SealedFile.keyId(a), "the current key first")
        #expect(withA.map(SealedFile.keyId) == withB.map(SealedFile.keyId), "either passphrase finds both keys")
        var sealedWithNew = 0
        for file in Self.sealedFiles {
            let sealed = try bytes(file, in: folder)
            let key = try #require(KeyChange.key(opening: sealed, among: withB), "\(file) has a key")
            #expect((try? SealedFile.open(sealed, key: key)) != nil)
            if SealedFile.keyId(key) == SealedFile.keyId(withA[1]) { sealedWithNew += 1 }
        }
        #expect(sealedWithNew == 2, "two files re-sealed before the crash")

        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "B") == 3, "the rest")
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
        #expect(!exists(keysFile("salt.new", in: folder)))
        let b = try #require(try KeyChange.keys(dataFolder: folder.url, passphrase: "B").first)
        #expect(SealedFile.keyId(b) == SealedFile.keyId(withA[1]), "the new key of the interrupted attempt")
        try expectAllOpen(folder, with: b)
    }

    @Test func anInterruptedChangeCanBeFinishedWithAnotherNewPassphrase() throws {
        let (folder, _) = try sealedFolder("A")
        #expect(try KeyChange.change(dataFolder: folder.url, old: "A", new: "B", progress: nil, crash: .afterFiles(2)) == 2)
        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "C") == 5)
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
        try expectAllOpen(folder, with: try #require(try KeyChange.keys(dataFolder: folder.url, passphrase: "C").first))
    }

    @Test func aCrashAfterTheRenameIsFinishedByRunningItAgain() throws {
        let (folder, k) = try sealedFolder(nil)
        #expect(try KeyChange.change(dataFolder: folder.url, old: nil, new: "B", progress: nil, crash: .beforeMarkerRemoval) == 5)
        #expect(KeyChange.interruptedChange(dataFolder: folder.url))
        #expect(exists(keysFile("salt", in: folder)) && !exists(keysFile("data.key", in: folder)))
        let keys = try KeyChange.keys(dataFolder: folder.url, passphrase: "B")
        #expect(keys.map(SealedFile.keyId).first == SealedFile.keyId(k), "the old key is found through the marker")
        #expect(keys.count == 2)
        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: nil, new: "B") == 0)
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
        try expectAllOpen(folder, with: keys[1])
    }

    @Test func aFileSealedWithAnotherKeyStopsTheChangeBeforeAnythingChanges() throws {
        let (folder, _) = try sealedFolder("A")
        try put("data/default/_data/other.raw", try SealedFile.seal([1, 2, 3], key: SymmetricKey(size: .bits256)), in: folder)
        let before = try snapshot(folder)
        do {
            try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "B")
            Issue.record("a file of another key was accepted")
        } catch let e as KeyChangeError {
            #expect(e.kind == .otherKey)
            #expect(e.path.hasSuffix("default/_data/other.raw"))
            #expect(e.description.contains("nothing was changed"))
        }
        #expect(try snapshot(folder) == before)
    }

    @Test func aDamagedFileStopsTheChangeAndTheRestStaysReadable() throws {
        let (folder, a) = try sealedFolder("A")
        var damaged = try bytes("data/default/_image/i1.png", in: folder)
        damaged[damaged.count - 3] ^= 0x01
        try put("data/default/_image/i1.png", damaged, in: folder)
        do {
            try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "B")
            Issue.record("a damaged file was re-sealed")
        } catch let e as KeyChangeError {
            #expect(e.kind == .damaged)
            #expect(e.path.hasSuffix("data/default/_image/i1.png"))
            #expect(e.description.contains("wrong key or damaged file"))
        }
        #expect(try bytes("data/default/_image/i1.png", in: folder) == damaged, "never written over")
        #expect(KeyChange.interruptedChange(dataFolder: folder.url))
        let keys = try KeyChange.keys(dataFolder: folder.url, passphrase: "A")
        #expect(keys.first.map(SealedFile.keyId) == SealedFile.keyId(a))
        for file in Self.sealedFiles where file != "data/default/_image/i1.png" {
            let sealed = try bytes(file, in: folder)
            #expect((try? SealedFile.open(sealed, key: try #require(KeyChange.key(opening: sealed, among: keys)))) != nil, "\(file)")
        }
        // Moved aside, the change finishes.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("okit/data/default/_image/i1.png"))
        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: "A", new: "B") == 3)
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
    }

    @Test func theDataFolderMustBeFreeAndExist() throws {
        let folder = try TempFolder()
        let storage = try FileStorage(dataFolder: folder.url)
        do {
            try KeyChange.changePassphrase(dataFolder: folder.url, old: nil, new: nil)
            Issue.record("changed the key of an open data folder")
        } catch let e as StorageError {
            #expect(e.kind == .locked)
        }
        storage.close()
        #expect(try KeyChange.changePassphrase(dataFolder: folder.url, old: nil, new: nil) == 0, "no sealed file: only the key changes")
        #expect(exists(keysFile("data.key", in: folder)))
        do {
            try KeyChange.changePassphrase(dataFolder: folder.url.appendingPathComponent("missing"), old: nil, new: nil)
            Issue.record("a missing data folder was accepted")
        } catch let e as KeyChangeError {
            #expect(e.kind == .noData)
        }
    }

    @Test func keysWithoutAChangeAreTheDataFoldersKey() throws {
        let folder = try TempFolder()
        let k = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(!KeyChange.interruptedChange(dataFolder: folder.url))
        #expect(try KeyChange.keys(dataFolder: folder.url, passphrase: nil).map(SealedFile.keyId) == [SealedFile.keyId(k)])
        let sealed = try SealedFile.seal([1], key: k)
        #expect(KeyChange.key(opening: sealed, among: [SymmetricKey(size: .bits256), k]).map(SealedFile.keyId) == SealedFile.keyId(k))
        #expect(KeyChange.key(opening: [1, 2, 3], among: [k]) == nil)
    }
}
