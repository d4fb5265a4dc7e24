/// Entity → slot of a list's rows (`ListRowTable`): open addressing on the entity's address, at most half full,
/// removals by shifting the entries after them back (no tombstones). A `Dictionary` hashed every address with
/// the standard hasher: a tenth of a list's first pass over 100,000 books (performance.md, issue 16).
///
/// The table keeps only the slots (4 bytes an entry, −1 empty): the entity a slot holds is the row's, which the
/// caller gives (`entityAt`), so the addresses are not kept a second time (100,000 rows: 1 MB, not 3; issue 38).
/// Each call gets `entityAt` for the rows as they are then; every slot in the table must hold a row.
struct EntitySlotMap {
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// An empty map with room for `capacity` entries before it grows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func home(_ e: ObjectIdentifier, _ mask: Int) -> Int {
        let m = UInt64(UInt(bitPattern: e)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: m ^ (m >> 29)) & mask
    }

    /// The slot of `e`, if it has one.
    func slot(of e: ObjectIdentifier, entityAt: (Int32) -> ObjectIdentifier) -> Int32? {
        var j = EntitySlotMap.home(e, mask)
        while true {
            let v = values[j]
            if v < 0 { return nil }
            if entityAt(v) == e { return v }
            j = (j &+ 1) & mask
        }
    }

    /// Gives `e` the slot `slot` (which holds `e`'s row), or takes `e` out (nil).
    mutating func set(_ e: ObjectIdentifier, _ slot: Int32?, entityAt: (Int32) -> ObjectIdentifier) {
        if let slot { insert(e, slot, entityAt) } else { remove(e, entityAt) }
    }

    private mutating func insert(_ e: ObjectIdentifier, _ slot: Int32, _ entityAt: (Int32) -> ObjectIdentifier) {
        var j = EntitySlotMap.home(e, mask)
        while true {
            let v = values[j]
            if v < 0 { break }
            if entityAt(v) == e { values[j] = slot; return }
            j = (j &+ 1) & mask
        }
        values[j] = slot
        count += 1
        if count * 2 > mask + 1 { grow(entityAt) }
    }

    private mutating func remove(_ e: ObjectIdentifier, _ entityAt: (Int32) -> ObjectIdentifier) {
        var i = EntitySlotMap.home(e, mask)
        while true {
            let v = values[i]
            if v < 0 { return }
            if entityAt(v) == e { break }
            i = (i &+ 1) & mask
        }
        values[i] = -1
        count -= 1
        // Entries after the hole that may sit in it move back (each stays at or after its home).
        var j = i
        while true {
            j = (j &+ 1) & mask
            let v = values[j]
            if v < 0 { return }
            let h = EntitySlotMap.home(entityAt(v), mask)
            if (j &- h) & mask >= (j &- i) & mask {
                values[i] = v
                values[j] = -1
                i = j
            }
        }
    }

    private mutating func grow(_ entityAt: (Int32) -> ObjectIdentifier) {
        let old = values
        let size = (mask + 1) * 2
        values = [Int32](repeating: -1, count: size)
        mask = size - 1
        for v in old where v >= 0 {
            var j = EntitySlotMap.home(entityAt(v), mask)
            while values[j] >= 0 { j = (j &+ 1) & mask }
            values[j] = v
        }
    }
}
