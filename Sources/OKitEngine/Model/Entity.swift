import Foundation

/// A dynamic entity: an instance of an `EntityType` with one value per stored field.
///
/// Reads of `values` are direct; every write goes through the `Engine`, which type-checks, records the change
/// for rollback, marks the model dirty and notifies exactly the dependent bindings.
public final class Entity {
    public let type: EntityType
    /// The stored values, one per slot, in one allocation without an array's header (`values` reads and
    /// writes them). Slot 0 of a type with ids holds a canonical upper-case UUID as its 128 bits
    /// (`packedId`, `PackedId`) instead of a 36-byte string on the heap: 100,000 books are three entities each, and
    /// their ids were a fifth of the model's memory (performance.md, issue 16).
    @usableFromInline let slots: UnsafeMutablePointer<Value>
    /// `parent`'s storage. Not a weak reference (weak references put every parent on Swift's slow
    /// reference-counting path, which cost a third of a binding's evaluation: performance.md, "How the design
    /// meets them"), so it is kept true by hand: a non-nil `parentReference` is alive (see `parent`).
    ///
    /// `parentReference`, `levelBits`, `state` and `flags` are read and written as whole values in the engine's
    /// one isolation domain, never passed `inout` and never held across a call: without dynamic exclusivity
    /// checks (a load makes and a store writes millions of entities).
    @exclusivity(unchecked) unowned(unsafe) var parentReference: Entity?
    /// Subscriptions that read this entity's fields, with the slot each read (see `DependencyGraph`).
    /// The three reader fields are the graph's, read and written only by it in the engine's one isolation
    /// domain, each access complete before the next (no call out while one is open): without dynamic
    /// exclusivity checks (a list's first pass attaches 100,000 of them).
    @exclusivity(unchecked) internal var readers: [(slot: Int, subscription: Subscription)] = []
    /// The first reader, inline (most entities on screen are read by one binding).
    @exclusivity(unchecked) internal var reader0: Subscription?
    /// What few entities have (a partial's payload, a model's root, unknown fields): one optional object, so
    /// that the others do not carry it.
    private var extra: EntityExtra?
    /// The number of slots (`EntityType.maxFields` at most).
    @usableFromInline let slotCount: UInt16
    @exclusivity(unchecked) private var levelBits: UInt16 = 1
    @exclusivity(unchecked) private var reader0SlotBits: UInt16 = .max
    /// Where the entity is in its life.
    @exclusivity(unchecked) public package(set) var state: State
    @exclusivity(unchecked) @usableFromInline var flags: UInt8 = 0

    @usableFromInline static let packedIdFlag: UInt8 = 1
    static let containedFlag: UInt8 = 2
    static let dirtyUnitFlag: UInt8 = 4

    public enum State: Equatable, Sendable {
        /// Created, not yet in a model.
        case detached
        /// Inside a model (reachable from a root).
        case managed
        /// Removed from its model.
        case removed
    }

    /// An entity with these values (as many as the type has fields).
    init(type: EntityType, values: ContiguousArray<Value>, state: State = .detached) {
        self.type = type
        self.state = state
        slotCount = UInt16(values.count)
        slots = .allocate(capacity: values.count)
        slots.initialize(repeating: .null, count: values.count)
        for i in 0..<values.count { setSlot(i, values[i]) }
    }

    /// An entity whose every field is null (the readers and `makeDefault` fill them in).
    init(type: EntityType, state: State = .detached) {
        self.type = type
        self.state = state
        let n = type.fields.count
        slotCount = UInt16(n)
        slots = .allocate(capacity: n)
        slots.initialize(repeating: .null, count: n)
    }

    deinit {
        clearBackReferences()
        if flags & Self.packedIdFlag != 0 {
            (slots + 1).deinitialize(count: Int(slotCount) - 1)
        } else {
            slots.deinitialize(count: Int(slotCount))
        }
        slots.deallocate()
    }

    /// The stored field values by slot (see `EntityType.slot(of:)`): reads are direct; writes go through the
    /// `Engine`, which type-checks, records the change for rollback, marks the model dirty and notifies exactly
    /// the dependent bindings.
    public var values: EntityValues {
        @inline(__always) get { EntityValues(entity: self) }
    }

    /// How deep the entity is nested in its tree (1 for a root or a detached entity on its own): kept by the
    /// reader, `markManaged`, `markRemoved` and `checkAdoptable` so that no tree grows past
    /// `Engine.maxEntityDepth` (storage.md "Limits").
    internal var level: Int32 {
        get { Int32(levelBits) }
        set { levelBits = UInt16(clamping: newValue) }
    }

