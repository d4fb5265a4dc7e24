/// Entity → slot of a list's rows (`ListRowTable`): open addressing on the entity's address, at most half full,
/// removals by shifting the entries after them back (no tombstones). A `Dictionary` hashed every address with
/// the standard hasher: a tenth of a list's first pass over 100,000 books (performance.md, issue 16).
struct EntitySlotMap {
    /// Entity addresses (0: empty) and their slots.
    private var keys: [UInt]
    private var values: [Int32]
    private var mask: Int
    private(set) var count = 0

    /// An empty map with room for `capacity` entries before it grows.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = [UInt](repeating: 0, count: size)
        values = [Int32](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func home(_ k: UInt, _ mask: Int) -> Int {
        let m = UInt64(k) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: m ^ (m >> 29)) & mask
    }

    subscript(e: ObjectIdentifier) -> Int32? {
        get {
            let k = UInt(bitPattern: e)
            var j = EntitySlotMap.home(k, mask)
            while true {
                let x = keys[j]
                if x == k { return values[j] }
                if x == 0 { return nil }
                j = (j &+ 1) & mask
            }
        }
        set {
            if let v = newValue { set(UInt(bitPattern: e), v) } else { remove(UInt(bitPattern: e)) }
        }
    }

    private mutating func set(_ k: UInt, _ v: Int32) {
        var j = EntitySlotMap.home(k, mask)
        while true {
            let x = keys[j]
            if x == k { values[j] = v; return }
            if x == 0 { break }
            j = (j &+ 1) & mask
        }
        keys[j] = k
        values[j] = v
        count += 1
        if count * 2 > mask + 1 { grow() }
    }

    private mutating func remove(_ k: UInt) {
        var i = EntitySlotMap.home(k, mask)
        while true {
            let x = keys[i]
            if x == k { break }
            if x == 0 { return }
            i = (i &+ 1) & mask
        }
        keys[i] = 0
        count -= 1
        // Entries after the hole that may sit in it move back (each stays at or after its home).
        var j = i
        while true {
            j = (j &+ 1) & mask
            let x = keys[j]
            if x == 0 { return }
            let h = EntitySlotMap.home(x, mask)
            if (j &- h) & mask >= (j &- i) & mask {
                keys[i] = x
                values[i] = values[j]
                keys[j] = 0
                i = j
            }
        }
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let size = (mask + 1) * 2
        keys = [UInt](repeating: 0, count: size)
        values = [Int32](repeating: 0, count: size)
        mask = size - 1
        for (k, v) in zip(oldKeys, oldValues) where k != 0 {
            var j = EntitySlotMap.home(k, mask)
            while keys[j] != 0 { j = (j &+ 1) & mask }
            keys[j] = k
            values[j] = v
        }
    }
}
