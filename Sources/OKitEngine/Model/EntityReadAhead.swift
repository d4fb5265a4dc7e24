/// Prefetches (`CacheLines`) ahead of a pass that reads a list's entities in order: at element `i`, the entity
/// `far` elements on, the values of the one `near` on (its entity arrived meanwhile), and the heap text of the
/// one `text` on (its values arrived).
///
/// A pass over 100,000 books read each book cold, one miss after another: its retain waited for the entity,
/// the key's read for its values, the key's retain for its text. Each retain is an atomic instruction, which
/// also keeps every later load waiting. With the lines asked for a few books ahead they arrive while the pass
/// works on earlier books (a list's first pass 43–47 → 35–38 ms at 100,000 books; issue 16, sixteenth
/// session). Nothing here retains or writes: an element's entity is read from the list's memory in place, and
/// an entity's `slots`, a `let`, through an unretained reference.
enum EntityReadAhead {
    /// How many elements ahead an entity's lines are asked for, its values' and its text's.
    static let far = 12
    static let near = 6
    static let text = 3

    /// Prefetches for a pass now at `run[i]` that reads value `slot` of each entity (-1: only the entity). An
    /// element that is not an entity is passed over.
    @inline(__always)
    static func step(_ run: UnsafeBufferPointer<Value>, _ i: Int, slot: Int) {
        let f = i &+ far
        if f < run.count, let e = run[f].unretainedEntity {
            CacheLines.prefetch(UnsafeRawPointer(e.toOpaque()), byteCount: 72)
        }
        guard slot >= 0 else { return }
        let n = i &+ near
        if n < run.count, let e = run[n].unretainedEntity {
            CacheLines.prefetch(UnsafeRawPointer(e._withUnsafeGuaranteedRef { $0.slots } + slot))
        }
        let t = i &+ text
        if t < run.count, let e = run[t].unretainedEntity {
            e._withUnsafeGuaranteedRef { e in
                guard holdsValue(e, slot) else { return }
                prefetchText(e.slots + slot)
            }
        }
    }

    /// Whether `slot` is one of `e`'s values, to be read: a row of another type may have fewer slots, and slot 0
    /// of a packed id holds bits, not a value (`PackedId`).
    @inline(__always)
    static func holdsValue(_ e: Entity, _ slot: Int) -> Bool {
        slot < Int(e.slotCount) && (slot != 0 || e.flags & Entity.packedIdFlag == 0)
    }

    /// Prefetches a string value's text when it is on the heap.
    @inline(__always)
    static func prefetchText(_ value: UnsafeMutablePointer<Value>) {
        if case .string = value.pointee, let text = heapText(UnsafeRawPointer(value)) {
            CacheLines.prefetch(text, byteCount: 48)
        }
    }

    /// Where a string value's text is on the heap, read from the string's bits without retaining it (a retain
    /// would wait for the line): a native string's second word is its storage's address, with the top four bits
    /// (the standard library's discriminator, on 64-bit platforms) all zero; small strings, literals and
    /// bridged strings have some of them set. A layout the library changes makes this a useless prefetch,
    /// never a wrong read: the address is only prefetched.
    @inline(__always)
    private static func heapText(_ string: UnsafeRawPointer) -> UnsafeRawPointer? {
        let object = string.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        guard object >> 60 == 0 else { return nil }
        return UnsafeRawPointer(bitPattern: object)
    }
}
