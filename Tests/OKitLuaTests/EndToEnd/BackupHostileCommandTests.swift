import Foundation
import Testing
import OKitTestSupport
import OKitEngine

/// Issue 13 from the command line, as an outsider attacks: a zip64-marked archive (which hung `backup restore`
/// and `backup list` forever) and a backup made by another app (restored without a word).
@Suite struct BackupHostileCommandTests {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("okit-backup-hostile-\(UUID().uuidString)")
    var data: String { dir.appendingPathComponent("data").path }
    let bookshop = OKitRun.root.appendingPathComponent("examples/bookshop/app.lua")

    func okit(_ args: [String], app: String) throws -> ChildResult {
        try CommandLineTests().run(args + ["--app", app, "--data", data])
    }

    @Test func aZip64ArchiveIsRefusedByRestoreAndListedWithoutHanging() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try okit(["backup", "create", "daily"], app: bookshop.path).code == 0)
        let folder = dir.appendingPathComponent("data/okit/backup")
        let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent("daily.okbackup")))
        let hostile = folder.appendingPathComponent("z64.okbackup")
        try Data(zip64(original)).write(to: hostile)
        let restore = try okit(["backup", "restore", "z64"], app: bookshop.path)
        #expect(restore.code == 4 && restore.err.contains("zip64") && restore.err.contains("nothing was changed"), "\(restore.err)")
        let list = try okit(["backup", "list"], app: bookshop.path)
        #expect(list.code == 0 && list.out.contains("z64") && list.out.contains("daily"), "\(list.out) \(list.err)")
    }

    @Test func aBackupOfAnotherAppIsRefusedNamingBothIdsUnlessForced() throws {
        try #require(FileManager.default.isExecutableFile(atPath: OKitRun.binary.path))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try okit(["backup", "create", "theirs"], app: bookshop.path).code == 0)
        // The same app under another id, on the same data folder.
        let other = dir.appendingPathComponent("other/app.lua")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        let source = try String(contentsOf: bookshop, encoding: .utf8).replacingOccurrences(of: #"id = "bookshop""#, with: #"id = "com.example.mine""#)
        #expect(source.contains("com.example.mine"))
        try source.write(to: other, atomically: true, encoding: .utf8)
        let refused = try okit(["backup", "restore", "theirs"], app: other.path)
        #expect(refused.code == 4, "\(refused.err)")
        #expect(refused.err.contains(#""bookshop""#) && refused.err.contains(#""com.example.mine""#) && refused.err.contains("--force"), "\(refused.err)")
        let forced = try okit(["backup", "restore", "theirs", "--force"], app: other.path)
        #expect(forced.code == 0, "\(forced.err)")
    }

    /// The archive rewritten as a lying zip64: an absurd entry count and directory size behind 0xFFFF markers.
    func zip64(_ original: [UInt8]) -> [UInt8] {
        func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * UInt64($0))) & 0xFF) } }
        let eocd = original.count - 22
        let start = UInt64(original[eocd + 16]) | UInt64(original[eocd + 17]) << 8 | UInt64(original[eocd + 18]) << 16 | UInt64(original[eocd + 19]) << 24
        let record = le(0x0606_4B50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4) + le(1 << 40, 8) + le(1 << 40, 8)
            + le(1 << 50, 8) + le(start, 8)
        let locator = le(0x0706_4B50, 4) + le(0, 4) + le(UInt64(eocd), 8) + le(1, 4)
        let end = le(0x0605_4B50, 4) + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        return Array(original[..<eocd]) + record + locator + end
    }
}
