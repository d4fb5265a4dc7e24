import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// What a crash leaves of `okit-run convert` and `backup create` (storage.md "SQLite models", backups.md), and the
/// names a failed restore gives: a data-loss hunter's kill -9 left a model in both forms, and hidden temporaries
/// in the backup folder forever.
@Suite struct ConversionMarkerTests {
    func put(_ folder: TempFolder, _ rel: String, _ text: String) throws {
        let url = folder.url.appendingPathComponent(rel)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func names(_ folder: TempFolder, _ rel: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/" + rel)) ?? []).sorted()
    }

    func marker(_ folder: TempFolder) throws {
        let m = ConversionMarker(target: "default.sqlite", aside: [["default.json", "default.json.converted-X"],
                                                                  ["default.journal", "default.journal.converted-X"]])
        try put(folder, "okit/convert-in-progress", String(decoding: try JSONEncoder().encode(m), as: UTF8.self))
    }

    @Test func aConversionCutAfterTheNewFormWasInPlaceIsFinishedAtTheNextStart() throws {
        let folder = try TempFolder()
        try put(folder, "okit/data/default.json", "{}")
        try put(folder, "okit/data/default.journal", "j")
        try put(folder, "okit/data/default.sqlite", "db")
        try marker(folder)
        let storage = try FileStorage(dataFolder: folder.url)
        storage.close()
        #expect(names(folder, "okit/data") == ["default.journal.converted-X", "default.json.converted-X", "default.sqlite"])
        #expect(!names(folder, "okit").contains(ConversionMarker.name))
    }

    @Test func aConversionCutBeforeTheNewFormWasInPlaceIsUndoneAtTheNextStart() throws {
        let folder = try TempFolder()
        try put(folder, "okit/data/default.json", "{}")
        try put(folder, "okit/data/default.sqlite.converting", "half")
        try put(folder, "okit/data/default.sqlite.converting-wal", "half")
        try marker(folder)
        let storage = try FileStorage(dataFolder: folder.url)
        storage.close()
        #expect(names(folder, "okit/data") == ["default.json"])
        #expect(!names(folder, "okit").contains(ConversionMarker.name))
    }

    @Test func staleBackupTemporariesGoWhenNoProcessCanBeWritingThem() throws {
        let folder = try TempFolder()
        try put(folder, "okit/backup/.tmp3.okbackup.tmp", "half")
        try put(folder, "okit/backup/.upload-1234", "half")
        try put(folder, "okit/backup/kept.okbackup", "not a backup")
        try put(folder, "okit/backup/.mine", "a person's")
        // The folder is open (its lock held): a create may be writing them, so a list leaves them.
        let storage = try FileStorage(dataFolder: folder.url)   // cleans what a crash left, at its start
        #expect(names(folder, "okit/backup") == [".mine", "kept.okbackup"])
        try put(folder, "okit/backup/.tmp4.okbackup.tmp", "being written")
        _ = try BackupStore(dataFolder: folder.url).list()
        #expect(names(folder, "okit/backup").contains(".tmp4.okbackup.tmp"))
        storage.close()
        _ = try BackupStore(dataFolder: folder.url).list()
        #expect(names(folder, "okit/backup") == [".mine", "kept.okbackup"])
    }

    @Test func aRestoreThatCannotWriteNamesTheModelFileNotTheStagingFolder() throws {
        let folder = try TempFolder()
        var store = BackupStore(dataFolder: folder.url)
        store.isDiskFull = { _ in true }
        let staging = store.okit + "/restore-staging-1234"
        let e = store.stagingNamed(BackupError.io("daily", path: staging + "/default.json", "cannot create (No space left on device)"), staging: staging)
        let text = "\(e)"
        #expect(!text.contains("restore-staging"), "\(text)")
        #expect(text.contains("the restored copy of \(store.modelsFolder)/default.json"), "\(text)")
        #expect(text.contains("nothing was changed; free some space, then restore again"), "\(text)")
    }
}