    /// Before the entity goes, what it holds stops naming it: the `parent` of the entities in its fields, its
    /// collections and its payload, and the `owner` of its collections. A child or a collection that someone
    /// still holds then reads nil, never a freed entity. Only what still names this entity is cleared: while a
    /// model is read again into its root (`adoptValues`) a child is held twice and names its new holder.
    private func clearBackReferences() {
        let n = Int(slotCount)
        for i in type.childSlots where i < n {
            switch slots[i] {
            case .entity(let c):
                if c.parentReference === self { c.parentReference = nil }
            case .collection(let c):
                if c.ownerReference === self { c.ownerReference = nil }
                guard c.elementType.holdsEntity else { continue }
                c.items.forEachRun { run in
                    for item in run {
                        if case .entity(let x) = item, x.parentReference === self { x.parentReference = nil }
                    }
                }
            default: continue
            }
        }
        if let p = extra?.payload, p.parentReference === self { p.parentReference = nil }
    }

    /// Prefetches (`CacheLines`) what a write of `slot` reads after the entity: the slot, the list of readers and
    /// the first reader's first lines. A write to a book not touched for a while met these one after another
    /// (the value, then the readers, then each reader); asked for together, they arrive together.
    @inline(__always)
    func prefetchForWrite(_ slot: Int) {
        CacheLines.prefetch(UnsafeRawPointer(slots + slot))
        withUnsafeBytes(of: &readers) { b in
            // An array is the address of its storage: the count and the first elements follow its header.
            if let p = UnsafeRawPointer(bitPattern: b.load(as: UInt.self)) { CacheLines.prefetch(p + 16) }
        }
        guard reader0SlotBits != .max, let p = UnsafeRawPointer(bitPattern: reader0Bits) else { return }
        CacheLines.prefetch(p)
        CacheLines.prefetch(p + 64)
        CacheLines.prefetch(p + 128)
        CacheLines.prefetch(p + 192)
    }

    /// The first reader's address, read without retaining it (0 when there is none).
    @inline(__always)
    private var reader0Bits: UInt { withUnsafeBytes(of: &reader0) { $0.load(as: UInt.self) } }

    /// Prefetches (for `DependencyGraph.changed`) the first line of each reader of this entity's fields, through
    /// their addresses: the misses overlap, where marking them stale met them one after another, each behind a
    /// retain (an atomic instruction waits for its line).
    func warmReaders() {
        Subscription.warmFirstLine(reader0Bits)
        readers.withUnsafeBufferPointer { b in
            // Each element is a slot, then the subscription's address.
            let raw = UnsafeRawBufferPointer(b)
            let stride = MemoryLayout<(slot: Int, subscription: Subscription)>.stride
            var at = MemoryLayout<Int>.stride
            while at + MemoryLayout<UInt>.size <= raw.count {
                Subscription.warmFirstLine(raw.load(fromByteOffset: at, as: UInt.self))
                at += stride
            }
        }
    }

    /// The slot the first reader read (-1 when there is none).
    internal var reader0Slot: Int {
        get { reader0SlotBits == .max ? -1 : Int(reader0SlotBits) }
        set { reader0SlotBits = newValue < 0 ? .max : UInt16(clamping: newValue) }
    }

    /// Whether the entity is held by a field or a collection (ownership, independent of `parent`).
    package var isContained: Bool {
        get { flags & Self.containedFlag != 0 }
        set { if newValue { flags |= Self.containedFlag } else { flags &= ~Self.containedFlag } }
    }

    /// Whether the entity is in its model's list of changed entities (or, for a payload, of changed payloads).
    internal var isDirtyUnit: Bool {
        get { flags & Self.dirtyUnitFlag != 0 }
        set { if newValue { flags |= Self.dirtyUnitFlag } else { flags &= ~Self.dirtyUnitFlag } }
    }

    /// A partial's stub: its payload once loaded (or created); its parent is the stub.
    internal var payload: Entity? {
        get { extra?.payload }
        set { if newValue != nil || extra != nil { withExtra { $0.payload = newValue } } }
    }

    /// Whether this entity is a partial's payload (stored in a file of its own).
    internal var isPayloadRoot: Bool {
        get { extra?.isPayloadRoot ?? false }
        set { if newValue || extra != nil { withExtra { $0.isPayloadRoot = newValue } } }
    }

    /// The model, when this entity is a model's root.
    internal var rootOf: Model? {
        get { extra?.rootOf }
        set { if newValue != nil || extra != nil { withExtra { $0.rootOf = newValue } } }
    }

    /// Fields of the stored JSON that the schema does not know: kept verbatim and written back.
    internal var unknownFields: [(key: String, json: [UInt8])]? {
        get { extra?.unknownFields }
        set { if newValue != nil || extra != nil { withExtra { $0.unknownFields = newValue } } }
    }

