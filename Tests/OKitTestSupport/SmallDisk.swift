import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real file system of 2 MiB (tmpfs) mounted on a temporary folder, which a test fills to get a real full disk
/// (ENOSPC) or remounts read-only (EROFS); unmounted at deinit. Mounting needs root: `isAvailable` is false
/// (and the tests that need it are skipped, saying why) where mount is not permitted.
public final class SmallDisk: @unchecked Sendable {
    public let folder: TempFolder
    public var url: URL { folder.url }
    private var filler: URL { folder.url.appendingPathComponent("filler") }

    public init() throws {
        folder = try TempFolder()
        let r = try ChildProcess.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", folder.path])
        guard r.code == 0 else { throw SmallDiskUnavailable(reason: r.err) }
    }

    /// Whether a tmpfs can be mounted here (root, and a mount the sandbox permits).
    public static let isAvailable: Bool = (try? SmallDisk()) != nil
    public static let unavailable = "needs root and a permitted tmpfs mount (a real full or read-only disk): skipped"

    /// Fills the disk until it has no byte left.
    /// The filler is opened close-on-exec: a child another test spawned meanwhile inherited it without, and held
    /// its blocks after `free` until that child ended (a quit after `free` still met a full disk in the whole suite).
    public func fill() {
        let fd = open(filler.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        // What is left is smaller than a block: a byte at a time.
        while write(fd, chunk, 1) > 0 {}
    }

    /// Frees what `fill` took.
    public func free() { unlink(filler.path) }

    /// Remounts the file system read-only (`true`) or read-write.
    public func remount(readOnly: Bool) throws {
        _ = try ChildProcess.run("/usr/bin/mount", ["-o", "remount," + (readOnly ? "ro" : "rw"), folder.path])
    }

    deinit {
        _ = try? ChildProcess.run("/usr/bin/umount", ["-l", folder.path])
    }
}

public struct SmallDiskUnavailable: Error { public let reason: String }
