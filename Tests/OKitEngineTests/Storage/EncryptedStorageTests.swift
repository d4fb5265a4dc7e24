import Crypto
import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Encrypted models (storage.md): files sealed with AES-256-GCM under the data folder's key; a wrong key or a
/// changed byte is refused and the file is left as it is.
@Suite struct EncryptedStorageTests {
    /// A shop in `folder`, sealed with the key from `passphrase` (nil: the key file); the storage is released with
    /// the fixture.
    func open(_ folder: TempFolder, passphrase: String?, books: [String]? = nil) throws -> (ShopFixture, FileStorage) {
        let f = try ShopFixture()
        let storage = try FileStorage(dataFolder: folder.url)
        try storage.seal(model: "default", passphrase: passphrase)
        if let books { try f.start(storage: storage, books: books) }
        return (f, storage)
    }

    func bytes(_ folder: TempFolder) throws -> [UInt8] { [UInt8](try Data(contentsOf: folder.file("default.json"))) }

    @Test func aSealedModelRoundTripsAndHoldsNoPlaintext() throws {
        let folder = try TempFolder()
        do {
            let (f, storage) = try open(folder, passphrase: "correct horse", books: ["Dune Secret"])
            try f.engine.store(f.shop)
            _ = storage
        }
        let sealed = try bytes(folder)
        #expect(SealedFile.isSealed(sealed))
        #expect(String(decoding: sealed, as: UTF8.self).contains("Dune Secret") == false)
        let (f, storage) = try open(folder, passphrase: "correct horse")
        let model = try f.engine.register(model: "default", type: "Shop", storage: storage)
        #expect(try f.engine.get(model.root, "books[0]/name").displayString == "Dune Secret")
    }

    @Test func aWrongPassphraseIsRefusedAndTheFileIsUnchanged() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try open(folder, passphrase: "right", books: ["Dune"])
            try f.engine.store(f.shop)
        }
        let before = try bytes(folder)
        let (f, storage) = try open(folder, passphrase: "wrong")
        #expect(throws: StorageError.self) { try f.engine.register(model: "default", type: "Shop", storage: storage) }
        #expect(try bytes(folder) == before)
    }

    @Test func aFlippedByteIsRefusedAndTheFileIsUnchanged() throws {
        let folder = try TempFolder()
        do {
            let (f, _) = try open(folder, passphrase: nil, books: ["Dune"])
            try f.engine.store(f.shop)
        }
        var damaged = try bytes(folder)
        damaged[damaged.count / 2] ^= 0x01
        try Data(damaged).write(to: folder.file("default.json"))
        let (f, storage) = try open(folder, passphrase: nil)
        do {
            _ = try f.engine.register(model: "default", type: "Shop", storage: storage)
            Issue.record("a damaged file loaded")
        } catch let e as StorageError {
            #expect(e.description.contains("wrong key or damaged file"))
            // The way out (the passphrase, a backup, recovering the model) is data; okit-run words it (CommandLineAdviceTests).
            #expect(e.remedy == .passphraseBackupOrAside(model: "default", path: e.path), "the way out: \(e.description)")
            #expect(e.description.split(separator: "\n").count == 1)
        }
        #expect(try bytes(folder) == damaged, "never written over")
    }

    @Test func theKeyFileIsPrivateAndReused() throws {
        let folder = try TempFolder()
        let a = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        let b = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(SealedFile.keyId(a) == SealedFile.keyId(b))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("okit/keys/data.key").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func aPlainFileIsReadByAnEncryptedModelAndSealedOnTheNextWrite() throws {
        let folder = try TempFolder()
        do {
            let f = try ShopFixture()
            try f.start(storage: try FileStorage(dataFolder: folder.url), books: ["Plain"])
            try f.engine.store(f.shop)
        }
        #expect(!SealedFile.isSealed(try bytes(folder)))
        let (f, storage) = try open(folder, passphrase: nil)
        let model = try f.engine.register(model: "default", type: "Shop", storage: storage)
        try f.engine.set(try #require(f.engine.get(model.root, "books[0]").entity), "name", .string("Now sealed"))
        try f.engine.store(model)
        #expect(SealedFile.isSealed(try bytes(folder)), "an encrypted model never journals plaintext: a full sealed write")
        #expect(!FileManager.default.fileExists(atPath: folder.file("default.journal").path))
    }

    @Test func switchingSealingRewritesTheModelInTheNewForm() throws {
        let folder = try TempFolder()
        let (f, storage) = try open(folder, passphrase: nil, books: ["Switch"])
        try f.engine.store(f.shop)
        #expect(SealedFile.isSealed(try bytes(folder)))
        try storage.setSealing(f.shop, false, passphrase: nil, engine: f.engine)
        let plain = try bytes(folder)
        #expect(!SealedFile.isSealed(plain) && String(decoding: plain, as: UTF8.self).contains("Switch"))
        try storage.setSealing(f.shop, true, passphrase: nil, engine: f.engine)
        #expect(SealedFile.isSealed(try bytes(folder)))
        try storage.setSealing(f.shop, true, passphrase: nil, engine: f.engine)   // no change: nothing written
    }

    @Test func sealedFilesFromAnotherKeyNameTheKey() throws {
        let key = SymmetricKey(size: .bits256), other = SymmetricKey(size: .bits256)
        let sealed = try SealedFile.seal(Array("hello".utf8), key: key)
        #expect(try SealedFile.open(sealed, key: key) == Array("hello".utf8))
        #expect(throws: SealedFile.OpenError.self) { try SealedFile.open(sealed, key: other) }
        #expect(throws: SealedFile.OpenError.self) { try SealedFile.open(Array(sealed.prefix(20)), key: key) }
        #expect(try SealedFile.seal(Array("hello".utf8), key: key) != sealed, "a fresh nonce per write")
    }

    func mode(_ path: String) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func looseKeyPermissionsAreTightened() throws {
        let folder = try TempFolder()
        let keys = folder.url.appendingPathComponent("okit/keys").path
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let first = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(try mode(keys) == 0o700, "keys/ is private")
        #expect(try mode(keys + "/data.key") == 0o600)
        chmod(keys + "/data.key", 0o644)
        let again = try DataKeys.key(dataFolder: folder.url, passphrase: nil)
        #expect(SealedFile.keyId(again) == SealedFile.keyId(first))
        #expect(try mode(keys + "/data.key") == 0o600, "a key file readable by others is made private")
    }

    @Test func theOtherKindOfKeyIsRefusedInsteadOfCreatingASecondKey() throws {
        let folder = try TempFolder()
        let keys = folder.url.appendingPathComponent("okit/keys").path
        _ = try DataKeys.key(dataFolder: folder.url, passphrase: "pass")
        #expect(throws: StorageError.self) { _ = try DataKeys.key(dataFolder: folder.url, passphrase: nil) }
        #expect(!FileManager.default.fileExists(atPath: keys + "/data.key"), "no stray key file")
        let other = try TempFolder()
        _ = try DataKeys.key(dataFolder: other.url, passphrase: nil)
        do {
            _ = try DataKeys.key(dataFolder: other.url, passphrase: "pass")
            Issue.record("a passphrase was accepted for a key-file folder")
        } catch let e as StorageError {
            #expect(e.description.contains("not a passphrase"))
            #expect(e.remedy == .unsetPassphrase)   // okit-run's words for it: CommandLineAdviceTests
        }
        #expect(!FileManager.default.fileExists(atPath: other.url.appendingPathComponent("okit/keys/salt").path), "no stray salt")
    }
}
