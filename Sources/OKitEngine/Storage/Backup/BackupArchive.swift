import Crypto
import Foundation
import ZIPFoundation

/// The zip inside a backup (ZIPFoundation): written entry by entry from bytes in memory, read entry by entry
/// with a hard limit on each entry's size, after `ZipCheck` passed the whole archive, so a hostile archive cannot
/// make a restore exhaust memory, disk or time.
final class BackupArchive {
    let archive: Archive
    /// The backup's name or path, for messages.
    let backup: String
    /// The archive's file (or `memory` for a secure backup's inner zip), for messages.
    let path: String

    private init(_ archive: Archive, backup: String, path: String) {
        self.archive = archive
        self.backup = backup
        self.path = path
    }

    // MARK: Writing

    /// A new archive written to `url` (which must not exist).
    static func create(at url: URL, backup: String) throws(BackupError) -> BackupArchive {
        do {
            return BackupArchive(try Archive(url: url, accessMode: .create), backup: backup, path: url.path)
        } catch {
            throw .io(backup, path: url.path, "cannot create the archive (\(error))")
        }
    }

    /// A new archive in memory (the inner zip of a secure backup: plaintext never touches the disk).
    static func createInMemory(backup: String) throws(BackupError) -> BackupArchive {
        do {
            return BackupArchive(try Archive(data: Data(), accessMode: .create), backup: backup, path: "memory")
        } catch {
            throw .io(backup, path: "memory", "cannot create the archive (\(error))")
        }
    }

    /// Adds a file entry holding `bytes`; compressed unless `compress` is false (sealed bytes do not compress).
    func add(_ entryPath: String, _ bytes: [UInt8], compress: Bool, date: Date) throws(BackupError) {
        do {
            try archive.addEntry(with: entryPath, type: .file, uncompressedSize: Int64(bytes.count),
                                 modificationDate: date, permissions: 0o644,
                                 compressionMethod: compress && bytes.count > 64 ? .deflate : .none,
                                 bufferSize: 1 << 16) { position, size in
                let start = Int(position)
                let end = min(bytes.count, start + size)
                return start < end ? bytes.withUnsafeBufferPointer { Data(buffer: UnsafeBufferPointer(rebasing: $0[start..<end])) } : Data()
            }
        } catch {
            throw .io(backup, path: path, "cannot write \(entryPath) into the archive (\(error))")
        }
    }

    /// The bytes of an archive created in memory.
    var data: [UInt8] { archive.data.map { [UInt8]($0) } ?? [] }

    // MARK: Reading

    /// Opens an archive file after `ZipCheck` passed it (read through a mapping: no copy in memory); a file
    /// that is not a zip (truncated, garbage) is `damaged`, one that does not add up is refused.
    static func open(at url: URL, backup: String, limits: ArchiveLimits = ArchiveLimits()) throws(BackupError) -> BackupArchive {
        let mapped: Data
        do { mapped = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw .damaged(backup, path: url.path, "the archive cannot be read (\(error.localizedDescription))")
        }
        try check(mapped, backup: backup, path: url.path, limits: limits)
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw .damaged(backup, path: url.path, "the archive does not open (\(error)); the file is truncated or not a backup")
        }
        return BackupArchive(archive, backup: backup, path: url.path)
    }

    /// Refuses an archive whose structure does not add up, uses zip64, exceeds the limits, or has an entry whose
    /// compressed data would not end where it should (`ZipCheck`), before anything is decompressed.
    static func check(_ bytes: Data, backup: String, path: String, limits: ArchiveLimits) throws(BackupError) {
        guard let problem = bytes.withUnsafeBytes({ ZipCheck.problem(in: $0, limits: limits) }) else { return }
        throw problem.damaged ? .damaged(backup, path: path, problem.why)
            : .refused(backup, path: path, problem.why, remedy: problem.limit.map(Remedy.raiseLimit))
    }

    /// Opens an archive held in memory (a secure backup's inner zip).
    static func open(data: [UInt8], backup: String, path: String, limits: ArchiveLimits = ArchiveLimits()) throws(BackupError) -> BackupArchive {
        try check(Data(data), backup: backup, path: path, limits: limits)
        let archive: Archive
        do {
            archive = try Archive(data: Data(data), accessMode: .read)
        } catch {
            throw .damaged(backup, path: path, "the archive inside does not open (\(error))")
        }
        return BackupArchive(archive, backup: backup, path: path)
    }

    /// Every entry, in central-directory order.
    var entries: [Entry] { Array(archive) }

    /// Reads one entry whole, refusing more than `limit` bytes (the size the manifest promised); `chunk` sees
    /// the byte counts as they come (progress).
    func read(_ entry: Entry, limit: Int64, chunk: ((Int) -> Void)? = nil) throws(BackupError) -> [UInt8] {
        guard entry.type == .file else { throw .unsafeEntry(backup, entry: entry.path, "is not a regular file") }
        if entry.uncompressedSize > UInt64(max(0, limit)) {
            throw .mismatch(backup, file: entry.path, "is \(entry.uncompressedSize) bytes, the manifest says \(limit)")
        }
        var out: [UInt8] = []
        out.reserveCapacity(Int(min(Int64(entry.uncompressedSize), limit)))
        var tooLong = false
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { data in
                if Int64(out.count + data.count) > limit {
                    tooLong = true
                    throw CocoaError(.fileReadTooLarge)
                }
                out.append(contentsOf: data)
                chunk?(data.count)
            }
        } catch {
            if tooLong { throw .mismatch(backup, file: entry.path, "holds more bytes than the manifest's \(limit)") }
            throw .damaged(backup, path: path, "entry \(entry.path) does not read (\(error))")
        }
        return out
    }

    /// Streams one entry into the open file `fd` (`path` for messages) in 64 KiB chunks, never whole in memory,
    /// refusing more than `limit` bytes (the manifest's size); returns the byte count and the SHA-256 in hex.
    func extract(_ entry: Entry, limit: Int64, to fd: Int32, path file: String,
                 chunk: ((Int) -> Void)? = nil) throws(BackupError) -> (count: Int64, sha256: String) {
        guard entry.type == .file else { throw .unsafeEntry(backup, entry: entry.path, "is not a regular file") }
        if entry.uncompressedSize != UInt64(max(0, limit)) {
            throw .mismatch(backup, file: entry.path, "is \(entry.uncompressedSize) bytes, the manifest says \(limit)")
        }
        var hasher = Crypto.SHA256()
        var count: Int64 = 0
        var tooLong = false
        var writeError: Error?
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 16, skipCRC32: false) { data in
                if count + Int64(data.count) > limit {
                    tooLong = true
                    throw CocoaError(.fileReadTooLarge)
                }
                count += Int64(data.count)
                hasher.update(data: data)
                do { try data.withUnsafeBytes { try AtomicFile.writeAll(fd, $0, path: file) } } catch {
                    writeError = error
                    throw error
                }
                chunk?(data.count)
            }
        } catch {
            if tooLong { throw .mismatch(backup, file: entry.path, "holds more bytes than the manifest's \(limit)") }
            if let writeError { throw .io(backup, path: file, "cannot write (\(writeError))") }
            throw .damaged(backup, path: path, "entry \(entry.path) does not read (\(error))")
        }
        return (count, BackupHex.encode(hasher.finalize()))
    }

    /// The lower-case hex SHA-256 of bytes.
    static func sha256(_ bytes: [UInt8]) -> String {
        BackupHex.encode(Crypto.SHA256.hash(data: bytes))
    }
}
