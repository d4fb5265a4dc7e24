import CZlib
import Foundation

/// A guard for reading archives (backups.md: no hang on any input). On Linux, ZIPFoundation inflates an entry
/// by reading the archive file onward until the deflate stream ends; a stream that does not end within the
/// entry's compressed bytes (a hostile or damaged archive) makes it wait at the end of the file forever. So okit
/// first walks the central directory itself and inflates each compressed entry from exactly its own bytes: its
/// stream must end there, without producing more than the size the directory gives.
enum DeflateCheck {
    /// The names of entries whose data lies outside the archive or whose deflate stream does not end within
    /// them; `["central directory"]` when the directory cannot be walked. Empty: every entry is safe to read.
    /// Zip64 archives (over 4 GiB, never written by okit) are left to ZIPFoundation.
    static func unsafeEntries(in bytes: [UInt8]) -> [String] {
        func u16(_ i: Int) -> Int? { i + 2 <= bytes.count ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : nil }
        func u32(_ i: Int) -> Int? {
            guard i + 4 <= bytes.count else { return nil }
            return Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24
        }
        // The end-of-central-directory record: the last `PK\5\6` within the final 64 KiB + 22 bytes.
        let lowest = max(0, bytes.count - 65_557)
        var eocd = -1
        var i = bytes.count - 22
        while i >= lowest {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x05, bytes[i + 3] == 0x06 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0, let count = u16(eocd + 10), let size = u32(eocd + 12), let start = u32(eocd + 16) else {
            return ["central directory"]
        }
        if count == 0xFFFF || size == 0xFFFF_FFFF || start == 0xFFFF_FFFF { return [] }   // zip64
        guard start + size <= eocd else { return ["central directory"] }
        var unsafe: [String] = []
        var p = start
        for _ in 0..<count {
            guard u32(p) == 0x0201_4B50, let method = u16(p + 10), let compressed = u32(p + 20), let uncompressed = u32(p + 24),
                  let nameLength = u16(p + 28), let extra = u16(p + 30), let comment = u16(p + 32), let local = u32(p + 42),
                  p + 46 + nameLength <= bytes.count else { return ["central directory"] }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            p += 46 + nameLength + extra + comment
            guard u32(local) == 0x0403_4B50, let localName = u16(local + 26), let localExtra = u16(local + 28) else {
                unsafe.append(name)
                continue
            }
            let data = local + 30 + localName + localExtra
            guard data + compressed <= bytes.count else { unsafe.append(name); continue }
            if method == 8, !streamEnds(bytes, from: data, count: compressed, limit: uncompressed) { unsafe.append(name) }
        }
        return unsafe
    }

    /// Whether a raw deflate stream ends within `count` bytes from `from`, producing at most `limit` bytes.
    static func streamEnds(_ bytes: [UInt8], from: Int, count: Int, limit: Int) -> Bool {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return false }
        defer { inflateEnd(&stream) }
        var produced = 0
        var out = [UInt8](repeating: 0, count: 1 << 16)
        return bytes.withUnsafeBufferPointer { input -> Bool in
            guard let base = input.baseAddress else { return false }
            stream.next_in = UnsafeMutablePointer(mutating: base + from)
            stream.avail_in = UInt32(count)
            return out.withUnsafeMutableBufferPointer { buffer -> Bool in
                while true {
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    produced += buffer.count - Int(stream.avail_out)
                    if produced > limit { return false }
                    if result == Z_STREAM_END { return true }
                    // Out of input without the end, or an error: the stream does not end here.
                    if result != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0) { return false }
                }
            }
        }
    }
}
