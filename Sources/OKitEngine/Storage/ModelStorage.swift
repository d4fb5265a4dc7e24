/// What a storage backend read for a model.
public struct LoadedModel {
    public let root: Entity
    /// The schema version the model was stored with, if the file says.
    public let version: Int?
    /// Members of the file's `okit` header this version does not know.
    public let headerExtras: [(key: String, json: [UInt8])]
    /// How many entities were read (a hint to size the id index).
    public let entityCount: Int
    /// Every entity below the root whose type has an id, when the backend knows them all (the JSON reader
    /// lists them as it reads): the id index then reads this list instead of walking the tree. Nil: walk.
    public let identified: IdentifiedEntities?

    public init(root: Entity, version: Int?, headerExtras: [(key: String, json: [UInt8])] = [], entityCount: Int = 0,
                identified: IdentifiedEntities? = nil) {
        self.root = root
        self.version = version
        self.headerExtras = headerExtras
        self.entityCount = entityCount
        self.identified = identified
    }
}

/// A place models are read from and written to (file, transient, encrypted, HTTP).
///
/// Backends build entities with the engine's schema; the engine then attaches them, indexes their ids
/// and runs `loaded` hooks.
public protocol ModelStorage: AnyObject {
    /// Reads a model; nil when nothing is stored yet (the model starts fresh). Throws when something is
    /// stored but cannot be read: the caller must then not write over it.
    func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel?
    /// Writes the model's changes (only when it is dirty). Returns how it was written.
    @discardableResult
    func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome
    /// The bytes of a data or image field stored beside the model (nil when there are none).
    func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]?
    /// The stored payload of a partial's stub (nil when none is stored yet: the payload starts fresh). Throws
    /// when one is stored but cannot be read: it is then never written over.
    func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity?
    /// Called once the model is registered (after a fresh model's seed): a shared storage stores the seed at once.
    func registered(_ model: Model, engine: any ModelHost) throws
}

extension ModelStorage {
    public func registered(_ model: Model, engine: any ModelHost) throws {}
    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? { nil }
    public func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? { nil }
}

/// How a `store` went.
public enum StoreOutcome: Equatable, Sendable {
    /// Nothing had changed: nothing was written.
    case unchanged
    /// The whole model file was written.
    case full(bytes: Int)
    /// Only the changed entities were appended to the model's journal.
    case journal(bytes: Int)
    /// The storage keeps nothing (transient).
    case skipped
    /// Rows of a database were written: inserted or updated, and deleted (`sqlite`).
    case rows(written: Int, deleted: Int)
}

/// Storage that never reads or writes (`transient` models).
public final class TransientStorage: ModelStorage {
    public init() {}
    public func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? { nil }
    public func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        model.clearDirty()
        return .skipped
    }
}

/// A storage that holds something open between stores (a database connection, a data folder's lock) and can
/// close it. A front end that ends its process without releasing the app (okit-run, once everything is stored:
/// releasing a large model object by object costs more than the session's work) closes these first, so a
/// SQLite model's write-ahead log is folded back into its file and a PostgreSQL connection ends cleanly.
public protocol ClosableStorage: AnyObject {
    func close()
}

extension FileStorage: ClosableStorage {}
