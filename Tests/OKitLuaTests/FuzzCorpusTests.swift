import Foundation
import OKitFuzzTargets
import OKitTestSupport
import Testing

/// Every input of `Fuzz/corpus/<target>/` (and a fresh backup of the bookshop for `backup`) through its fuzz target,
/// in this process, one after another: each must end, taken or refused. Under `scripts/sanitize` this is the
/// corpora's run under AddressSanitizer and UndefinedBehaviorSanitizer (a report ends the test process), so the
/// sanitizers see them without a libFuzzer build of their own; `scripts/fuzz` still runs the targets under libFuzzer.
@Suite struct FuzzCorpusTests {
    static let corpus = OKitRun.root.appendingPathComponent("Fuzz/corpus")

    static func inputs(_ target: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: corpus.appendingPathComponent(target),
                                                    includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// A backup `okit-run backup create` makes of `example`'s data (the app run once to make it).
    static func freshBackup(of example: String, in folder: TempFolder) throws -> URL {
        let app = OKitRun.root.appendingPathComponent("examples/\(example)/app.lua").path
        let data = folder.url.appendingPathComponent(example).path
        let made = try OKitRun.run(["backup", "create", "seed", "--app", app, "--data", data])
        #expect(made.code == 0, "okit-run backup create (\(example)): \(made.err)")
        return URL(fileURLWithPath: data).appendingPathComponent("okit/backup/seed.okbackup")
    }

    /// One test function: the targets keep a schema, an app and a scratch folder of their own, touched by one thread
    /// at a time. The backup target also gets a fresh backup of the bookshop, as scripts/fuzz seeds it (refused
    /// here: its directory model is sealed with a key the target does not have), and one of the to-do app (taken).
    @Test func everyCorpusInputEndsAndTheKnownOnesAreTakenOrRefusedAsBefore() throws {
        try #require(OKitRun.isBuilt, "okit-run is not built")
        let folder = try TempFolder()
        let seeds = [try Self.freshBackup(of: "bookshop", in: folder), try Self.freshBackup(of: "todo", in: folder)]
        var taken: [String: Bool] = [:]
        for target in FuzzTargets.names {
            let files = try Self.inputs(target)
            #expect(!files.isEmpty, "Fuzz/corpus/\(target)/ has no inputs")
            for file in files {
                taken["\(target)/\(file.lastPathComponent)"] = FuzzTargets.run(target, try Self.bytes(file))
            }
        }
        for (name, seed) in zip(["bookshop", "todo"], seeds) {
            taken["backup/\(name)"] = FuzzTargets.backup(try Self.bytes(seed))
        }
        // The targets still do their work: a good input is taken, a hostile one refused.
        #expect(taken["json/shop.json"] == true)
        #expect(taken["json/empty.json"] == true)
        #expect(taken["json/duplicate-keys.json"] == false)
        #expect(taken["binding/path"] == true)
        #expect(taken["backup/bomb.okbackup"] == false)
        #expect(taken["backup/bookshop"] == false, "the bookshop's sealed model was restored without its key")
        #expect(taken["backup/todo"] == true, "a fresh backup of the to-do app was not restored")
        #expect(taken["command/list"] == true, "the bookshop did not load for the command target")
        try? FileManager.default.removeItem(at: FuzzTargets.scratch)
    }
}
