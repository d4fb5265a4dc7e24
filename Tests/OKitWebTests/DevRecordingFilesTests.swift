import Foundation
import Testing
@testable import OKitEngine
@testable import OKitWeb

/// What a recording writes is its owner's only (web.md "Development mode"): the copy of the data it started from
/// holds sealed models opened, in plain text, and the test names what the person typed — folders 0700, files
/// 0600, as backups. (A stranger's round seven: `serve --dev` saved an encrypted model's copy 0644 in 0755 folders.)
@Suite struct DevRecordingFilesTests {
    static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func theDataCopyTheTestFileAndItsFixturesAreTheOwnersOnly() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("okit-rec-files-\(UUID().uuidString)", isDirectory: true)
        defer { try? fm.removeItem(at: root) }
        let data = root.appendingPathComponent("data", isDirectory: true)
        let models = URL(fileURLWithPath: DataFolder(data).models, isDirectory: true)
        try fm.createDirectory(at: models, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        #expect(fm.createFile(atPath: models.appendingPathComponent("notes.json").path, contents: Data("{}".utf8),
                              attributes: [.posixPermissions: 0o644]))

        let copy = try #require(try FlowTestFixtures.capture(dataFolder: data, passphrase: nil))
        defer { try? fm.removeItem(at: copy) }
        #expect(try Self.mode(copy) == 0o700 && Self.mode(copy.appendingPathComponent("notes.json")) == 0o600)

        let file = root.appendingPathComponent("app/tests/notes_test.lua")
        var start = FlowTestRecorder.Start(app: root.appendingPathComponent("app/app.lua"), testFile: file, now: Date())
        start.fixtures = copy
        try FlowTestRecorder(start: start, clock: VirtualClock()).write()
        let fixtures = FlowTestRecorder.fixturesFolder(of: file)
        #expect(try Self.mode(file) == 0o600, "the test file")
        #expect(try Self.mode(file.deletingLastPathComponent()) == 0o700, "the tests folder it made")
        #expect(try Self.mode(fixtures) == 0o700 && Self.mode(fixtures.appendingPathComponent("notes.json")) == 0o600, "its data")
    }
}
