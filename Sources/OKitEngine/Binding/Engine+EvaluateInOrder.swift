/// One binding evaluated on many entities in an order (a list's rows in their sort order, a sequence of contexts),
/// reading ahead.
///
/// Each evaluation on an entity not touched for a while waits for its lines one after another: the entity (its
/// first read is a retain, an atomic instruction that also keeps every later load waiting), then its values.
/// Evaluated one by one, the engine cannot know the next context; given the order, it asks for the lines of the
/// entity `far` places on and for the first field's value of the one `near` places on (`CacheLines`), so they
/// arrive while earlier entities are evaluated — what a plain Lua loop over tables gets from the processor, whose
/// loads of the next iterations go on while one waits (performance.md, issue 38, eighteenth session).
extension Engine {
    /// Evaluates `binding` on `entities[order[0]]`, `entities[order[1]]`, … and passes each value to `body` with its
    /// place in `order`: the same values, recorded reads and errors as `evaluate(binding, entities[order[k]])` for
    /// each `k` in turn (the first error stops the pass). Every `order` element must be an index of `entities`.
    public func evaluate(_ binding: Binding, on entities: [Entity], inOrder order: [Int], mode: EvaluationMode = .query,
                         _ body: (Int, Value) throws -> Void) throws {
        let first = binding.firstStepSlot
        try entities.withUnsafeBufferPointer { items in
            // The array holds every entity for the whole pass, so each is read as an unretained reference.
            try items.withMemoryRebound(to: Unmanaged<Entity>.self) { items in
                try order.withUnsafeBufferPointer { order in
                    let n = order.count
                    for k in 0..<n {
                        precondition(order[k] >= 0 && order[k] < items.count, "order[\(k)] is no index of the entities")
                        BindingReadAhead.step(items, order, k, slot: first?.slot ?? -1)   // warm after the first
                        let value = try items[order[k]]._withUnsafeGuaranteedRef { try evaluate(binding, $0, mode: mode) }
                        try body(k, value)
                    }
                }
            }
        }
    }
}

/// The prefetches of `Engine.evaluate(_:on:inOrder:)`, one pass at place `k` of the order: the entity `far` places
/// on, the first field's value of the one `near` on (its entity arrived meanwhile), what that value points to
/// `then` places on (a collection's object, a text on the heap), and the first element a collection noted `last`
/// places on (`authors[0]/…`). Nothing here retains or writes; a value is read only within its entity's slots.
enum BindingReadAhead {
    static let far = 12
    static let near = 6
    static let then = 4
    static let last = 2

    @inline(__always)
    static func step(_ items: UnsafeBufferPointer<Unmanaged<Entity>>, _ order: UnsafeBufferPointer<Int>, _ k: Int, slot: Int) {
        if let e = entity(items, order, k &+ far) {
            CacheLines.prefetch(UnsafeRawPointer(e.toOpaque()), byteCount: 72)
        }
        guard slot >= 0 else { return }
        // A slot past an entity of another type's values is only prefetched, never read: a prefetch never faults.
        if let e = entity(items, order, k &+ near) {
            e._withUnsafeGuaranteedRef { CacheLines.prefetch(UnsafeRawPointer($0.slots + slot)) }
        }
        if let e = entity(items, order, k &+ then) {
            e._withUnsafeGuaranteedRef { e in
                guard EntityReadAhead.holdsValue(e, slot) else { return }
                if let c = e.collectionInSlot(slot) {
                    CacheLines.prefetch(UnsafeRawPointer(c.toOpaque()), byteCount: 88)
                } else {
                    EntityReadAhead.prefetchText(e.slots + slot)
                }
            }
        }
        if let e = entity(items, order, k &+ last),
           let first = e._withUnsafeGuaranteedRef({ e in firstValue(e, slot)?._withUnsafeGuaranteedRef { $0.notedFirstEntity } }) {
            CacheLines.prefetch(UnsafeRawPointer(first.toOpaque()), byteCount: 72)
        }
    }

    /// The entity at place `p` of the order, if there is one.
    @inline(__always)
    static func entity(_ items: UnsafeBufferPointer<Unmanaged<Entity>>, _ order: UnsafeBufferPointer<Int>, _ p: Int) -> Unmanaged<Entity>? {
        guard p < order.count else { return nil }
        let i = order[p]
        return i >= 0 && i < items.count ? items[i] : nil
    }

    /// The collection in `slot` of `e`, when the slot is one of its values and holds one.
    @inline(__always)
    static func firstValue(_ e: Entity, _ slot: Int) -> Unmanaged<EntityCollection>? {
        EntityReadAhead.holdsValue(e, slot) ? e.collectionInSlot(slot) : nil
    }
}

extension Binding {
    /// The slot cache of the first field of a binding that is one relative path of plain field steps (`name`,
    /// `authors[0]/name`), nil otherwise.
    var firstStepSlot: SlotCache? {
        guard parts.count == 1, case .path(let p) = parts[0], !p.absolute else { return nil }
        return p.simpleSteps?.first?.cache
    }
}
