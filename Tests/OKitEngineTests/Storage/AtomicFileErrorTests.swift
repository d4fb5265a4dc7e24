import Foundation
import Testing
import OKitTestSupport
@testable import OKitEngine

/// What a failed atomic replace says (storage.md "When the disk is full or read-only"): the file a person knows,
/// never okit's hidden temporary beside it, and the system's reason in words. A tester read
/// `…/.default.json.tmp: cannot write: No space left on device` on every failed store.
@Suite struct AtomicFileErrorTests {
    @Test func aFailedReplaceNamesTheFileNotItsTemporary() throws {
        let folder = try TempFolder()
        let file = folder.url.appendingPathComponent("default.json").path
        // The temporary's place is taken by a folder: the temporary cannot be made.
        try FileManager.default.createDirectory(atPath: folder.url.appendingPathComponent(".default.json.tmp").path, withIntermediateDirectories: false)
        let error = try #require(throws: StorageError.self) { try AtomicFile.replace(file, with: Array("{}".utf8)) }
        #expect(error.path == file)
        #expect(error.description == file + ": cannot write: Is a directory")
        #expect(error.systemError == EISDIR)
    }

    @Test func theReasonsOfAFullOrReadOnlyDiskAreWords() {
        #expect(AtomicFile.reason(ENOSPC) == "no space left on the disk")
        #expect(AtomicFile.reason(EROFS) == "the file system is mounted read-only")
        #expect(AtomicFile.reason(EDQUOT) == "the disk quota is used up")
        #expect(AtomicFile.reason(ENOENT) == "No such file or directory")
    }

    @Test(.enabled(if: SmallDisk.isAvailable, Comment(rawValue: SmallDisk.unavailable)))
    func aFullDiskIsSaidInWords() throws {
        let disk = try SmallDisk()
        disk.fill()
        let file = disk.url.appendingPathComponent("default.json").path
        let error = try #require(throws: StorageError.self) { try AtomicFile.replace(file, with: [UInt8](repeating: 32, count: 100_000)) }
        #expect(error.description == file + ": cannot write: no space left on the disk")
        #expect(error.systemError == ENOSPC)
        #expect(!FileManager.default.fileExists(atPath: disk.url.appendingPathComponent(".default.json.tmp").path))
    }
}
