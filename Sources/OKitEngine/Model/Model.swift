/// How a model is stored.
public enum StorageKind: String, Sendable, CaseIterable {
    case file, transient, encrypted, http, encryptedHttp
}

/// A named model: a root entity with its storage and its dirty state.
public final class Model {
    public let name: String
    public let rootType: EntityType
    public let storageKind: StorageKind
    public internal(set) var root: Entity
    /// The engine that registered the model. A model is used through its engine: keep the engine alive while
    /// you hold a model (an unowned reference keeps the engine off Swift's slow reference-counting path).
    public internal(set) unowned var engine: Engine?

    /// Entities whose own stored content changed since the last store: the nearest entity with an id
    /// above each change (a change to the root's own fields or collections dirties the whole model).
    internal var dirtyUnits: [Entity] = []
    /// Set when the whole model must be written (root changed, created fresh, loaded from an older format).
    internal var wholeDirty = false
    /// Entities removed since the last store: once the store is written they are dead (no longer usable).
    internal var removedSinceStore: [Entity] = []
    /// Schema version the model was stored with (from the file's `okit` member).
    public internal(set) var storedVersion: Int?
    /// Members of the stored file's `okit` header that this version does not know, kept verbatim.
    internal var headerExtras: [(key: String, json: [UInt8])] = []

    init(name: String, rootType: EntityType, storageKind: StorageKind, root: Entity) {
        self.name = name
        self.rootType = rootType
        self.storageKind = storageKind
        self.root = root
    }

    /// True when something changed since the model was last stored or loaded.
    public var isDirty: Bool { wholeDirty || !dirtyUnits.isEmpty }

    /// Marks the content of `entity` as changed.
    func markDirty(_ entity: Entity) {
        var unit = entity
        while !unit.type.hasId || unit.type.isRef || unit.type.kind == .inlineBinary, let p = unit.parent { unit = p }
        if unit === root { wholeDirty = true; return }
        if wholeDirty || unit.isDirtyUnit { return }
        unit.isDirtyUnit = true
        dirtyUnits.append(unit)
    }

    func clearDirty() {
        for e in dirtyUnits { e.isDirtyUnit = false }
        dirtyUnits.removeAll(keepingCapacity: false)
        wholeDirty = false
    }

    /// After a store: entities removed before it can no longer be used (their stored form is gone).
    func retireRemoved() {
        for e in removedSinceStore where e.state == .removed && !e.isContained { engine?.clearParents(e) }
        removedSinceStore.removeAll()
    }
}
