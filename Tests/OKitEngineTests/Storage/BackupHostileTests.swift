import Crypto
import Foundation
import Testing
import OKitTestSupport
import ZIPFoundation
@testable import OKitEngine

/// Issue 13, hole 8 and the smaller backup findings: a decompression bomb within its manifest's sizes made a
/// restore peak at ~1.9 GB; a zip64-marked archive hung `restore` and `backup list` forever; a valid 600-deep
/// JSON file was "not valid JSON"; a backup of another app restored without a word.
@Suite struct BackupHostileTests {
    let fixture = BackupTests()

    /// A real zip: `manifest.json` and `data/<name>` holding `size` spaces, deflated (never whole in memory).
    static func bomb(_ url: URL, name: String = "Shop.json", size: Int, appId: String = "test") throws {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let chunk = Data(repeating: 0x20, count: 1 << 16)
        var hasher = SHA256()
        var left = size
        while left > 0 { let n = min(left, chunk.count); hasher.update(data: chunk.prefix(n)); left -= n }
        let manifest = BackupManifest(formatVersion: 1, appId: appId, createdAt: "2024-01-01T00:00:00Z", secure: false,
                                      files: [.init(path: name, size: Int64(size), sha256: BackupHex.encode(hasher.finalize()))])
        let archive = try Archive(url: url, accessMode: .create)
        let m = try manifest.encoded()
        try archive.addEntry(with: "manifest.json", type: .file, uncompressedSize: Int64(m.count)) { pos, n in
            Data(m[Int(pos)..<min(m.count, Int(pos) + n)])
        }
        try archive.addEntry(with: "data/" + name, type: .file, uncompressedSize: Int64(size), compressionMethod: .deflate,
                             bufferSize: 1 << 16) { pos, n in chunk.prefix(min(n, size - Int(pos))) }
    }

    /// A real okit backup rewritten as zip64: a zip64 end record and locator, and the end record's fields marked
    /// 0xFFFF/0xFFFFFFFF; `lying` gives the zip64 record an absurd entry count and directory size.
    static func zip64(_ original: [UInt8], lying: Bool) -> [UInt8] {
        func u16(_ i: Int) -> UInt64 { UInt64(original[i]) | UInt64(original[i + 1]) << 8 }
        func u32(_ i: Int) -> UInt64 { u16(i) | u16(i + 2) << 16 }
        func le(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * UInt64($0))) & 0xFF) } }
        let eocd = original.count - 22
        let count = lying ? UInt64(1) << 40 : u16(eocd + 10)
        let size = lying ? UInt64(1) << 50 : u32(eocd + 12)
        let start = u32(eocd + 16)
        let record = le(0x0606_4B50, 4) + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4) + le(count, 8) + le(count, 8)
            + le(size, 8) + le(start, 8)
        let locator = le(0x0706_4B50, 4) + le(0, 4) + le(UInt64(eocd), 8) + le(1, 4)
        let end = le(0x0605_4B50, 4) + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        return Array(original[..<eocd]) + record + locator + end
    }

    func refused(_ folder: TempFolder, _ store: BackupStore, _ file: URL, contains expected: String) throws {
        let before = fixture.snapshot(folder)
        let error = fixture.backupError { try store.restore(file.path) }
        #expect(error?.description.contains(expected) == true, "\(error?.description ?? "restored")")
        #expect(error?.description.contains("nothing was changed") == true)
        #expect(fixture.snapshot(folder) == before, "nothing changed")
        #expect(fixture.leftovers(folder).isEmpty)
    }

    @Test func aDecompressionBombIsRefusedBeforeItIsDecompressed() throws {
        let folder = try TempFolder()
        try fixture.populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let file = folder.url.appendingPathComponent("bomb.okbackup")
        try Self.bomb(file, size: 64 << 20)   // 64 MiB of spaces in about 64 KB: its manifest's sizes add up
        #expect(try Data(contentsOf: file).count < 200_000)
        try refused(folder, store, file, contains: "would expand")
        #expect(fixture.backupError { try store.restore(file.path) }?.description.contains("OKIT_BACKUP_MAX_RATIO") == true)
    }

    @Test func backupsOverTheTotalSizeAreRefused() throws {
        let folder = try TempFolder()
        try fixture.populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        try store.create(name: "daily", appId: "shop")
        store.limits.maxTotal = 100   // the fixture's files add up to more
        try refused(folder, store, store.file(named: "daily"), contains: "OKIT_BACKUP_MAX_SIZE")
        store.limits = ArchiveLimits()
        try store.restore("daily")
    }

    @Test(arguments: [false, true])
    func aZip64ArchiveIsRefusedByRestoreAndList(_ lying: Bool) throws {
        let folder = try TempFolder()
        try fixture.populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        try store.create(name: "daily", appId: "shop")
        let bytes = Self.zip64([UInt8](try Data(contentsOf: store.file(named: "daily"))), lying: lying)
        let file = store.backupFolder.appendingPathComponent("z64.okbackup")
        try Data(bytes).write(to: file)
        try refused(folder, store, file, contains: "zip64")
        let listed = try store.list()   // returns (the archive's date is not read from it)
        #expect(Set(listed.map(\.name)) == ["daily", "z64"])
    }

    @Test func aDeepJSONFileGivesTheNestingLimitAsTheReason() throws {
        let folder = try TempFolder()
        try fixture.populate(folder)
        let store = BackupStore(dataFolder: folder.url)
        let deep = Array((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        let file = folder.url.appendingPathComponent("deep.okbackup")
        try fixture.zip(file, [("manifest.json", try fixture.manifest([("Deep.json", deep)])), ("data/Deep.json", deep)])
        let before = fixture.snapshot(folder)
        let error = fixture.backupError { try store.restore(file.path) }
        #expect(error?.description.contains("nests 600 levels deep") == true && error?.description.contains("512") == true,
                "\(error?.description ?? "restored")")
        #expect(fixture.snapshot(folder) == before)
    }

    @Test func aBackupOfAnotherAppIsRefusedUnlessForced() throws {
        let folder = try TempFolder()
        try fixture.populate(folder)
        var store = BackupStore(dataFolder: folder.url)
        try store.create(name: "theirs", appId: "com.example.other")
        let backedUp = fixture.snapshot(folder)
        try fixture.put(folder, "okit/data/Shop.json", Array("{}".utf8))
        let before = fixture.snapshot(folder)
        store.appId = "com.example.mine"
        let error = fixture.backupError { try store.restore("theirs") }
        #expect(error?.kind == .otherApp)
        #expect(error?.description.contains("\"com.example.other\"") == true && error?.description.contains("\"com.example.mine\"") == true,
                "\(error?.description ?? "restored")")
        #expect(fixture.snapshot(folder) == before)
        store.allowOtherApp = true
        try store.restore("theirs")
        #expect(fixture.snapshot(folder) == backedUp)
    }
}
