import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// Issue 38's session over JSON lines, end to end: the bookshop is spawned, one book renamed, and the app quits.
/// The quit stores as any store: the rename is a journal append, the model file is left exactly as it was, and
/// the next launch shows the rename; a session that changes nothing touches no file.
@Suite struct ExitStoreJSONLinesTests {
    /// The bookshop over JSON lines on `data`, fed `commands` (one JSON object a line) then `quit`.
    func session(_ data: String, _ commands: [String], in folder: TempFolder) throws -> ChildResult {
        let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua").path
        let lines = (commands + [#"{"cmd":"quit"}"#]).joined(separator: "\n") + "\n"
        return try OKitRun.run([app, "--data", data, "--json", "--clock", "virtual"], stdin: .text(lines), in: folder)
    }

    /// Bytes, inode and modification time of every file in the models folder, by name.
    func files(_ models: String) throws -> [String: (Data, Int, Date)] {
        var out: [String: (Data, Int, Date)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: models) where !name.hasPrefix(".") {
            let path = models + "/" + name
            let a = try FileManager.default.attributesOfItem(atPath: path)
            guard (a[.type] as? FileAttributeType) == .typeRegular else { continue }
            out[name] = (try Data(contentsOf: URL(fileURLWithPath: path)), (a[.systemFileNumber] as? NSNumber)?.intValue ?? -1,
                         a[.modificationDate] as? Date ?? .distantPast)
        }
        return out
    }

    func same(_ a: (Data, Int, Date)?, _ b: (Data, Int, Date)?) -> Bool {
        guard let a, let b else { return false }
        return a.0 == b.0 && a.1 == b.1 && a.2 == b.2
    }

    @Test func renameThenQuitAppendsToTheJournalAndLeavesTheModelFile() throws {
        try #require(OKitRun.isBuilt)
        let folder = try TempFolder()
        let data = folder.url.appendingPathComponent("data").path, models = data + "/okit/data"
        // Enough books that one book's record stays under an eighth of the model file (else a full write is due).
        let adds = (1...30).flatMap { [#"{"cmd":"add"}"#, #"{"cmd":"respond","action":"OK","fields":["Book \#($0)"]}"#] }
        let first = try session(data, adds, in: folder)
        #expect(first.code == 0, "\(first.err)")
        let before = try files(models)
        #expect(before["default.json"] != nil)
        let rename = try session(data, [#"{"cmd":"tap","row":"Emma"}"#, #"{"cmd":"edit","on":true}"#,
                                        #"{"cmd":"set","cell":"name","value":"Emma (1815)"}"#], in: folder)
        #expect(rename.code == 0, "\(rename.err)")
        #expect(!rename.out.contains(#""ok":false"#), "\(rename.out)")
        let after = try files(models)
        #expect(same(after["default.json"], before["default.json"]), "the model file is not rewritten at quit")
        let journal = String(decoding: after["default.journal"]?.0 ?? Data(), as: UTF8.self)
        #expect(journal.contains("Emma (1815)"), "the rename is in the journal: \(journal)")
        // A session that changes nothing touches no file, the journal included.
        let look = try session(data, [#"{"cmd":"screen"}"#], in: folder)
        #expect(look.code == 0, "\(look.err)")
        #expect(look.out.contains("Emma (1815)"), "the next launch shows the rename: \(look.out)")
        let untouched = try files(models)
        #expect(Set(untouched.keys) == Set(after.keys))
        for (name, file) in after { #expect(same(untouched[name], file), "\(name) untouched") }
    }
}
