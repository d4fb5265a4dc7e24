import Foundation
import Testing
import OKitTestSupport
import OKitEngine

/// `okit-run APP --record LOG` and `okit-run replay LOG`: the same commands on the same starting data give the
/// same snapshots and the same stored bytes (testing.md).
@Suite struct ReplayTests {
    static let root = OKitRun.root

    @Test func aReplayReproducesTheSnapshotsAndTheStoredBytes() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let commands = [
            #"{"cmd":"add","text":"Anna Karenina"}"#, #"{"cmd":"tap","row":"Dune"}"#, #"{"cmd":"edit","on":true}"#,
            #"{"cmd":"set","cell":"Copies","value":7}"#, #"{"cmd":"set","cell":"Release Date","value":"2020-01-02T00:00:00Z"}"#,
            #"{"cmd":"set","cell":"Genre","value":"Fantasy"}"#, #"{"cmd":"advance","seconds":90}"#, #"{"cmd":"back"}"#,
            #"{"cmd":"tap","row":99}"#, #"{"cmd":"delete","row":"Emma"}"#, #"{"cmd":"respond","action":"Yes"}"#,
            #"{"cmd":"tab","id":"authors"}"#, #"{"cmd":"add"}"#, #"{"cmd":"respond","action":"OK","fields":["Ursula"]}"#,
        ]
        let input = dir.appendingPathComponent("commands.jsonl")
        try (commands.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("session.jsonl")
        let app = Self.root.appendingPathComponent("examples/bookshop/app.lua").path
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b")
        let recorded = try OKitRun.run(
                                     [app, "--data", a.path, "--clock", "virtual", "--json", "--record", log.path], stdin: .file(input.path))
        #expect(recorded.code == 0)
        let logLines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(logLines.count == commands.count + 1, "a header and one line per command")
        #expect(logLines.first?.hasPrefix("{\"okit\":\"session\",\"app\":") == true)
        let replayed = try OKitRun.run(["replay", log.path, "--data", b.path])
        #expect(replayed.code == 0)
        #expect(recorded.out.split(separator: "\n").count == commands.count)
        #expect(replayed.out == recorded.out, "the same snapshots, answer for answer")
        let files = Self.files(under: a.appendingPathComponent("okit/data"))
        #expect(files == Self.files(under: b.appendingPathComponent("okit/data")))
        #expect(["default.json", "directory.json", "settings.json"].allSatisfy(files.contains))
        #expect(files.contains { $0.hasPrefix("default/_image/") }, "the seeded cover is a side file")
        for f in files {
            let x = try plaintext(a, f), y = try plaintext(b, f)
            #expect(x == y, "\(f) is byte-identical (sealed files by their plaintext: nonces and keys differ)")
        }
        #expect(SealedFile.isSealed([UInt8](try Data(contentsOf: a.appendingPathComponent("okit/data/directory.json")))),
                "the bookshop's directory is an encrypted model")
    }

    /// Every file under a folder, by relative path.
    static func files(under root: URL) -> [String] {
        var out: [String] = []
        let e = FileManager.default.enumerator(atPath: root.path)
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(p).path, isDirectory: &isDir), !isDir.boolValue { out.append(p) }
        }
        return out.sorted()
    }

    /// A model file's bytes, opened with its data folder's key when sealed.
    func plaintext(_ folder: URL, _ file: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("okit/data/\(file)")))
        guard SealedFile.isSealed(bytes) else { return bytes }
        return try SealedFile.open(bytes, key: DataKeys.key(dataFolder: folder, passphrase: nil))
    }

    @Test func aLogWithoutItsHeaderIsRefused() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("okit-badlog-\(UUID().uuidString)")
        try "{\"cmd\":\"tap\",\"row\":1}\n".write(to: log, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: log) }
        let r = try OKitRun.run(["replay", log.path])
        #expect(r.code == 2)
    }

    /// Passwords typed into secure prompt fields are never written to the log; a replay gets them from stdin.
    @Test func secretsAreLeftOutOfTheLogAndGivenToTheReplay() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let commands = [
            #"{"cmd":"menu"}"#, #"{"cmd":"menuItem","title":"Backups"}"#, #"{"cmd":"add"}"#,
            #"{"cmd":"respond","action":"OK","fields":["nightly","Tr0ub4dor&3","Tr0ub4dor&3"]}"#,
        ]
        let input = dir.appendingPathComponent("commands.jsonl")
        try (commands.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("session.jsonl")
        let app = Self.root.appendingPathComponent("examples/bookshop/app.lua").path
        let recorded = try OKitRun.run(
                                     [app, "--data", dir.appendingPathComponent("a").path, "--clock", "virtual", "--json", "--record", log.path],
                                     stdin: .file(input.path))
        #expect(recorded.code == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(!text.contains("Tr0ub4dor"), "no password in the log")
        #expect(text.contains(#"["nightly",{"secret":true},{"secret":true}]"#), "\(text)")

        let without = try OKitRun.run(["replay", log.path, "--data", dir.appendingPathComponent("b").path])
        #expect(without.out.contains("secrets are not written to session logs; replay with --secrets-stdin"), "\(without.out)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b/okit/backup/nightly.okbackup").path))

        let secrets = dir.appendingPathComponent("secrets")
        try "Tr0ub4dor&3\nTr0ub4dor&3\n".write(to: secrets, atomically: true, encoding: .utf8)
        let with = try OKitRun.run(
                                 ["replay", log.path, "--data", dir.appendingPathComponent("c").path, "--secrets-stdin"], stdin: .file(secrets.path))
        #expect(with.code == 0)
        #expect(with.out == recorded.out, "the same answers as the session")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("c/okit/backup/nightly.okbackup").path))
    }

    /// Lines the session answered without running a command (blank, malformed, an unknown command) are in
    /// the log as unread, so the replay answers the same errors and the answers line up one to one.
    @Test func unreadLinesAreRecordedSoTheAnswersLineUp() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-unread-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let commands = [#"{"cmd":"screen"}"#, #"{"cmd":"tpa","row":1}"#, "bogus", "",
                        #"{"cmd":"add","text":}"#, #"{"cmd":"version"}"#, #"{"cmd":"tap","row":1}"#, #"{"cmd":"quit"}"#]
        let input = dir.appendingPathComponent("commands.jsonl")
        try (commands.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let log = dir.appendingPathComponent("session.jsonl")
        let app = Self.root.appendingPathComponent("examples/todo/app.lua").path
        let recorded = try OKitRun.run([app, "--data", dir.appendingPathComponent("a").path, "--clock", "virtual", "--json", "--record", log.path],
                                       stdin: .file(input.path))
        #expect(recorded.code == 0)
        #expect(recorded.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count == commands.count, "one answer a line")
        let replayed = try OKitRun.run(["replay", log.path, "--data", dir.appendingPathComponent("b").path])
        #expect(replayed.code == 0)
        #expect(replayed.out == recorded.out, "the same answers, line for line")
    }

    /// A recorded `"value":null` (clearing an optional field) is written `app:set("Due", nil)`, and runs.
    @Test func aRecordedClearRunsAsAFlowTest() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-clear-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("app/tests"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let appFile = dir.appendingPathComponent("app/app.lua")
        try Data(contentsOf: Self.root.appendingPathComponent("examples/todo/app.lua")).write(to: appFile)
        let commands = [#"{"cmd":"tap","row":1}"#, #"{"cmd":"edit","on":true}"#, #"{"cmd":"set","cell":"Due","value":"2020-01-01"}"#,
                        #"{"cmd":"set","cell":"Due","value":null}"#, #"{"cmd":"quit"}"#]
        let input = dir.appendingPathComponent("commands.jsonl")
        try (commands.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let test = dir.appendingPathComponent("app/tests/clear_test.lua")
        let recorded = try OKitRun.run([appFile.path, "--data", dir.appendingPathComponent("data").path, "--clock", "virtual", "--json",
                                        "--record", test.path], stdin: .file(input.path))
        #expect(recorded.code == 0 && !recorded.out.contains(#""ok":false"#), "\(recorded.out)")
        let text = try String(contentsOf: test, encoding: .utf8)
        #expect(text.contains(#"app:set("Due", nil)"#), "\(text)")
        let run = try OKitRun.run(["test", test.path])
        #expect(run.code == 0, "\(run.out)\(run.err)")
    }
}
