import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Durable file operations: atomic replace (temp file + fsync + rename + fsync of the folder), durable
/// appends, whole-file reads. Errors carry the path a person knows (a model file, never okit's hidden temporary
/// beside it) and the system's reason in words (`reason`), with its code (`StorageError.systemError`).
package enum AtomicFile {
    package static func error(_ path: String, _ what: String) -> StorageError {
        let code = errno
        var e = StorageError(kind: .io, path: path, message: "\(what): \(reason(code))")
        e.systemError = code
        return e
    }

    /// The system's reason for a failed call in words (storage.md "When the disk is full or read-only"): the
    /// ones a full or read-only disk gives are said plainly ("no space left on the disk"); the rest as the
    /// system says them.
    package static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: return "no space left on the disk"
        case EDQUOT: return "the disk quota is used up"
        case EROFS: return "the file system is mounted read-only"
        case EACCES: return "permission denied"
        case EPERM: return "the file or its folder may not be changed (operation not permitted)"
        case EIO: return "the disk reported an input/output error"
        default: return String(cString: strerror(code))
        }
    }

    /// Writes all of `bytes` to an open descriptor.
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
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

    /// Starts writing bytes `offset..<offset + count` of `fd` to the disk and returns without waiting (Linux's
    /// `sync_file_range` with `SYNC_FILE_RANGE_WRITE`). A streamed full write calls it after each chunk, so that
    /// the disk works while the rest is serialized and the `fsync` at the end waits for the last chunk only (10 of
    /// a store's 60 ms at 100,000 books, before). Nothing where the call is missing; errors are the `fsync`'s.
    package static func startWriteback(_ fd: Int32, offset: Int, count: Int) {
        guard let call = SyncFileRange.function else { return }
        _ = call(fd, Int64(offset), Int64(count), 2)   // SYNC_FILE_RANGE_WRITE
    }

    /// `sync_file_range`, which Swift's Glibc module does not declare (it is a GNU extension), found at run time.
    private enum SyncFileRange {
        package typealias Function = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
        package static let function = RuntimeSymbol.lookup("sync_file_range", as: Function.self)
    }

    /// Replaces the file at `path` with `bytes` so that a crash at any instant leaves the old or the new file.
    /// `secret`: the file has mode 0600 from its creation (the temporary is made anew, never through a link).
    package static func replace(_ path: String, with bytes: [UInt8], secret: Bool = false) throws {
        try replace(path, secret: secret) { fd, named in
            try bytes.withUnsafeBytes { buf in
                if buf.count > 0 { try writeAll(fd, buf, path: named) }
            }
        }
    }

    /// Replaces the file at `path` with what `write` writes to the descriptor of a temporary beside it (given
    /// with `path`, for messages: an error names the file a person knows, not okit's hidden temporary); when
    /// `write` throws, the temporary is removed and the file is left as it was.
    package static func replace(_ path: String, secret: Bool = false, write: (Int32, String) throws -> Void) throws {
        let dir = (path as NSString).deletingLastPathComponent
        // One temporary name per file (the data folder's lock keeps writers to one process): a temporary
        // left by a crash is truncated and reused, never accumulated.
        let tmp = dir + "/." + (path as NSString).lastPathComponent + ".tmp"
        if secret { unlink(tmp) }
        let fd = secret ? open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                        : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw error(path, "cannot write") }
        do {
            try write(fd, path)
            if fsync(fd) != 0 { throw error(path, "cannot write") }
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
    package static func syncFolder(_ dir: String) throws {
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw error(dir, "cannot open folder") }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw error(dir, "cannot sync folder") }
    }

    /// Appends `bytes` and syncs them; creates the file (and syncs its folder) when new.
    package static func append(_ path: String, _ bytes: [UInt8]) throws {
        let existed = access(path, F_OK) == 0
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw error(path, "cannot open") }
        defer { close(fd) }
        try bytes.withUnsafeBytes { try writeAll(fd, $0, path: path) }
        if fsync(fd) != 0 { throw error(path, "cannot sync") }
        if !existed { try syncFolder((path as NSString).deletingLastPathComponent) }
    }

    /// The largest file `read` takes whole by default (storage.md "Limits"): 1 GiB.
    public static let defaultMaxFileSize = 1 << 30
    private static let limit = Mutex(defaultMaxFileSize)

    /// The largest file `read` takes whole (storage.md "Limits"). One value per process — every read of a data
    /// folder, a backup, a key or a pending change goes through here — set by the session from
    /// `SessionOptions.maxFileSize`, which the front end fills at the edge.
    package static var maxFileSize: Int {
        get { limit.withLock { $0 } }
        set { limit.withLock { $0 = newValue } }
    }

    /// What is at `path` without following a final symbolic link first: nil when nothing is there. Anything
    /// that is not a regular file (or a link to one) is an error naming the path: a FIFO would block a read
    /// forever, a dangling link is not a missing file (writing would replace the link), a directory is no file.
    package static func checkRegular(_ path: String) throws -> Bool {
        var st = stat()
        if lstat(path, &st) != 0 {
            if errno == ENOENT { return false }
            throw error(path, "cannot stat")
        }
        if st.st_mode & S_IFMT == S_IFLNK, stat(path, &st) != 0 {
            if errno == ENOENT || errno == ELOOP {
                throw StorageError(kind: .io, path: path, message: "is a symbolic link to nothing (\(String(cString: strerror(errno)))), not a file: nothing was read or replaced; remove the link or point it at the file")
            }
            throw error(path, "cannot stat")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(kind: .io, path: path, message: "is \(describeKind(st.st_mode)), not a regular file: nothing was read or replaced; move it aside")
        }
        return true
    }

    package static func describeKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a file"
        }
    }

    /// The whole file, or nil when it does not exist. Only a regular file (or a link to one) is read (see
    /// `checkRegular`), and none larger than `maxFileSize`. `head`, when given, sees the first bytes (up to
    /// 4 KiB) before the rest is read, and may refuse them.
    package static func read(_ path: String, head: (([UInt8]) throws -> Void)? = nil) throws -> [UInt8]? {
        try read(path, head: head, mapLarge: false)?.bytes
    }

    /// The files from which `read(_:head:mapLarge:)` maps rather than reads.
    package static let mappedSize = 1 << 20

    /// `read(_:head:)`; with `mapLarge`, a file of `mappedSize` bytes or more is mapped (`FileBytes`).
    static func read(_ path: String, head: (([UInt8]) throws -> Void)? = nil, mapLarge: Bool) throws -> FileBytes? {
        guard try checkRegular(path) else { return nil }
        // O_NONBLOCK: should the file be swapped for a FIFO after the check, opening it does not wait.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw error(path, "cannot open")
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) != 0 { throw error(path, "cannot stat") }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw StorageError(kind: .io, path: path, message: "is \(describeKind(st.st_mode)), not a regular file: nothing was read or replaced; move it aside")
        }
        let size = Int(st.st_size)
        var out = [UInt8](repeating: 0, count: min(size, 4096))
        let offset = try readFully(fd, into: &out, from: 0, path: path)
        if offset < out.count { out.removeLast(out.count - offset) }
        if let head { try head(out) }
        guard offset == 4096, size > 4096 else { return FileBytes(out) }
        if size > maxFileSize {
            throw StorageError(kind: .io, path: path, message: "the file is \(size) bytes: nothing was read or replaced; it is more than the \(maxFileSize) okit reads",
                               remedy: .raiseLimit("maxFileSize"))
        }
        if mapLarge, size >= mappedSize, let mapped = FileBytes(mapping: fd, size: size) { return mapped }
        // Read straight into one buffer of the file's size: no zeroing first, no second buffer (a 30 MB model
        // was zeroed, then copied into a grown array, before the read itself copied it).
        let first = out
        return FileBytes(try [UInt8](unsafeUninitializedCapacity: size) { buf, count in
            guard let base = buf.baseAddress else { return }
            first.withUnsafeBufferPointer { if let p = $0.baseAddress { base.update(from: p, count: $0.count) } }
            count = first.count
            while count < size {
                let n = Glibc.read(fd, base + count, size - count)
                if n < 0 { if errno == EINTR { continue }; throw error(path, "cannot read") }
                if n == 0 { break }
                count += n
            }
        })
    }

    /// Reads into `out` from `offset` until it is full or the file ends; returns the new offset.
    private static func readFully(_ fd: Int32, into out: inout [UInt8], from start: Int, path: String) throws -> Int {
        var offset = start
        try out.withUnsafeMutableBytes { buf in
            guard let base = buf.baseAddress else { return }
            while offset < buf.count {
                let n = Glibc.read(fd, base + offset, buf.count - offset)
                if n < 0 { if errno == EINTR { continue }; throw error(path, "cannot read") }
                if n == 0 { break }
                offset += n
            }
        }
        return offset
    }

    /// Removes a file durably (no error when it is already gone).
    package static func remove(_ path: String) throws {
        if unlink(path) != 0 {
            if errno == ENOENT { return }
            throw error(path, "cannot remove")
        }
        try syncFolder((path as NSString).deletingLastPathComponent)
    }
}
