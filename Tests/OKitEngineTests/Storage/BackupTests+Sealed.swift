import Crypto
import Foundation
import Testing
import OKitTestSupport
import ZIPFoundation
@testable import OKitEngine
import OKitLua

/// Secure backups and sealed files (storage.md "Backups"), and the app's check of every file a restore brings.
extension BackupTests {
    @Test func aSecureBackupHoldsPlainFilesAndRestoresWithThePasswordAlone() throws {
        let folder = try TempFolder()
        try populate(folder, sealed: true)
        let store = BackupStore(dataFolder: folder.url)
        let info = try store.create(name: "safe", appId: "shop", password: Self.password,
                                    openSealed: { $0 == SealedFile.keyId(Self.key) ? Self.key : nil }, now: Self.t1)
        let file = [UInt8](try Data(contentsOf: info.url))
        #expect(SecureBackup.isSecure(file))
        #expect(!String(decoding: file, as: UTF8.self).contains("Dune"), "the archive is sealed")
        let inner = try SecureBackup.open(file, password: Self.password, backup: "safe", path: info.url.path)
        let zip = try entries(try Archive(data: Data(inner), accessMode: .read))
        let secret = try #require(zip["data/Secret.json"])
        #expect(!SealedFile.isSealed(secret) && String(decoding: secret, as: UTF8.self).contains("1234"))
        #expect(zip["data/Secret/_data/s1.raw"] == Array("secret bytes".utf8))
        let m = try BackupManifest.decode(try #require(zip["manifest.json"]))
        #expect(m.secure && m.files.allSatisfy { $0.keyId == nil })

        // Another machine: no key at all, the password alone.
        let other = try TempFolder()
        try put(other, "okit/data/Other.json", Array("{}".utf8))
        try BackupStore(dataFolder: other.url).restore(info.url.path, password: Self.password, key: { _ in nil }, validate: nil, progress: nil)
        let restored = snapshot(other)
        #expect(restored["Secret.json"] == secret)
        #expect(restored["Shop.json"] == snapshot(folder)["Shop.json"])
        #expect(restored["Other.json"] == nil)
    }

    @Test func aWrongOrMissingPasswordIsRefusedAndTheDataUntouched() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "safe", appId: "shop", password: Self.password, now: Self.t1)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let before = snapshot(folder)
        let wrong = backupError { try store.restore("safe", password: "not the password") }
        #expect(wrong?.kind == .wrongPassword)
        #expect(wrong?.description.hasPrefix("wrong password for backup safe") == true)
        #expect(backupError { try store.restore("safe") }?.kind == .passwordNeeded)
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)

        // A changed byte with the right password is damage, not a wrong password.
        var file = [UInt8](try Data(contentsOf: store.backupFolder.appendingPathComponent("safe.okbackup")))
        file[file.count - 40] ^= 1
        try Data(file).write(to: store.backupFolder.appendingPathComponent("flipped.okbackup"))
        #expect(backupError { try store.restore("flipped", password: Self.password) }?.kind == .damaged)
        #expect(snapshot(folder) == before)
    }

    @Test func aPlainBackupOfSealedFilesNeedsTheKey() throws {
        let folder = try TempFolder()
        try populate(folder, sealed: true)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "plain", appId: "shop", now: Self.t1)
        let original = snapshot(folder)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let before = snapshot(folder)
        let e = backupError { try store.restore("plain", key: { _ in nil }) }
        #expect(e?.kind == .keyNeeded)
        #expect(e?.description.contains("need the key they were written with (key id \(BackupHex.encode(SealedFile.keyId(Self.key))))") == true)
        #expect(e?.description.contains("set OKIT_PASSPHRASE or restore keys/data.key") == true)
        #expect(snapshot(folder) == before)
        #expect(backupError { try store.restore("plain", key: { _ in SymmetricKey(size: .bits256) }) }?.kind == .keyNeeded)
        #expect(snapshot(folder) == before)

        try store.restore("plain", key: { $0 == SealedFile.keyId(Self.key) ? Self.key : nil })
        #expect(snapshot(folder) == original, "sealed files stay sealed")
    }

    @Test func aSecureBackupOfSealedFilesNeedsTheirKeyToBeCreated() throws {
        let folder = try TempFolder()
        try populate(folder, sealed: true)
        let store = BackupStore(dataFolder: folder.url)
        let e = backupError { try store.create(name: "safe", appId: "shop", password: Self.password, openSealed: { _ in nil }, now: Self.t1) }
        #expect(e?.kind == .keyNeeded)
        #expect(try store.list().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.backupFolder.path).isEmpty, "no temporary left")
    }

    @Test func theValidateHookSeesEveryFileAndItsRefusalChangesNothing() throws {
        let folder = try TempFolder()
        try populate(folder, sealed: true)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "v", appId: "shop", now: Self.t1)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let before = snapshot(folder)
        struct SchemaRefusal: Error, CustomStringConvertible { var description: String { "books[0]/name: expected a string" } }
        var seen: [String: [UInt8]] = [:]
        let e = backupError {
            try store.restore("v", key: { _ in Self.key }, validate: { path, bytes in
                seen[path] = bytes
                if path == "Shop/g1.json" { throw SchemaRefusal() }
            }, progress: nil)
        }
        #expect(e?.kind == .invalidFile)
        #expect(e?.description.contains("Shop/g1.json does not load: books[0]/name: expected a string") == true)
        #expect(snapshot(folder) == before)
        #expect(leftovers(folder).isEmpty)
        #expect(seen["Secret.json"].map { String(decoding: $0, as: UTF8.self).contains("1234") } == true, "plain bytes")
    }

    @Test func aJSONFileThatDoesNotParseIsRefused() throws {
        let folder = try TempFolder()
        try populate(folder)
        try put(folder, "okit/data/Shop/g1.json", Array(#"{"id": "g1", "#.utf8))
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "broken", appId: "shop", now: Self.t1)
        try put(folder, "okit/data/Shop/g1.json", Array(#"{"id":"g1"}"#.utf8))
        let before = snapshot(folder)
        let e = backupError { try store.restore("broken") }
        #expect(e?.kind == .invalidFile)
        #expect(e?.description.contains("Shop/g1.json") == true)
        #expect(snapshot(folder) == before)
    }
}
