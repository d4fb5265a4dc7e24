import Foundation

/// A dynamic entity: an instance of an `EntityType` with one value per stored field.
///
/// Reads of `values` are plain array reads; every write goes through the `Engine`, which type-checks,
/// records the change for rollback, marks the model dirty and notifies exactly the dependent bindings.
public final class Entity {
    public let type: EntityType
    /// Stored field values by slot (see `EntityType.slot(of:)`).
    @exclusivity(unchecked) public internal(set) var values: ContiguousArray<Value>
    /// The entity that holds this one (through a field or a collection); nil for roots, for entities not in a
    /// model yet (a detached tree gets its parents when it is attached), and for entities removed and stored.
    ///
    /// Not a weak reference (weak references put every parent on Swift's slow reference-counting path, which
    /// cost a third of a binding's evaluation): the engine keeps the invariant that a non-nil parent is alive —
    /// parents are set only inside managed trees, and cleared for every entity of a tree that is dropped
    /// (a reload) or retired (removed, then stored).
    public internal(set) unowned(unsafe) var parent: Entity?
    /// Whether the entity is held by a field or a collection (ownership, independent of `parent`).
    internal var isContained = false
    /// Subscriptions that read this entity's fields, with the slot each read (see `DependencyGraph`).
    internal var readers: [(slot: Int, subscription: Subscription)] = []
    /// The first reader, inline (most entities on screen are read by one binding).
    internal var reader0: Subscription?
    internal var reader0Slot = -1
    /// Whether the entity is in its model's list of changed entities (or, for a payload, of changed payloads).
    internal var isDirtyUnit = false
    /// A partial's stub: its payload once loaded (or created); its parent is the stub.
    internal var payload: Entity?
    /// Whether this entity is a partial's payload (stored in a file of its own).
    internal var isPayloadRoot = false
    /// The model, when this entity is a model's root.
    internal weak var rootOf: Model?
    /// Fields of the stored JSON that the schema does not know: kept verbatim and written back.
    internal var unknownFields: [(key: String, json: [UInt8])]?
    /// Where the entity is in its life.
    public internal(set) var state: State = .detached
    /// How deep the entity is nested in its tree (1 for a root or a detached entity on its own): kept by the
    /// reader, `markManaged`, `markRemoved` and `checkAdoptable` so that no tree grows past
    /// `Engine.maxEntityDepth` (storage.md "Limits").
    internal var level: Int32 = 1

    public enum State: Equatable, Sendable {
        /// Created, not yet in a model.
        case detached
        /// Inside a model (reachable from a root).
        case managed
        /// Removed from its model.
        case removed
    }

    init(type: EntityType, values: ContiguousArray<Value>, state: State = .detached) {
        self.type = type
        self.values = values
        self.state = state
    }

    /// The entity's id, or nil for types without ids.
    public var id: String? {
        guard type.hasId, case .string(let s) = values[0] else { return nil }
        return s
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

    /// For a reference entity: the target, resolved through the id index of the engine that loaded it.
    public var refTarget: Entity? {
        guard type.isRef, case .string(let key) = values[1], !key.isEmpty else { return nil }
        return model?.engine?.idIndex.lookup(key, from: model)
    }
}

extension Entity {
    /// Calls `body` for each entity this one holds directly (through entity fields and collections).
    @inline(__always)
    func forEachChild(_ body: (Entity) throws -> Void) rethrows {
        for v in values {
            switch v {
            case .entity(let c): try body(c)
            case .collection(let coll):
                guard coll.elementType.holdsEntity else { continue }
                for item in coll.items { if case .entity(let c) = item { try body(c) } }
            default: continue
            }
        }
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
        values = other.values
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
