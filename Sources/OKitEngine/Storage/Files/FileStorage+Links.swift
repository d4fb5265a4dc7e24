import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A model file (or its journal, a payload, a data or image file) that is a symbolic link to a regular file
/// (storage.md "A link to a regular file is followed"): every write goes through the link to its target — the
/// atomic write's temporary is made in the target's folder and renamed over the target — so the link stays and
/// the file it leads to (in a synced folder, on another disk) is the one kept current.
extension FileStorage {
    /// Where a write meant for `path` goes: `path` itself, or the file a symbolic link at `path` leads to when
    /// that is a regular file (resolved through every link on the way). A link to nothing or to anything but a
    /// regular file is left to the write (a load refuses it first).
    static func writeTarget(_ path: String) -> String {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return path }
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// `AtomicFile.replace` through a link (`writeTarget`).
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        try AtomicFile.replace(writeTarget(path), with: bytes)
    }

    /// `AtomicFile.replace` through a link (`writeTarget`), streamed.
    static func replace(_ path: String, write: (Int32, String) throws -> Void) throws {
        try AtomicFile.replace(writeTarget(path), write: write)
    }
}
