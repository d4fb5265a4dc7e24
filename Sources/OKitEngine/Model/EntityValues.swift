/// An entity's stored values by slot, as a collection: what `Entity.values` returns.
///
/// A view, not a copy: it reads the entity's slots as they are when read. Writes (internal) go through
/// `Entity.setSlot`, which keeps a canonical UUID id as its 128 bits.
public struct EntityValues: RandomAccessCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @usableFromInline let entity: Entity

    @inlinable init(entity: Entity) { self.entity = entity }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { Int(entity.slotCount) }
    @inlinable public var count: Int { Int(entity.slotCount) }

    @inlinable public internal(set) subscript(i: Int) -> Value {
        get { entity.slot(i) }
        nonmutating set { entity.setSlot(i, newValue) }
    }

    /// A copy of the values, as an array.
    public var array: ContiguousArray<Value> { ContiguousArray(self) }
}

extension Entity {
    /// The entity a slot holds, unretained (the slot holds it), or nil.
    @inline(__always)
    func entityInSlot(_ i: Int) -> Unmanaged<Entity>? {
        guard i > 0 || flags & Entity.packedIdFlag == 0 else { return nil }
        if case .entity(let x) = slots[i] { return .passUnretained(x) }
        return nil
    }

    /// The collection a slot holds, unretained (the slot holds it), or nil.
    @inline(__always)
    func collectionInSlot(_ i: Int) -> Unmanaged<EntityCollection>? {
        guard i > 0 || flags & Entity.packedIdFlag == 0 else { return nil }
        if case .collection(let x) = slots[i] { return .passUnretained(x) }
        return nil
    }

    /// The value in a slot (slot 0 of a packed id is made into its text).
    @inlinable @inline(__always)
    func slot(_ i: Int) -> Value {
        precondition(i >= 0 && i < Int(slotCount), "Entity slot out of range")
        if i == 0, flags & Entity.packedIdFlag != 0 { return .string(PackedId.text(at: slots)) }
        return slots[i]
    }

    /// Whether a slot holds null (a packed id is not null).
    @inline(__always)
    func slotIsNull(_ i: Int) -> Bool {
        i == 0 && flags & Entity.packedIdFlag != 0 ? false : slots[i].isNull
    }

    /// Stores a value in a slot; an upper-case UUID id in slot 0 is kept as its 128 bits.
    @usableFromInline
    func setSlot(_ i: Int, _ v: Value) {
        precondition(i >= 0 && i < Int(slotCount), "Entity slot out of range")
        guard i == 0, type.hasId else { slots[i] = v; return }
        let bits: (UInt64, UInt64)?
        if case .string(var s) = v { bits = s.withUTF8 { PackedId.parse($0) } } else { bits = nil }
        if let bits {
            setId(bits)
        } else if flags & Entity.packedIdFlag != 0 {
            slots.initialize(to: v)
            flags &= ~Entity.packedIdFlag
        } else {
            slots[0] = v
        }
    }

    /// Sets the id of a type with ids from a canonical UUID's bits (the readers' path: no string is made).
    func setId(_ bits: (UInt64, UInt64)) {
        precondition(type.hasId && slotCount > 0, "setId on a type without ids")
        if flags & Entity.packedIdFlag == 0 { slots.deinitialize(count: 1) }
        PackedId.store(bits, at: slots)
        flags |= Entity.packedIdFlag
    }
}
