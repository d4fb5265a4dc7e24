/// A canonical id — `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` with upper-case hex digits, what okit and OKit
/// create — as its 128 bits: parsed from and written as text, and kept in an entity's slot 0 in place of a
/// `Value` (`Entity.setSlot`). Other ids (lower case, codes like "FANTASY") stay strings, so every id reads
/// back exactly as it was written.
@usableFromInline
enum PackedId {
    /// The bits of a canonical upper-case UUID, or nil. Branch-free per digit: ids are random, so a branch on
    /// "digit or letter" was mispredicted every other digit (150 ns an id, a third of a load).
    @inline(__always)
    static func parse(_ u: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard u.count == 36, let p = u.baseAddress, p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D else { return nil }
        var bad: UInt8 = 0
        var hi: UInt64 = 0, lo: UInt64 = 0
        for k in 0..<8 { hi = hi << 4 | hex(p[k], &bad) }
        for k in 9..<13 { hi = hi << 4 | hex(p[k], &bad) }
        for k in 14..<18 { hi = hi << 4 | hex(p[k], &bad) }
        for k in 19..<23 { lo = lo << 4 | hex(p[k], &bad) }
        for k in 24..<36 { lo = lo << 4 | hex(p[k], &bad) }
        return bad == 0 ? (hi, lo) : nil
    }

    /// The value of an upper-case hex digit; sets `bad` for any other byte.
    @inline(__always)
    static func hex(_ c: UInt8, _ bad: inout UInt8) -> UInt64 {
        let isDigit: UInt8 = c &- 0x30 < 10 ? 1 : 0
        let isLetter: UInt8 = c &- 0x41 < 6 ? 1 : 0
        bad |= (isDigit | isLetter) ^ 1
        return UInt64((c & 0x0F) &+ 9 &* (c >> 6))
    }

    /// The 36 bytes of the text, into `out` (which has room for them).
    @inline(__always)
    static func write(_ bits: (UInt64, UInt64), into out: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func digit(_ word: UInt64, _ n: Int) -> UInt8 {
            let d = UInt8(truncatingIfNeeded: word &>> UInt64(60 &- 4 &* n)) & 15
            return 0x30 &+ d &+ (d > 9 ? 7 : 0)
        }
        for n in 0..<8 { out[n] = digit(bits.0, n) }
        out[8] = 0x2D
        for n in 8..<12 { out[n + 1] = digit(bits.0, n) }
        out[13] = 0x2D
        for n in 12..<16 { out[n + 2] = digit(bits.0, n) }
        out[18] = 0x2D
        for n in 0..<4 { out[n + 19] = digit(bits.1, n) }
        out[23] = 0x2D
        for n in 4..<16 { out[n + 20] = digit(bits.1, n) }
    }

    /// The text of the bits.
    static func text(_ bits: (UInt64, UInt64)) -> String {
        String(unsafeUninitializedCapacity: 36) { buf in
            write(bits, into: buf.baseAddress!)
            return 36
        }
    }

    /// The text of the bits kept in a slot.
    @usableFromInline
    static func text(at slot: UnsafeMutablePointer<Value>) -> String { text(bits(at: slot)) }

    /// The bits kept in a slot (whose memory holds no `Value` while they are there).
    @inline(__always)
    static func bits(at slot: UnsafeMutablePointer<Value>) -> (UInt64, UInt64) {
        let raw = UnsafeRawPointer(slot)
        return (raw.load(as: UInt64.self), raw.load(fromByteOffset: 8, as: UInt64.self))
    }

    /// Keeps the bits in a slot whose `Value` was deinitialized.
    @inline(__always)
    static func store(_ bits: (UInt64, UInt64), at slot: UnsafeMutablePointer<Value>) {
        let raw = UnsafeMutableRawPointer(slot)
        raw.storeBytes(of: bits.0, as: UInt64.self)
        raw.storeBytes(of: bits.1, toByteOffset: 8, as: UInt64.self)
    }
}
