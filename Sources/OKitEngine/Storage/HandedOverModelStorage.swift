/// A model handed over in memory by the app it replaces (development mode's live reload,
/// `SessionOptions.modelsInMemory`): it is read once from the JSON its file storage would write
/// (`Engine.json(of:)`), with the same reader and so the same rules as a file (storage.md: fields the entity type
/// no longer has are kept, new fields take their defaults, a value of the wrong type is refused); nothing is read
/// from disk and nothing is written by the read. Once the engine registered the model, the model's own storage takes
/// this one's place (`registered`), so backups, compaction and the storage's other roles see the real storage.
final class HandedOverModelStorage: ModelStorage {
    /// The model as JSON.
    let json: [UInt8]
    /// The storage the model is kept in from now on (the kind it declares).
    let storage: ModelStorage

    init(json: [UInt8], storage: ModelStorage) {
        self.json = json
        self.storage = storage
    }

    func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        // Everything the load keeps is taken from the reader inside the closure that lends it the bytes.
        let loaded: (model: LoadedModel, storedType: String?)
        do {
            loaded = try json.withUnsafeBufferPointer { buf in
                var r = JSONReader(bytes: buf, engine: engine)
                r.listIdentified()
                // As a file's load: a value whose field's type changed is kept for the new app's migrations.
                r.keepsMistyped = true
                let root = try r.root(rootType)
                return (LoadedModel(root: root, version: r.version, headerExtras: r.headerExtras,
                                    entityCount: r.entityCount, identified: r.identifiedEntities), r.storedType)
            }
        } catch let f as JSONReader.Failure {
            throw FileStorage.describe(f, bytes: json, path: "model \"\(name)\" (kept in memory by the reload)", rootType: rootType,
                                       app: engine.schemaVersion)
        }
        if let stored = loaded.storedType, stored != rootType.name {
            throw StorageError(kind: .wrongType, path: "model \"\(name)\"",
                               message: "the running app holds a \(stored) model, not the \(rootType.name) the app now declares; give the model another name")
        }
        return loaded.model
    }

    func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        try storage.store(model, engine: engine)
    }

    func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        try storage.readBinary(meta, model: model)
    }

    func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        try storage.loadPayload(of: stub, type: type, model: model, engine: engine)
    }

    func registered(_ model: Model, engine: any ModelHost) throws {
        (engine as? Engine)?.storages[model.name] = storage
        try storage.registered(model, engine: engine)
    }
}
