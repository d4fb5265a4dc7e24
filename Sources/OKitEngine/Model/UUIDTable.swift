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

    private var memory: ZeroedPages
    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private(set) var count = 0
    private let seed: UInt64

    init() {
        mask = 15
        memory = Self.emptySlots(16)
        slots = memory.base.assumingMemoryBound(to: Slot.self)
        seed = UInt64.random(in: .min ... .max)
    }

    deinit {
        for i in 0...mask { slots[i].entity?.release() }
        memory.release()
    }

    /// `capacity` empty slots: all bits zero is no id and no entity, so zeroed memory needs no initializing.
    private static func emptySlots(_ capacity: Int) -> ZeroedPages {
        let memory = ZeroedPages(byteCount: capacity * MemoryLayout<Slot>.stride)
        _ = memory.base.bindMemory(to: Slot.self, capacity: capacity)
        return memory
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
        let old = slots, oldMemory = memory, oldCapacity = mask + 1
        memory = Self.emptySlots(capacity)
        slots = memory.base.assumingMemoryBound(to: Slot.self)
        mask = capacity - 1
        for i in 0..<oldCapacity {
            let s = old[i]
            guard s.entity != nil else { continue }
            var j = bucket(s.hi, s.lo)
            while slots[j].entity != nil { j = (j &+ 1) & mask }
            slots[j] = s
        }
        oldMemory.release()
    }

    /// The slot holding the id, or the empty slot that ends its run (where it would go), probing from `home`.
    @inline(__always)
    private func probe(_ hi: UInt64, _ lo: UInt64, from home: Int) -> Int {
        var j = home
        while slots[j].entity != nil, slots[j].hi != hi || slots[j].lo != lo { j = (j &+ 1) & mask }
        return j
    }

    /// Prefetches the slot where a lookup or an insert of this id starts (`CacheLines`).
    @inline(__always)
    func prefetch(_ hi: UInt64, _ lo: UInt64) {
        CacheLines.prefetch(UnsafeRawPointer(slots + bucket(hi, lo)), byteCount: MemoryLayout<Slot>.stride)
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

    /// An id to add in bulk, with its entity retained (`insertReserved` keeps or releases it).
    struct Entry {
        let hi: UInt64
        let lo: UInt64
        let entity: Unmanaged<Entity>
    }

    /// Adds an id after `reserve` made room for it (no check for growth). The entity comes retained, and the
    /// table keeps that retain; returns the entity, released, when its id was already there with another.
    @inline(__always)
    func insertReserved(_ hi: UInt64, _ lo: UInt64, _ entity: Unmanaged<Entity>) -> Entity? {
        let j = probe(hi, lo, from: bucket(hi, lo))
        if let e = slots[j].entity {
            let mine = entity.takeRetainedValue()
            return e.takeUnretainedValue() === mine ? nil : mine
        }
        slots[j] = Slot(hi: hi, lo: lo, entity: entity)
        count += 1
        return nil
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
