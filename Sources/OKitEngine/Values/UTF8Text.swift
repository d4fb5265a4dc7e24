/// Strings from UTF-8 bytes, validated. ASCII (the common case for names and ids) takes a fast path that avoids
/// the generic, unspecialized validation of the standard library.
public enum UTF8Text {
    @inline(__always)
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var ascii = true
        for b in bytes where b >= 0x80 { ascii = false; break }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
