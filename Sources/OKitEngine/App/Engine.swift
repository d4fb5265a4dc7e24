import Foundation

/// The engine of one app: schema, models, the id index, bindings and the dependency graph.
///
/// An engine is confined to one isolation domain (not `Sendable`): every call happens on the thread or
/// actor that owns it, synchronously and deterministically.
public final class Engine {
    public let schema: Schema
    public let graph = DependencyGraph()
    public let idIndex = IdIndex()
    public let extensions = ExtensionRegistry()
    public let strings = StringsTable()
    /// Cached date and number formatters.
    public let formatters = FormatterCache()
    /// The app clock (virtual in tests).
    public var clock: AppClock
    /// Where new ids come from.
    public var ids: IdGenerator
    /// Language, region and time zone for localized text and formatted dates.
    public var locale = AppLocale() { didSet { changed(.locale) } }
    /// Warnings a run produced (unknown names at run time, duplicate ids, …), in order, each once.
    public private(set) var warnings: [String] = []
    private var warned: Set<String> = []

    /// The app's schema version (`okit.app { version = N }`), written into every stored model's `okit` header.
    public var schemaVersion = 1
    /// True while the app's file runs and has not declared its version yet (`okit.app` usually comes after
    /// `okit.model`): a model read meanwhile keeps values of another type than their field declares whatever
    /// version stored it, and the app's migrations (or `refuseUnmigrated`) decide once the version is known.
    public var schemaVersionPending = false

    /// Whether a model stored by `stored` keeps a value of another type than its field declares for the
    /// migrations (lua-api.md "Schema versions") rather than refusing it.
    public func keepsMistyped(storedBy stored: Int) -> Bool { stored < schemaVersion || schemaVersionPending }

    /// Registered models in registration order.
    public private(set) var models: [Model] = []
    private var modelsByName: [String: Model] = [:]
    var storages: [String: ModelStorage] = [:]
    /// Bytes of data and image fields, loaded or written since the last store (by metadata entity).
    var binaryPayloads: [ObjectIdentifier: BinaryPayload] = [:]
    /// The names of the models of the state (`okit.state`); nil means every model.
    var stateNames: [String]?

    @exclusivity(unchecked) var transactionDepth = 0
    var undoLog: [() -> Void] = []
    /// What the open transaction asked to run once it commits (`afterCommit`), by key; dropped on rollback.
    var commitActions: [(key: String, run: () throws -> Void)] = []
    /// Elements the rollback's lookups examined (a test counts them: undoing N appends examines O(N)).
    public internal(set) var rollbackWork = 0
    /// The fields whose `didSet` is running (entity, slot): a write of the same field from inside its own observer
    /// does not call it again, as a Swift property observer does not (`Engine+Writes.swift`, `observe`).
    var runningObservers: [(entity: ObjectIdentifier, slot: Int)] = []
    /// The collections an operation with an observed field is changing now: the operations inside it (a `clear`'s
    /// removes) do not call the field's `didSet` again (`Engine+CollectionObservers.swift`).
    var membersObserved: Set<ObjectIdentifier> = []
    /// Set by `commandSet` until its binding reaches the field it writes: that write is checked against the field's
    /// rules (validation), whatever path led to it (a locale format read back included); writes made after it
    /// (observers, Lua code) are not.
    var checksCommandWrite = false
    /// Non-nil while a display binding is evaluated: writes are refused with this binding's text.
    @exclusivity(unchecked) var displayBinding: String?
    @exclusivity(unchecked) var callDepth = 0
    /// Observers of model changes (`app:changes`, change logs).
    var changeObservers: [(ModelChange) -> Void] = []
    let bindingCache = BindingCache()
    /// What screens of many shells share (a list's rows: a thousand viewers of one list hold them once), weakly
    /// held by what it is made from (SharedParts.swift).
    let sharedParts = SharedParts()
    /// Errors reported by display bindings, in order.
    public internal(set) var reportedErrors: [Error] = []
    /// Called when a display binding reports an error (the shell prints it; tests collect it).
    public var onError: ((Error) -> Void)?
    /// Called whenever a model is loaded or created, after its `loaded` hooks (bridges attach things here).
    public var onModelRegistered: ((Model) -> Void)?

