import Foundation
import Testing
import OKitTestSupport
import OKitEngine

/// `okit-run backup create|restore|list|delete` on the bookshop: the same work as the backups screen, from the
/// command line, with the app's keys and schema; refusals leave the data as it was.
@Suite struct BackupCommandTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-backup-cli-\(UUID().uuidString)")
    var data: String { dir.appendingPathComponent("data").path }
    let app = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua").path

    func okit(_ args: [String], stdin: String? = nil) throws -> ChildResult {
        try OKitRun.run(args + ["--app", app, "--data", data], stdin: stdin.map { .text($0) } ?? .null)
    }

    /// Every file under okit/data with its bytes.
    func tree() throws -> [String: Data] {
        let root = URL(fileURLWithPath: data).appendingPathComponent("okit/data")
        var out: [String: Data] = [:]
        let e = FileManager.default.enumerator(atPath: root.path)
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(p).path, isDirectory: &isDir), !isDir.boolValue {
                out[p] = try Data(contentsOf: root.appendingPathComponent(p))
            }
        }
        return out
    }

    @Test func createListRestoreAndDeleteFromTheCommandLine() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try okit(["backup", "create", "plain"]).code == 0)
        #expect(try okit(["backup", "create", "sealed", "--password-stdin"], stdin: "pw\n").code == 0)
        let list = try okit(["backup", "list", "--json"])
        #expect(list.code == 0)
        #expect(list.out.contains(#""name":"plain""#) && list.out.contains(#""secure":true"#))
        #expect(try okit(["backup", "create", "plain"]).code == 4, "an existing name is an error")

        let before = try tree()
        #expect(try okit(["backup", "restore", "sealed", "--password-stdin"], stdin: "wrong\n").code == 4)
        #expect(try tree() == before, "a wrong password changes nothing")
        #expect(try okit(["backup", "restore", "sealed"]).code == 2, "a secure backup needs its password")

        // A change after the backups, then a restore: the change is gone.
        let script = dir.appendingPathComponent("change.lua")
        try "app.models.default.books[1].name = 'Changed'".write(to: script, atomically: true, encoding: .utf8)
        #expect(try OKitRun.run([app, "--data", data, "--script", script.path]).code == 0)
        #expect(try tree() != before)
        #expect(try okit(["backup", "restore", "sealed", "--password-stdin"], stdin: "pw\n").code == 0)
        let json = try okit(["backup", "list"])    // the app loads the restored data
        #expect(json.code == 0)
        let restored = try tree()
        #expect(restored["default.json"].map { String(decoding: $0, as: UTF8.self).contains("Changed") } == false)
        #expect(restored.keys.contains("directory.json"))

        #expect(try okit(["backup", "delete", "plain"]).code == 0)
        #expect(try okit(["backup", "list"]).out.contains("plain") == false)
        #expect(try okit(["backup", "delete", "plain"]).code == 4)
    }

    /// A damaged current model does not stand between the user and the backups: they are listed, and the restore
    /// says how to get past the damaged file.
    @Test func backupsAreReachableWhenTheCurrentDataDoesNotLoad() throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try okit(["backup", "create", "good"]).code == 0)
        let model = URL(fileURLWithPath: data).appendingPathComponent("okit/data/default.json")
        try "{\"books\": [".write(to: model, atomically: true, encoding: .utf8)
        let list = try okit(["backup", "list"])
        #expect(list.code == 0 && list.out.contains("good"), "listing does not need the data to load")
        let cli = CommandLineTests()
        let refused = try cli.run(["backup", "restore", "good", "--app", app, "--data", data])
        #expect(refused.code == 4)
        #expect(refused.err.contains("--recover default (nothing is deleted"), "the model is named: \(refused.err)")
        let empty = dir.appendingPathComponent("empty.lua")
        try "".write(to: empty, atomically: true, encoding: .utf8)
        #expect(try cli.run([app, "--data", data, "--recover", "default", "--script", empty.path]).code == 0)
        let restored = try cli.run(["backup", "restore", "good", "--app", app, "--data", data])
        #expect(restored.code == 0, "\(restored.err)")
        #expect(try cli.run([app, "--data", data]).code == 0, "the restored data loads")
    }
}
