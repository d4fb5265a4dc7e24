import Foundation

/// The hash of a row's written column values: what a store compares with what the database holds, to write
/// only the rows that changed. The writer hashes the values it binds (`add(_:)`); the reader hashes the columns
/// as SQLite hands them over (`add` of a `RelationalRawColumn`), bytes without making strings, with the same
/// result for the same values.
///
/// Each value is mixed in with its storage class; text and blobs eight bytes at a time with their length. The
/// mix is a folded 128-bit multiply from a basis drawn per process (`ByteHash.fnvBasis`), so values chosen to
/// collide cannot be chosen in advance (a collision would keep a changed row from being written). The standard
/// hasher, over a string made for each text, was a tenth of reading a row.
package struct RelationalRowHash {
    private var h: UInt64 = ByteHash.fnvBasis

    @inline(__always)
    private mutating func mix(_ w: UInt64) {
        let p = (h ^ w).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        h = p.high ^ p.low
    }

    @inline(__always) package mutating func null() { mix(0x5A) }
    @inline(__always) package mutating func int(_ i: Int64) { mix(0x1B); mix(UInt64(bitPattern: i)) }
    @inline(__always) package mutating func double(_ x: Double) { mix(0x2C); mix(x.bitPattern) }

    /// TEXT (`tag` 3) or BLOB (`tag` 4) bytes.
    @inline(__always)
    package mutating func bytes(_ tag: UInt64, _ b: UnsafeRawBufferPointer) {
        let n = b.count
        mix(tag | UInt64(n) << 8)
        guard let p = b.baseAddress else { return }
        var i = 0
        while i + 8 <= n {
            mix(p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < n {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                tail |= UInt64(p.load(fromByteOffset: i, as: UInt8.self)) << shift
                shift += 8
                i += 1
            }
            mix(tail)
        }
    }

    /// A value as the writer binds it.
    package mutating func add(_ v: RelationalValue) {
        switch v {
        case .null: null()
        case .int64(let i): int(i)
        case .double(let x): double(x)
        case .string(var s): s.withUTF8 { bytes(3, UnsafeRawBufferPointer($0)) }
        case .blob(let d): d.withUnsafeBytes { bytes(4, $0) }
        }
    }

    /// A column as the reader has it (the same hash as `add` of the value it holds).
    @inline(__always)
    package mutating func add(_ c: RelationalRawColumn) {
        switch c.kind {
        case .null: null()
        case .integer: int(c.int)
        case .real: double(c.real)
        case .text: bytes(3, UnsafeRawBufferPointer(c.bytes))
        case .blob: bytes(4, UnsafeRawBufferPointer(c.bytes))
        }
    }

    package var value: Int {
        var x = h
        x ^= x >> 31
        return Int(Int64(bitPattern: x))
    }

    /// The hash of a row's values, as the writer binds them.
    package static func of(_ values: [RelationalValue]) -> Int {
        var hash = RelationalRowHash()
        for v in values { hash.add(v) }
        return hash.value
    }
}
