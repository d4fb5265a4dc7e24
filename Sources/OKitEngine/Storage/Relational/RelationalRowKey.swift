/// A row's key (its id, or a keyless row's place): a canonical UUID id (`PackedId`, what okit and OKit create)
/// by its 128 bits, any other key by its text. A load makes no string for a UUID key or parent and retains
/// nothing to keep one; a probe compares two integers instead of 36 bytes of a string elsewhere in memory.
package enum RelationalRowKey: Hashable {
    case uuid(UInt64, UInt64)
    case text(String)

    package init(_ text: String) {
        var t = text
        self = t.withUTF8 { PackedId.parse($0) }.map { .uuid($0.0, $0.1) } ?? .text(text)
    }

    /// The key of a column's UTF-8 bytes.
    @inline(__always)
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        if let bits = PackedId.parse(bytes) { self = .uuid(bits.0, bits.1) } else { self = .text(String(decoding: bytes, as: UTF8.self)) }
    }

    /// The key as the database has it.
    package var text: String {
        switch self {
        case .uuid(let hi, let lo): return PackedId.text((hi, lo))
        case .text(let s): return s
        }
    }
}
