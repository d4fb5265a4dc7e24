import Crypto
import Foundation
import ZIPFoundation

/// The zip inside a backup (ZIPFoundation): written entry by entry from bytes in memory, read entry by entry
/// with a hard limit on each entry's size, so a hostile archive cannot make a restore exhaust memory or disk.
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

    /// Opens an archive file; a file that is not a zip (truncated, garbage) is `damaged`.
    static func open(at url: URL, backup: String) throws(BackupError) -> BackupArchive {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw .damaged(backup, path: url.path, "the archive does not open (\(error)); the file is truncated or not a backup")
        }
        guard let bytes = FileManager.default.contents(atPath: url.path) else {
            throw .damaged(backup, path: url.path, "the archive cannot be read")
        }
        try checkStreams([UInt8](bytes), backup: backup, path: url.path)
        return BackupArchive(archive, backup: backup, path: url.path)
    }

    /// Refuses an archive with an entry whose compressed data would not end where it should (`DeflateCheck`).
    static func checkStreams(_ bytes: [UInt8], backup: String, path: String) throws(BackupError) {
        let unsafe = DeflateCheck.unsafeEntries(in: bytes)
        guard let first = unsafe.first else { return }
        throw .damaged(backup, path: path, "entry \(JSONPathLocator.escape(String(first.prefix(120)))) is cut short or damaged (its compressed data does not end within it)")
    }

    /// Opens an archive held in memory (a secure backup's inner zip).
    static func open(data: [UInt8], backup: String, path: String) throws(BackupError) -> BackupArchive {
        let archive: Archive
        do {
            archive = try Archive(data: Data(data), accessMode: .read)
        } catch {
            throw .damaged(backup, path: path, "the archive inside does not open (\(error))")
        }
        try checkStreams(data, backup: backup, path: path)
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

    /// The lower-case hex SHA-256 of bytes.
    static func sha256(_ bytes: [UInt8]) -> String {
        BackupHex.encode(Crypto.SHA256.hash(data: bytes))
    }
}
