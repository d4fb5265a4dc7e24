import Crypto
import Foundation
import Testing
import OKitTestSupport
import ZIPFoundation
@testable import OKitEngine
import OKitLua

/// Interrupted restores (storage.md "Backups"): a restore cut short at any point is finished or undone at the next
/// start, and the folder swap it rests on.
extension BackupTests {
    // MARK: Interrupted restores

    @Test(arguments: [FolderSwap.CrashPoint.afterMarker, .afterMovingOldAside, .afterMovingStagingIn])
    func anInterruptedRestoreIsCompletedAtTheNextStart(_ crash: FolderSwap.CrashPoint) throws {
        let folder = try TempFolder()
        try populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        try store.create(name: "b", appId: "shop", now: Self.t1)
        let backedUp = snapshot(folder)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        store.useRenameExchange = false
        store.crashPoint = crash
        try store.restore("b")
        #expect(FileManager.default.fileExists(atPath: folder.url.path + "/okit/restore-in-progress"))
        try BackupStore.completeInterruptedRestore(dataFolder: folder.url)
        #expect(snapshot(folder) == backedUp)
        #expect(leftovers(folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.path + "/okit/restore-in-progress"))
        try BackupStore.completeInterruptedRestore(dataFolder: folder.url)   // nothing left to do
        #expect(snapshot(folder) == backedUp)
    }

    @Test func anInterruptedRestoreWhoseStagingIsGoneIsUndone() throws {
        let folder = try TempFolder()
        try populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        try store.create(name: "b", appId: "shop", now: Self.t1)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let current = snapshot(folder)
        store.useRenameExchange = false
        store.crashPoint = .afterMovingOldAside
        try store.restore("b")
        #expect(!FileManager.default.fileExists(atPath: folder.modelsFolder.path), "between the two renames")
        let staging = try #require(leftovers(folder).first { $0.hasPrefix("restore-staging-") })
        try FileManager.default.removeItem(atPath: folder.url.path + "/okit/" + staging)
        try BackupStore.completeInterruptedRestore(dataFolder: folder.url)
        #expect(snapshot(folder) == current, "the old data is put back")
        #expect(leftovers(folder).isEmpty)
    }

    @Test func leftoversOfACrashBeforeTheSwapAreRemovedAndTheDataKept() throws {
        let folder = try TempFolder()
        try populate(folder)
        let before = snapshot(folder)
        try put(folder, "okit/restore-staging-1234/Shop.json", Array("{}".utf8))
        try put(folder, "okit/restore-old-5678/Shop.json", Array("{}".utf8))
        try BackupStore.completeInterruptedRestore(dataFolder: folder.url)
        #expect(leftovers(folder).isEmpty)
        #expect(snapshot(folder) == before)
    }

    /// A process that dies after the swap, while the restored data is read and migrated, leaves the replaced data
    /// where the next start's clean-up does not delete it (a review: it was `restore-old-…`/`restore-staging-…`,
    /// which `complete` deletes, so a migration that crashed lost the data it replaced).
    @Test func theReplacedDataOutlivesACrashWhileTheRestoredDataLoads() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "b", appId: "shop", now: Self.t1)
        try put(folder, "okit/data/Shop.json", Array(#"{"after":1}"#.utf8))
        let current = snapshot(folder)
        let swapped = try store.restoreSwapped("b")
        let pending = try #require(swapped.replaced)
        #expect((pending as NSString).lastPathComponent.hasPrefix("data-before-restore-pending-"))
        try BackupStore.completeInterruptedRestore(dataFolder: folder.url)   // the next start, after a crash here
        #expect(FileManager.default.contents(atPath: pending + "/Shop.json") == Data(#"{"after":1}"#.utf8))
        try swapped.undo()
        #expect(snapshot(folder) == current, "and it is the data a restore that does not load puts back")
        #expect(!FileManager.default.fileExists(atPath: pending))
    }

    @Test func theKeyDerivationIsCachedPerPasswordAndSalt() throws {
        let salt = Array(repeating: UInt8(9), count: 16)
        let a = try SecureBackup.derive(password: Self.password, salt: salt, rounds: SecureBackup.rounds)
        let b = try SecureBackup.derive(password: Self.password, salt: salt, rounds: SecureBackup.rounds)
        let c = try SecureBackup.derive(password: Self.password, salt: Array(repeating: 8, count: 16), rounds: SecureBackup.rounds)
        #expect(SealedFile.keyId(a) == SealedFile.keyId(b))
        #expect(SealedFile.keyId(a) != SealedFile.keyId(c))
        #expect(SecureBackup.rounds >= 600_000)
    }
}

extension BackupTests {
    @Test func renameExchangeSwapsTwoFoldersInOneStep() throws {
        let folder = try TempFolder()
        try put(folder, "a/one", [1])
        try put(folder, "b/two", [2])
        let a = folder.url.path + "/a", b = folder.url.path + "/b"
        #expect(FolderSwap.exchange(a, b) == true, "renameat2(RENAME_EXCHANGE) is found with dlsym and works here")
        #expect(FileManager.default.fileExists(atPath: a + "/two") && FileManager.default.fileExists(atPath: b + "/one"))
    }
}
