/// The hash of short byte strings that okit's own tables use (a list's distinct texts, a SQLite load's rows by
/// key): a process-wide basis drawn at random, FNV-1a's multiply applied eight bytes at a time.
enum ByteHash {
    static let fnvBasis: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64.random(in: 0 ... .max)

    /// A hash of a text's UTF-8 bytes, eight at a time (FNV-1a's multiply on words, then a final mix; the
    /// standard hasher costs several times more per short text, and FNV-1a byte by byte was a tenth of a list's
    /// first pass), from a basis drawn per process, so that texts chosen to collide cannot be chosen in advance.
    @inline(__always)
    static func fnv(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = fnvBasis ^ UInt64(bytes.count)
        guard let p = bytes.baseAddress else { return h }
        let n = bytes.count
        var i = 0
        while i + 8 <= n {
            h = (h ^ UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) &* 0x100_0000_01b3
            h ^= h >> 32
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(p[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x100_0000_01b3
        return h ^ (h >> 29)
    }

    /// `fnv` of a text's UTF-8 bytes (read in place when the text is native).
    @inline(__always)
    static func fnv(_ text: String) -> UInt64 {
        if let h = text.utf8.withContiguousStorageIfAvailable({ fnv($0) }) { return h }
        var copy = text
        return copy.withUTF8 { fnv($0) }
    }
}
