import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Durable file operations: atomic replace (temp file + fsync + rename + fsync of the folder), durable
/// appends, whole-file reads. Errors carry the path and the system's reason.
enum AtomicFile {
    static func error(_ path: String, _ what: String) -> StorageError {
        StorageError(kind: .io, path: path, message: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Writes all of `bytes` to an open descriptor.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw error(path, "cannot write")
            }
            offset += n
        }
    }

    /// Replaces the file at `path` with `bytes` so that a crash at any instant leaves the old or the new file.
    static func replace(_ path: String, with bytes: [UInt8]) throws {
        let dir = (path as NSString).deletingLastPathComponent
        // One temporary name per file (the data folder's lock keeps writers to one process): a temporary
        // left by a crash is truncated and reused, never accumulated.
        let tmp = dir + "/." + (path as NSString).lastPathComponent + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw error(tmp, "cannot create") }
        do {
            try bytes.withUnsafeBytes { buf in
                if buf.count > 0 { try writeAll(fd, buf, path: tmp) }
            }
            if fsync(fd) != 0 { throw error(tmp, "cannot sync") }
        } catch {
            close(fd)
            unlink(tmp)
            throw error
        }
        close(fd)
        if rename(tmp, path) != 0 {
            let e = error(path, "cannot replace")
            unlink(tmp)
            throw e
        }
        try syncFolder(dir)
    }

    /// fsync of a folder, so a rename or unlink in it is durable.
    static func syncFolder(_ dir: String) throws {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw error(dir, "cannot open folder") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw error(dir, "cannot sync folder") }
    }

    /// Appends `bytes` and syncs them; creates the file (and syncs its folder) when new.
    static func append(_ path: String, _ bytes: [UInt8]) throws {
        let existed = access(path, F_OK) == 0
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw error(path, "cannot open") }
        defer { close(fd) }
        try bytes.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        if fsync(fd) != 0 { throw error(path, "cannot sync") }
        if !existed { try syncFolder((path as NSString).deletingLastPathComponent) }
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw error(path, "cannot open")
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw error(path, "cannot stat") }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var offset = 0
        try out.withUnsafeMutableBytes { buf in
            guard let base = buf.baseAddress else { return }
            while offset < buf.count {
                let n = Glibc.read(fd, base + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; throw error(path, "cannot read") }
                if n == 0 { break }
                offset += n
            }
        }
        if offset < out.count { out.removeLast(out.count - offset) }
        return out
    }

    /// Removes a file durably (no error when it is already gone).
    static func remove(_ path: String) throws {
        if unlink(path) != 0 {
            if errno == ENOENT { return }
            throw error(path, "cannot remove")
        }
        try syncFolder((path as NSString).deletingLastPathComponent)
    }
}
