/// Row numbers by key, over the keys of the rows a load read (`RelationalReadRows.keys`): open addressing with
/// linear probing over one array of 8-byte slots, each a 32-bit tag of the key's hash beside the row number.
/// A probe compares tags and reads a row's key only when they match; an insert or a lookup touches one slot in
/// a table of 8 MiB for 310,000 rows, where the `Dictionary` of keys and stored rows it replaced touched its
/// bitmap, its keys and its values (with an array of child keys in each) — most of attaching, 41 % of a load.
///
/// The table never removes (a store's changes are kept beside it, `RelationalStoredRows`). Hashes are drawn from
/// a basis per process (`ByteHash.fnvBasis`), so keys chosen to collide cannot be chosen in advance.
package struct RelationalRowIndex {
    /// `tag << 32 | (row + 1)`; 0 is empty.
    private var slots: [UInt64]
    private let mask: Int
    package private(set) var count = 0

    /// An index with room for `n` keys (at most half full).
    package init(capacity n: Int) {
        var c = 16
        while c < 2 * n { c <<= 1 }
        slots = [UInt64](repeating: 0, count: c)
        mask = c - 1
    }

    @inline(__always)
    package static func hash(_ key: RelationalRowKey) -> UInt64 {
        switch key {
        case .uuid(let hi, let lo):
            let p = (hi ^ ByteHash.fnvBasis).multipliedFullWidth(by: lo ^ 0x9E37_79B9_7F4A_7C15)
            return p.high ^ p.low
        case .text(var s):
            return s.withUTF8 { ByteHash.fnv($0) }
        }
    }

    /// The row of `key` (nil: none); `keys` are the rows' keys by row number.
    package func find(_ key: RelationalRowKey, keys: [RelationalRowKey]) -> Int32? { keys.withUnsafeBufferPointer { find(key, keys: $0) } }

    /// The row of `key` (nil: none), over the keys in place.
    @inline(__always)
    package func find(_ key: RelationalRowKey, keys: UnsafeBufferPointer<RelationalRowKey>) -> Int32? {
        let h = Self.hash(key)
        let tag = h >> 32
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s >> 32 == tag {
                let row = Int(s & 0xFFFF_FFFF) - 1
                if keys[row] == key { return Int32(row) }
            }
            i = (i + 1) & mask
        }
    }

    /// Puts `row` under its key (`keys[row]`) unless a row is there already and `keep` says to keep it.
    /// Returns the row that was there (nil: none).
    @discardableResult
    package mutating func insert(_ row: Int32, keys: UnsafeBufferPointer<RelationalRowKey>, keep: (Int32) -> Bool = { _ in true }) -> Int32? {
        let key = keys[Int(row)]
        let h = Self.hash(key)
        let tag = h >> 32
        let entry = tag << 32 | UInt64(row + 1)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 {
                slots[i] = entry
                count += 1
                return nil
            }
            if s >> 32 == tag {
                let old = Int32(truncatingIfNeeded: s & 0xFFFF_FFFF) - 1
                if keys[Int(old)] == key {
                    if !keep(old) { slots[i] = entry }
                    return old
                }
            }
            i = (i + 1) & mask
        }
    }
}
