/// A named model: a root entity with its storage and its dirty state.
public final class Model {
    public let name: String
    public let rootType: EntityType
    public let storageKind: StorageKind
    public internal(set) var root: Entity
    /// The engine that registered the model. A model is used through its engine: keep the engine alive while
    /// you hold a model (an unowned reference keeps the engine off Swift's slow reference-counting path).
    public package(set) unowned var engine: Engine?

    /// Entities whose own stored content changed since the last store: the nearest entity with an id
    /// above each change (a change to the root's own fields or collections dirties the whole model).
    internal var dirtyUnits: [Entity] = []
    /// Set when the whole model must be written (root changed, created fresh, loaded from an older format).
    package var wholeDirty = false
    /// Payloads of partials whose content changed since the last store (each written to its own file).
    internal var dirtyPayloads: [Entity] = []
    /// Whether the schema has partials: a change is then routed to the payload that holds it, if any.
    internal var hasPartials = false
    /// Entities removed since the last store: once the store is written they are dead (no longer usable).
    internal var removedSinceStore: [Entity] = []
    /// Schema version the model was stored with (from the file's `okit` member).
    public internal(set) var storedVersion: Int?
    /// Members of the stored file's `okit` header that this version does not know, kept verbatim.
    package var headerExtras: [(key: String, json: [UInt8])] = []

    package init(name: String, rootType: EntityType, storageKind: StorageKind, root: Entity) {
        self.name = name
        self.rootType = rootType
        self.storageKind = storageKind
        self.root = root
    }

    deinit {
        // An entity removed since the last store still names the entity it was removed from as its parent (the
        // store clears it: `retireRemoved`). That entity may go with this model while someone still holds the
        // removed one, so the name goes first (docs/unsafe.md).
        for e in removedSinceStore where e.state == .removed && !e.isContained { e.parent = nil }
    }

    /// True when something changed since the model was last stored or loaded.
    public var isDirty: Bool { wholeDirty || !dirtyUnits.isEmpty || !dirtyPayloads.isEmpty }

    /// True when the model's own file must be written (payloads aside).
    package var isFileDirty: Bool { wholeDirty || !dirtyUnits.isEmpty }

    /// How many changes were made to the model in this process (each marking of something as changed counts): a
    /// front end tells by it whether a command changed anything (a store that fails after a command that changed
    /// nothing is no news for the person who sent it).
    public private(set) var changeCount = 0

    /// Marks the content of `entity` as changed.
    func markDirty(_ entity: Entity) {
        changeCount &+= 1
        if hasPartials {
            var x: Entity? = entity
            while let y = x {
                if y.isPayloadRoot { markPayloadDirty(y); return }
                x = y.parent
            }
        }
        var unit = entity
        while !unit.type.hasId || unit.type.isRef || unit.type.kind == .inlineBinary, let p = unit.parent { unit = p }
        if unit === root { wholeDirty = true; return }
        if wholeDirty || unit.isDirtyUnit { return }
        unit.isDirtyUnit = true
        dirtyUnits.append(unit)
    }

    /// Marks a partial's payload as changed: its own file is written by the next store.
    func markPayloadDirty(_ payload: Entity) {
        changeCount &+= 1
        if payload.isDirtyUnit { return }
        payload.isDirtyUnit = true
        dirtyPayloads.append(payload)
    }

    func clearDirty() {
        clearFileDirty()
        clearPayloadsDirty()
    }

    /// After the model's own file was written.
    package func clearFileDirty() {
        for e in dirtyUnits { e.isDirtyUnit = false }
        dirtyUnits.removeAll(keepingCapacity: false)
        wholeDirty = false
    }

    /// After the changed payloads were written.
    func clearPayloadsDirty() {
        for p in dirtyPayloads { p.isDirtyUnit = false }
        dirtyPayloads.removeAll()
    }

    /// After a store: entities removed before it can no longer be used (their stored form is gone).
    func retireRemoved() {
        for e in removedSinceStore where e.state == .removed && !e.isContained { engine?.clearParents(e) }
        removedSinceStore.removeAll()
    }
}