    public init(schema: Schema, clock: AppClock = SystemClock(), ids: IdGenerator = RandomIds()) {
        self.schema = schema
        self.clock = clock
        self.ids = ids
        BuiltinExtensions.register(in: extensions)
        extensions.markBuiltins()
    }

    // MARK: Models

    /// The model registered under `name`.
    public func model(named name: String) -> Model? { modelsByName[name] }
    /// The storage a model was registered with.
    public func storage(of model: String) -> ModelStorage? { storages[model] }

    /// True while a shared model's place (its database) is out of reach.
    public var isOffline: Bool { storages.values.contains { ($0 as? SharedModelStorage)?.offline == true } }

    /// True when a model is shared by many processes (`SharedModelStorage`, e.g. kept in PostgreSQL).
    public var hasSharedModels: Bool { storages.values.contains { $0 is SharedModelStorage } }

    /// The default model (named "default"), else the first registered.
    public var defaultModel: Model? { modelsByName["default"] ?? models.first }

    /// Most warnings kept per run, and the longest kept text (lua-api.md "Sandbox and limits"): an app (or a
    /// hostile binding) cannot grow them without bound outside Lua's memory limit.
    public static let maxWarnings = 1000
    public static let maxWarningLength = 2000

    /// Records a warning once; a long one is shortened, and past `maxWarnings` one last warning says so.
    public func warn(_ message: String) { warn(message, repeating: false) }

