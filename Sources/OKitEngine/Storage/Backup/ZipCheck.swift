import CZlib
import Foundation

/// The limits of reading a backup archive (docs/backups.md "Limits"): a hostile archive cannot make a restore or
/// `backup list` use unbounded memory, disk or time.
public struct ArchiveLimits: Sendable, Equatable {
    /// The most an entry may expand (uncompressed ÷ compressed bytes); default 200.
    public var maxRatio: Int64 = 200
    /// Entries up to this many uncompressed bytes are not held to the ratio (tiny files compress well and are harmless).
    public var ratioFloor: Int64 = 1 << 20
    /// The most all files of a backup may add up to, uncompressed; default 2 GiB.
    public var maxTotal: Int64 = 2 << 30
    /// The most entries an archive may hold.
    public var maxEntries = 100_000

    /// The defaults; a front end sets others from its own settings (`SessionOptions.archiveLimits`).
    public init() {}
}

/// Checks a zip's structure before anything decompresses it (ZIPFoundation then reads only what passed): the
/// end record and the central directory add up, no zip64 record or field (okit never writes one; ZIPFoundation
/// hangs on a hostile one), only stored or deflated entries, each within the compression ratio and all within
/// the total size, and each deflate stream ends within its own bytes with exactly its size (`DeflateCheck`).
enum ZipCheck {
    /// Why the archive is not read, or nil when it is safe to read: `damaged` (truncated, garbage, a stream cut
    /// short) or else hostile (zip64, over a limit, a method or layout okit never writes).
    /// `limit`: the limit the archive is over (`Remedy.raiseLimit`), if that is why.
    static func problem(in bytes: UnsafeRawBufferPointer, limits: ArchiveLimits) -> (why: String, damaged: Bool, limit: String?)? {
        func damaged(_ why: String) -> (why: String, damaged: Bool, limit: String?) { (why, true, nil) }
        func hostile(_ why: String, limit: String? = nil) -> (why: String, damaged: Bool, limit: String?) { (why, false, limit) }
        let n = bytes.count
        func u16(_ i: Int) -> Int? { i >= 0 && i + 2 <= n ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : nil }
        func u32(_ i: Int) -> Int? {
            guard i >= 0, i + 4 <= n else { return nil }
            return Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
        }
        // The end-of-central-directory record: the last `PK\5\6` within the final 64 KiB + 22 bytes.
        var eocd = -1
        var i = n - 22
        while i >= max(0, n - 65_557) {
            if u32(i) == 0x0605_4B50 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0, let disk = u16(eocd + 4), let cdDisk = u16(eocd + 6), let onDisk = u16(eocd + 8),
              let count = u16(eocd + 10), let size = u32(eocd + 12), let start = u32(eocd + 16) else {
            return damaged("it is not a zip archive (no end of central directory); the file is truncated or not a backup")
        }
        let zip64 = "it is a zip64 archive (okit never writes one; its sizes cannot be checked)"
        if count == 0xFFFF || onDisk == 0xFFFF || size == 0xFFFF_FFFF || start == 0xFFFF_FFFF { return hostile(zip64) }
        if eocd >= 20, u32(eocd - 20) == 0x0706_4B50 { return hostile(zip64) }
        if disk != 0 || cdDisk != 0 || onDisk != count { return hostile("it spans several disks") }
        if count > limits.maxEntries { return hostile("it has \(count) entries (at most \(limits.maxEntries))") }
        guard start + size <= eocd else { return damaged("its central directory does not add up (it overlaps its end record)") }
        var total: Int64 = 0
        var p = start
        for _ in 0..<count {
            guard u32(p) == 0x0201_4B50, let method = u16(p + 10), let compressed = u32(p + 20),
                  let uncompressed = u32(p + 24), let nameLength = u16(p + 28), let extra = u16(p + 30),
                  let comment = u16(p + 32), let local = u32(p + 42), p + 46 + nameLength + extra + comment <= start + size else {
                return damaged("its central directory does not add up (an entry is cut short)")
            }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(p + 46)..<(p + 46 + nameLength)]), as: UTF8.self)
            let shown = "entry \"" + JSONPathLocator.escape(String(name.prefix(120))) + "\""
            if compressed == 0xFFFF_FFFF || uncompressed == 0xFFFF_FFFF || local == 0xFFFF_FFFF { return hostile(zip64) }
            if hasZip64Field(bytes, from: p + 46 + nameLength, count: extra) { return hostile(zip64) }
            p += 46 + nameLength + extra + comment
            if method != 0 && method != 8 { return hostile("\(shown) uses compression method \(method) (only stored and deflate are read)") }
            if method == 0 && compressed != uncompressed { return hostile("\(shown) is stored but its two sizes differ") }
            let ratio = Int64(uncompressed) / Int64(max(1, compressed))
            if Int64(uncompressed) > limits.ratioFloor && ratio > limits.maxRatio {
                return hostile("\(shown) would expand \(ratio) times (\(compressed) to \(uncompressed) bytes); at most \(limits.maxRatio) times are read",
                               limit: "backupMaxRatio")
            }
            total += Int64(uncompressed)
            if total > limits.maxTotal {
                return hostile("its files add up to more than \(limits.maxTotal >> 20) MiB, the most a restore reads", limit: "backupMaxSize")
            }
            guard u32(local) == 0x0403_4B50, let localName = u16(local + 26), let localExtra = u16(local + 28) else {
                return damaged("\(shown) has no local header where the directory says")
            }
            if hasZip64Field(bytes, from: local + 30 + localName, count: localExtra) { return hostile(zip64) }
            let data = local + 30 + localName + localExtra
            guard data + compressed <= n else { return damaged("\(shown) lies beyond the end of the file") }
            if method == 8 {
                let stream = UnsafeRawBufferPointer(rebasing: bytes[data..<(data + compressed)])
                if !DeflateCheck.streamEnds(stream, size: uncompressed) {
                    return damaged("\(shown) is cut short or damaged (its compressed data does not end within it)")
                }
            }
        }
        if p != start + size { return damaged("its central directory does not add up (it holds more than its entries)") }
        return nil
    }

    /// Whether an extra-field block holds a zip64 field (id 1).
    static func hasZip64Field(_ bytes: UnsafeRawBufferPointer, from: Int, count: Int) -> Bool {
        var q = from
        let end = min(bytes.count, from + count)
        while q + 4 <= end {
            let id = Int(bytes[q]) | Int(bytes[q + 1]) << 8
            let size = Int(bytes[q + 2]) | Int(bytes[q + 3]) << 8
            if id == 1 { return true }
            q += 4 + size
        }
        return false
    }
}

extension DeflateCheck {
    /// Whether a raw deflate stream ends exactly at the end of `input`'s bytes or within them, producing exactly
    /// `size` bytes (into a 64 KiB buffer, never more memory).
    static func streamEnds(_ input: UnsafeRawBufferPointer, size: Int) -> Bool {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        var produced = 0
        var out = [UInt8](repeating: 0, count: 1 << 16)
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return size == 0 && input.isEmpty }
        stream.next_in = UnsafeMutablePointer(mutating: base)
        stream.avail_in = UInt32(input.count)
        return out.withUnsafeMutableBufferPointer { buffer -> Bool in
            while true {
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(buffer.count)
                let result = inflate(&stream, Z_NO_FLUSH)
                produced += buffer.count - Int(stream.avail_out)
                if produced > size { return false }
                if result == Z_STREAM_END { return produced == size }
                if result != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0) { return false }
            }
        }
    }
}