    /// The slots whose stored value had another type than the field declares, kept for the migrations (the value
    /// is among `unknownFields`, under the field's name; `Engine+Mistyped.swift`).
    internal var mistypedSlots: [Int]? {
        get { extra?.mistypedSlots }
        set { if newValue != nil || extra != nil { withExtra { $0.mistypedSlots = newValue } } }
    }

    private func withExtra(_ body: (EntityExtra) -> Void) {
        if let x = extra { body(x) } else { let x = EntityExtra(); extra = x; body(x) }
    }

    /// The entity that holds this one (through a field or a collection); nil for roots, for entities not in a
    /// model yet (a detached tree gets its parents when it is attached), for entities removed and stored, and for
    /// an entity whose holder is gone.
    ///
    /// Safe to read for as long as you hold the entity: a parent that is not nil is alive. The engine sets
    /// parents only inside managed trees and clears them for every entity of a tree that it drops (a reload) or
    /// retires (removed, then stored); an entity that goes clears the parent of what it held, and a model that
    /// goes clears the parent of what was removed from it since its last store (docs/unsafe.md).
    public package(set) var parent: Entity? {
        @inline(__always) get { parentReference }
        @inline(__always) set { parentReference = newValue }
    }

    /// The entity's id, or nil for types without ids.
    public var id: String? {
        guard type.hasId, case .string(let s) = values[0] else { return nil }
        return s
    }

    /// The id's 128 bits when it is a canonical upper-case UUID (no string is made), else nil.
    var packedId: (UInt64, UInt64)? {
        flags & Self.packedIdFlag != 0 ? PackedId.bits(at: slots) : nil
    }

    /// The value of a stored field by name (no dependency tracking; bindings and the engine's `read` track).
    public subscript(field: String) -> Value? {
        type.slot(of: field).map { values[$0] }
    }

    /// The root entity of the tree this entity is in.
    public var root: Entity {
        var e = self
        while let p = e.parent { e = p }
        return e
    }

    /// The model this entity belongs to, if it is attached to one.
    public var model: Model? { root.rootOf }

    /// `Type(id)` or `Type`: for messages.
    public var debugName: String { id.map { "\(type.name)(\($0))" } ?? type.name }

    /// The display string: the type's `description` computed field when defined, else `Type(id)`;
    /// for a reference, its target's display string.
    public var displayString: String? {
        if type.isRef {
            return refTarget.flatMap { $0.displayString }
        }
        if let d = type.computed["description"], let v = try? d.get(self) { return v.displayString }
        return debugName
    }

    /// For a reference entity: the target, resolved through the id index of the engine that loaded it (only an
    /// entity of the ref's target type).
    public var refTarget: Entity? {
        guard type.isRef, case .string(let key) = values[1], !key.isEmpty else { return nil }
        return model?.engine?.idIndex.lookup(key, from: model, type: type.refTarget).entity
    }
}

extension Entity {
    /// Calls `body` with each entity the fields and collections hold (not a partial's payload: `forEachChild`).
    @inline(__always)
    func forEachChildValue(_ body: (Entity) throws -> Void) rethrows {
        let n = Int(slotCount)
        for i in type.childSlots where i < n {
            switch slots[i] {
            case .entity(let c): try body(c)
            case .collection(let coll):
                guard coll.elementType.holdsEntity else { continue }
                for item in coll.items { if case .entity(let c) = item { try body(c) } }
            default: continue
            }
        }
    }

    /// Calls `body` for each entity this one holds directly (through entity fields and collections, and a
    /// partial's payload).
    @inline(__always)
    package func forEachChild(_ body: (Entity) throws -> Void) rethrows {
        try forEachChildValue(body)
        if let p = payload { try body(p) }
    }
}

extension Entity: CustomStringConvertible {
    public var description: String { debugName }
}

extension Entity {
    /// Takes `other`'s values and unknown fields (a model read again into its root), becoming the parent of the
    /// entities and the owner of the collections among them.
    func adoptValues(of other: Entity) {
        // The collections replaced stop naming this entity as their owner (someone may still hold one).
        for i in type.childSlots where i < Int(slotCount) {
            if case .collection(let old) = slots[i], old.ownerReference === self { old.ownerReference = nil }
        }
        for i in 0..<min(Int(slotCount), Int(other.slotCount)) {
            if i == 0, let bits = other.packedId { setId(bits) } else { setSlot(i, other.slot(i)) }
        }
        unknownFields = other.unknownFields
        for v in values {
            switch v {
            case .entity(let c): c.parent = self
            case .collection(let c):
                c.owner = self
                for item in c.items { if case .entity(let x) = item { x.parent = self } }
            default: break
            }
        }
    }
}

/// The properties few entities have, out of the entity object (see `Entity.extra`).
final class EntityExtra {
    var payload: Entity?
    var isPayloadRoot = false
    weak var rootOf: Model?
    var unknownFields: [(key: String, json: [UInt8])]?
    var mistypedSlots: [Int]?
}