    /// `warn`; with `repeating`, recorded again each time (news that can happen again, such as autosave failing
    /// after it worked).
    public func warn(_ message: String, repeating: Bool) {
        guard warned.count <= Engine.maxWarnings, warnings.count < Engine.maxWarnings * 2 else { return }
        var text = message
        if text.utf8.count > Engine.maxWarningLength {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(Engine.maxWarningLength / 2))) + " … (shortened)"
        }
        if warned.count == Engine.maxWarnings {
            warned.insert("")
            warnings.append("more than \(Engine.maxWarnings) warnings: the rest are not shown")
            return
        }
        if warned.insert(text).inserted || repeating { warnings.append(text) }
    }

    func changed(_ key: DependencyKey) {
        graph.changed(key)
        if transactionDepth == 0 { graph.flush() }
    }

    /// Registers a model: loads it from `storage`, or creates it fresh (then runs `seed`).
    /// A model that exists but cannot be read is an error, and nothing is written over it.
    @discardableResult
    public func register(model name: String, type typeName: String, storage: ModelStorage,
                         storageKind: StorageKind = .file, deferLoadedHooks: Bool = false,
                         seed: ((Entity) throws -> Void)? = nil) throws -> Model {
        try Names.validate(name, what: "model name")
        if modelsByName[name] != nil { throw EngineError.duplicateModel(name) }
        guard let type = schema.type(named: typeName) else { throw EngineError.unknownType(typeName) }
        let model: Model
        if let loaded = try storage.load(name: name, rootType: type, engine: self) {
            model = Model(name: name, rootType: type, storageKind: storageKind, root: loaded.root)
            model.storedVersion = loaded.version
            model.headerExtras = loaded.headerExtras
            attachRoot(model, loaded: loaded)
            FreedMemory.returnAfterLoading(entities: loaded.entityCount)
            models.append(model); modelsByName[name] = model; storages[name] = storage
            if !deferLoadedHooks { try runLoadedHooks(model.root) }
        } else {
            let root = try make(type, [:])
            model = Model(name: name, rootType: type, storageKind: storageKind, root: root)
            model.wholeDirty = true
            attachRoot(model)
            models.append(model); modelsByName[name] = model; storages[name] = storage
            if let seed { try transaction { try seed(root) } }
        }
        try storage.registered(model, engine: self)
        onModelRegistered?(model)
        return model
    }

    /// Takes back a model registered moments ago whose start failed after `register` (a migration or a `loaded`
    /// hook of a model declared after the app loaded, its error caught by a Lua `pcall`): it is never stored, so its
    /// stored data stays as it is, its entities are found by no id, its storage is closed, and its name may be
    /// declared again.
    public func withdraw(_ model: Model) {
        guard modelsByName[model.name] === model else { return }
        models.removeAll { $0 === model }
        modelsByName[model.name] = nil
        let storage = storages.removeValue(forKey: model.name)
        idIndex.discardPending(model.root)
        model.root.forEachChild { markRemoved($0) }
        if let id = model.root.id { idIndex.remove(model.root, id: id) }
        model.clearDirty()
        (storage as? ClosableStorage)?.close()
    }

    /// Makes `model.root` the root of a model. A loaded tree (read by a storage as managed entities) is indexed
    /// on the first lookup by id; any other tree is marked managed and indexed now.
    private func attachRoot(_ model: Model, loaded: LoadedModel? = nil) {
        model.engine = self
        model.hasPartials = schema.hasPartials
        model.root.rootOf = model
        model.root.parent = nil
        if let loaded, model.root.state == .managed {
            idIndex.addLater(model.root, count: loaded.entityCount, identified: loaded.identified)
        } else {
            markManaged(model.root)
        }
    }

    /// Runs the `loaded` hooks of a model's entities (for models registered with `deferLoadedHooks`).
    public func runLoadedHooks(of model: Model) throws {
        try transaction { try runLoadedHooks(model.root) }
    }

    func runLoadedHooks(_ e: Entity) throws {
        guard schema.hasLoadedHooks else { return }
        try loadedWalk(e)
    }

    private func loadedWalk(_ e: Entity) throws {
        if let h = e.type.hooks.loaded {
            do { try h(e) } catch { throw EngineError.hook(name: "loaded", entity: e.debugName, error: error) }
        }
        try e.forEachChild { try loadedWalk($0) }
    }

    /// Marks a whole model as changed: the next store writes it completely.
    public func markWholeDirty(_ model: Model) { model.wholeDirty = true }

    /// Stores one model now, if it changed.
    @discardableResult
    public func store(_ model: Model) throws -> StoreOutcome {
        guard let s = storages[model.name] else { throw EngineError.unknownModel(model.name) }
        let outcome = try s.store(model, engine: self)
        model.retireRemoved()
        return outcome
    }

    /// Stores every registered model that changed.
    public func storeAll() throws {
        for m in models { try store(m) }
    }

    /// Drops a model from memory and loads it again from its storage (restoreState).
    public func reload(_ model: Model) throws {
        guard let s = storages[model.name] else { throw EngineError.unknownModel(model.name) }
        let loaded = try s.load(name: model.name, rootType: model.rootType, engine: self)
        let root = model.root
        // The root stays the same object (so references to it stay valid); everything below it is replaced.
        idIndex.discardPending(root)
        root.forEachChild { child in markRemoved(child); clearParents(child) }
        if let id = root.id { idIndex.remove(root, id: id) }
        for e in model.removedSinceStore { clearParents(e) }
        model.removedSinceStore.removeAll()
        model.clearDirty()
        let fresh: Entity
        if let loaded {
            fresh = loaded.root
            model.storedVersion = loaded.version
            model.headerExtras = loaded.headerExtras
        } else {
            fresh = try make(model.rootType, [:])
            model.wholeDirty = true
        }
        root.adoptValues(of: fresh)
        if let loaded {
            idIndex.addLater(root, count: loaded.entityCount, identified: loaded.identified)
            FreedMemory.returnAfterLoading(entities: loaded.entityCount)
        } else {
            markManaged(root)
        }
        try runLoadedHooks(root)
        for slot in root.values.indices { graph.changed(.field(root, slot)) }
        changed(.model(model.name))
    }

    /// Tells the engine the app clock moved: bindings that read it (relative dates, intervals) go stale.
    public func clockMoved() { changed(.clock) }

    /// Tells the engine the strings tables changed: localized bindings go stale.
    public func stringsChanged() { changed(.locale) }
}
