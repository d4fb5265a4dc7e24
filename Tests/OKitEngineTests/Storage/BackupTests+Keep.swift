import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// What a restore keeps (backups.md "What a restore keeps"): the files okit did not write as a model's data are
/// carried into the restored folder; the data a newer app version stored is kept whole beside it.
extension BackupTests {
    @Test func aRestoreCarriesFilesThatAreNotModelDataAndCanKeepTheOldData() throws {
        let folder = try TempFolder()
        try populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "good", appId: "shop", now: Self.t1)
        let backedUp = snapshot(folder)
        let current = Array(#"{"okit":{"version":2,"type":"Shop"},"books":[]}"#.utf8)
        try put(folder, "okit/data/Shop.json", current)
        try put(folder, "okit/data/Added.json", Array("{}".utf8))
        try put(folder, "okit/data/Old.json.corrupt-20260101T000000Z", Array("moved aside".utf8))
        try put(folder, "okit/data/Shop.sqlite.converted-20260101T000000Z", Array("old form".utf8))
        try put(folder, "okit/data/notes.txt", Array("mine".utf8))
        let before = snapshot(folder)
        let notes = try store.restore("good", key: { _ in nil }, keepOld: true, now: Self.t2)

        var expected = backedUp
        for name in ["Old.json.corrupt-20260101T000000Z", "Shop.sqlite.converted-20260101T000000Z", "notes.txt"] { expected[name] = before[name] }
        #expect(snapshot(folder) == expected, "model data is the backup's; the other files are carried")
        let kept = folder.url.path + "/okit/data-before-restore-20231114T231320Z"
        #expect(notes == ["the data the restore replaced is kept in \(kept)"])
        #expect(FileManager.default.contents(atPath: kept + "/Shop.json").map(Array.init) == current)
        #expect(FileManager.default.contents(atPath: kept + "/Added.json") != nil)
        #expect(FileManager.default.contents(atPath: kept + "/Shop/g1.json") != nil, "the whole folder")
        #expect(leftovers(folder).isEmpty)

        // Without keepOld, nothing is kept beside the data; a carried file the backup holds too is not doubled.
        try store.create(name: "with notes", appId: "shop", now: Self.t2)
        try store.restore("with notes", key: { _ in nil })
        #expect(snapshot(folder) == expected)
        let okit = try FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/okit")
        #expect(okit.filter { $0.hasPrefix("data-before-restore-") }.count == 1)
    }

    @Test func isModelDataKnowsOkitsOwnFiles() {
        for own in ["Shop.json", "Shop.journal", "Shop.patch", "e.form", ".Shop.json.tmp"] {
            #expect(BackupStore.isModelData(own, forms: []), "\(own)")
        }
        for other in ["Shop.json.corrupt-20260101T000000Z", "Shop.json.converted-20260101T000000Z", "notes.txt", "json"] {
            #expect(!BackupStore.isModelData(other, forms: []), "\(other)")
        }
    }
}
