/// The id index's table of canonical UUID ids (`PackedId`): open addressing with linear probing over one
/// array of (high bits, low bits, entity) slots, so that a lookup or an insert touches one cache line where
/// a `Dictionary` touches its bitmap, its keys and its values (three misses in a table of 300,000 ids).
///
/// The table holds its entities strongly (as the dictionary did). Hashing mixes both halves with a seed drawn
/// per table, so ids chosen to collide cannot be chosen in advance. Removal shifts the following slots back
/// (no tombstones), so the table never fills with the dead.
final class UUIDTable {
    struct Slot {
        var hi: UInt64
        var lo: UInt64
        var entity: Unmanaged<Entity>?
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private(set) var count = 0
    private let seed: UInt64

    init() {
        mask = 15
        slots = .allocate(capacity: 16)
        slots.initialize(repeating: Slot(hi: 0, lo: 0, entity: nil), count: 16)
        seed = UInt64.random(in: .min ... .max)
    }

    deinit {
        for i in 0...mask { slots[i].entity?.release() }
        slots.deallocate()
    }

    @inline(__always)
    private func bucket(_ hi: UInt64, _ lo: UInt64) -> Int {
        var x = (hi ^ seed) &* 0x9E37_79B9_7F4A_7C15
        x ^= lo &* 0xD6E8_FEB8_6659_FD93
        x ^= x &>> 29
        return Int(truncatingIfNeeded: x) & mask
    }

    /// Makes room for `n` ids in all without growing (at most 70 % of the slots used).
    func reserve(_ n: Int) {
        var capacity = mask + 1
        while n * 10 > capacity * 7 { capacity *= 2 }
        if capacity != mask + 1 { rehash(capacity) }
    }

    private func rehash(_ capacity: Int) {
        let old = slots, oldCapacity = mask + 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(hi: 0, lo: 0, entity: nil), count: capacity)
        mask = capacity - 1
        for i in 0..<oldCapacity {
            let s = old[i]
            guard s.entity != nil else { continue }
            var j = bucket(s.hi, s.lo)
            while slots[j].entity != nil { j = (j &+ 1) & mask }
            slots[j] = s
        }
        old.deallocate()
    }

    /// The slot holding the id, or the empty slot that ends its run (where it would go), probing from `home`.
    @inline(__always)
    private func probe(_ hi: UInt64, _ lo: UInt64, from home: Int) -> Int {
        var j = home
        while slots[j].entity != nil, slots[j].hi != hi || slots[j].lo != lo { j = (j &+ 1) & mask }
        return j
    }

    /// The entity with this id.
    @inline(__always)
    func find(_ hi: UInt64, _ lo: UInt64) -> Entity? {
        slots[probe(hi, lo, from: bucket(hi, lo))].entity?.takeUnretainedValue()
    }

    /// Adds the id unless it is there; returns the entity already there (nothing changed) or nil (added).
    @inline(__always)
    func insertIfAbsent(_ hi: UInt64, _ lo: UInt64, _ entity: Entity) -> Entity? {
        if (count &+ 1) * 10 > (mask + 1) * 7 { rehash((mask + 1) * 2) }
        let j = probe(hi, lo, from: bucket(hi, lo))
        if let e = slots[j].entity { return e.takeUnretainedValue() }
        slots[j] = Slot(hi: hi, lo: lo, entity: .passRetained(entity))
        count += 1
        return nil
    }

    /// Puts `entity` under the id in place of the one there (or adds it).
    func replace(_ hi: UInt64, _ lo: UInt64, with entity: Entity) {
        let j = probe(hi, lo, from: bucket(hi, lo))
        guard let e = slots[j].entity else { _ = insertIfAbsent(hi, lo, entity); return }
        slots[j].entity = .passRetained(entity)
        e.release()
    }

    /// An id to add in bulk, holding its entity retained (`insertAll` keeps or releases it).
    struct Entry {
        var hi: UInt64
        var lo: UInt64
        var entity: Unmanaged<Entity>
    }

    /// Adds many ids at once (a loaded model's). They are grouped by the part of the table they hash to before
    /// they are placed, so the placing walks the table in order instead of missing the cache once per id (a
    /// third of the first lookup's time after a load of 100,000 books). Returns the entries whose id was
    /// already there with another entity (released: the caller keeps them as duplicates).
    func insertAll(_ entries: [Entry]) -> [Entity] {
        let n = entries.count
        guard n > 0 else { return [] }
        reserve(count + n)
        let tableBits = (mask + 1).trailingZeroBitCount
        let groupBits = min(tableBits, 12)
        let shift = tableBits - groupBits
        var homes = [Int](repeating: 0, count: n)
        var starts = [Int](repeating: 0, count: (1 << groupBits) + 1)
        for i in 0..<n {
            let h = bucket(entries[i].hi, entries[i].lo)
            homes[i] = h
            starts[(h >> shift) + 1] += 1
        }
        for g in 0..<(1 << groupBits) { starts[g + 1] += starts[g] }
        var order = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let g = homes[i] >> shift
            order[starts[g]] = Int32(truncatingIfNeeded: i)
            starts[g] += 1
        }
        var dropped: [Entity] = []
        for k in 0..<n {
            let i = Int(order[k])
            let x = entries[i]
            let j = probe(x.hi, x.lo, from: homes[i])
            if let e = slots[j].entity {
                let mine = x.entity.takeRetainedValue()
                if e.takeUnretainedValue() !== mine { dropped.append(mine) }
            } else {
                slots[j] = Slot(hi: x.hi, lo: x.lo, entity: x.entity)
                count += 1
            }
        }
        return dropped
    }

    /// Removes the id; the slots after it move back to where a lookup finds them.
    func remove(_ hi: UInt64, _ lo: UInt64) {
        let j = probe(hi, lo, from: bucket(hi, lo))
        guard let e = slots[j].entity else { return }
        e.release()
        shiftBack(from: j)
        count -= 1
    }

    private func shiftBack(from start: Int) {
        var i = start
        var j = start
        while true {
            j = (j &+ 1) & mask
            guard slots[j].entity != nil else { break }
            let k = bucket(slots[j].hi, slots[j].lo)
            // The slot at j may move to i when its home k is not cyclically within (i, j].
            let between = i <= j ? (k > i && k <= j) : (k > i || k <= j)
            if !between {
                slots[i] = slots[j]
                i = j
            }
        }
        slots[i] = Slot(hi: 0, lo: 0, entity: nil)
    }
}
