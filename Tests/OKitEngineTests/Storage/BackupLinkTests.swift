import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// backups.md: a model file that is a symbolic link to a regular file (storage.md "A link to a regular file is
/// followed") is in the backup as the file it leads to; a restore writes the restored file back through the link
/// and puts the link back.
@Suite struct BackupLinkTests {
    let t = BackupTests()

    /// A data folder whose Shop.json is a relative link to `<folder>/elsewhere/Shop.json`; returns the target.
    func linkedShop(_ folder: TempFolder, _ text: String) throws -> String {
        try t.put(folder, "elsewhere/Shop.json", Array(text.utf8))
        try FileManager.default.createDirectory(at: folder.modelsFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("Shop.json").path, withDestinationPath: "../../elsewhere/Shop.json")
        return folder.url.appendingPathComponent("elsewhere/Shop.json").path
    }

    @Test func aLinkedModelFileIsBackedUpAsTheFileItLeadsTo() throws {
        let folder = try TempFolder()
        let text = #"{"okit":{"version":1,"type":"Shop"},"books":[{"id":"b1","name":"Only in the target"}]}"#
        _ = try linkedShop(folder, text)
        let info = try BackupStore(dataFolder: folder.url).create(name: "b1", appId: "shop", now: BackupTests.t1)
        let zip = try t.entries(info.url)
        #expect(zip["data/Shop.json"] == Array(text.utf8))
        let m = try BackupManifest.decode(try #require(zip["manifest.json"]))
        #expect(m.files.map(\.path) == ["Shop.json"])
    }

    @Test func aRestoreWritesThroughTheLinkAndPutsItBack() throws {
        let folder = try TempFolder()
        let kept = #"{"okit":{"version":1,"type":"Shop"},"books":[{"id":"b1","name":"Kept"}]}"#
        let target = try linkedShop(folder, kept)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "b1", appId: "shop", now: BackupTests.t1)
        try t.put(folder, "elsewhere/Shop.json", Array(#"{"okit":{"version":1,"type":"Shop"},"books":[]}"#.utf8))

        #expect(try store.restore("b1") == [])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("Shop.json").path) == "../../elsewhere/Shop.json")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == kept)
        #expect(t.leftovers(folder).isEmpty)
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.modelsFolder.path)
        #expect(beside == ["Shop.json"], "no temporary left: \(beside)")
    }

    @Test func aLinkThatCannotBePutBackLeavesTheRestoredFileAndSaysSo() throws {
        let folder = try TempFolder()
        try t.put(folder, "okit/data/Shop.json", Array("{}".utf8))
        let store = BackupStore(dataFolder: folder.url)
        let gone = BackupStore.LinkedFile(path: "Shop.json", link: "/no/such/folder/Shop.json", target: "/no/such/folder/Shop.json")
        let notes = store.relink([gone], backup: "b1")
        #expect(notes.count == 1)
        #expect(notes.first?.contains("Shop.json was a link to /no/such/folder/Shop.json; the restored file is in the data folder instead") == true)
        #expect(folder.read("Shop.json") == "{}", "the restored data is complete")
    }
}

/// backups.md: `backup list` marks a file of the backup folder that does not read as a backup (truncated, garbage)
/// as damaged, with why; a good backup is not marked.
@Suite struct BackupListDamageTests {
    let t = BackupTests()

    @Test func truncatedAndGarbageFilesAreListedAsDamaged() throws {
        let folder = try TempFolder()
        try t.populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let good = try store.create(name: "daily", appId: "shop", now: BackupTests.t1)
        let bytes = try Data(contentsOf: good.url)
        let dir = store.backupFolder
        try bytes.prefix(bytes.count / 2).write(to: dir.appendingPathComponent("half.okbackup"))
        try bytes.prefix(100).write(to: dir.appendingPathComponent("tiny.okbackup"))
        try bytes.prefix(bytes.count - 10).write(to: dir.appendingPathComponent("short.okbackup"))
        try Data("garbage\n".utf8).write(to: dir.appendingPathComponent("garbage.okbackup"))
        try Data("OKITSBK1 short".utf8).write(to: dir.appendingPathComponent("secure-cut.okbackup"))

        let list = Dictionary(uniqueKeysWithValues: try store.list().map { ($0.name, $0) })
        #expect(list["daily"]?.damaged == nil)
        #expect(list["daily"]?.createdAt == BackupTests.t1)
        for name in ["half", "tiny", "short", "garbage", "secure-cut"] {
            let damaged = try #require(list[name]?.damaged, "\(name) is marked")
            #expect(!damaged.isEmpty && !damaged.contains("\n") && !damaged.contains(name + ".okbackup"), "\(name): \(damaged)")
        }
        #expect(list["garbage"]?.damaged?.contains("not a zip archive") == true, "\(list["garbage"]?.damaged ?? "")")
        #expect(list["secure-cut"]?.damaged == "the secure header is truncated")
        // A backup of another app is not damaged (a restore asks for --force).
        var other = store
        other.appId = "another"
        #expect(try other.list().first { $0.name == "daily" }?.damaged == nil)
    }
}

/// A backup that cannot be written on a full disk says so, once, without the hidden temporary's path twice.
@Suite struct BackupFullDiskTests {
    @Test func aCreateThatFailsOnAFullDiskSaysNoSpaceLeft() throws {
        let folder = try TempFolder()
        try BackupTests().populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        store.isDiskFull = { _ in true }
        // The temporary's name is taken by a folder: the archive cannot be written (as on a full disk).
        try FileManager.default.createDirectory(atPath: store.backupFolder.path + "/.full.okbackup.tmp", withIntermediateDirectories: true)
        do {
            try store.create(name: "full", appId: "shop")
            Issue.record("created")
        } catch let e as BackupError {
            #expect(e.kind == .io)
            #expect(e.description == "backup full: no space left on the disk for the backup; free some space and create it again (nothing was written): \(store.backupFolder.path)")
        }
        #expect(try store.list().isEmpty)
    }
}
