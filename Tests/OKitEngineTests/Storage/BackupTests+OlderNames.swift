import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Backups named under the looser rule of earlier versions (`before 10:30`, `50%`, a long name): the list shows
/// them, so a restore and a delete by that name find them; only a new backup's name is held to today's rule.
extension BackupTests {
    @Test(arguments: ["before 10:30", "50% done", "a*b", String(repeating: "x", count: 80)])
    func aBackupNamedUnderTheOlderRuleIsRestoredAndDeletedByItsName(_ old: String) throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let made = try store.create(name: "made today", appId: "shop", now: Self.t1)
        let oldFile = store.backupFolder.appendingPathComponent(old + ".okbackup")
        try FileManager.default.moveItem(at: made.url, to: oldFile)
        #expect(try store.list().map(\.name) == [old])
        let backedUp = snapshot(folder)
        try put(folder, "okit/data/Shop.json", Array(#"{"okit":{"version":1,"type":"Shop"},"books":[]}"#.utf8))
        _ = try store.restore(old, key: { _ in nil }, now: Self.t2)
        #expect(snapshot(folder) == backedUp, "restored by the name the list shows")
        try store.delete(name: old)
        #expect(try store.list().isEmpty)
        #expect(backupError { try store.create(name: old, appId: "shop", now: Self.t2) }?.kind == .invalidName,
                "a new backup is held to today's rule")
    }

    @Test func aNameOfSixtyCharactersOfManyBytesIsRefusedBeforeTheFileSystemDoes() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let heavy = String(repeating: "e\u{301}\u{302}\u{303}", count: 60)      // 60 characters, 420 bytes
        #expect(heavy.count == 60)
        let e = backupError { try store.create(name: heavy, appId: "shop", now: Self.t1) }
        #expect(e?.kind == .invalidName && e?.description.contains("longer than 60 characters") == true)
    }
}
