/// What a storage sees of the engine that owns its models: enough to build a model's entities and to write back
/// what another process changed, nothing more.
///
/// A storage kind (`ModelStorage` and the capability protocols), the relational layer the database kinds share,
/// the codec's entity reader, conversions and backups take a `ModelHost`, not the engine: they read the schema to
/// build entities, take new ids and the defaults of fields a stored entity does not give, stamp the app's schema
/// version on what they write, keep the bytes of data and image fields beside a model, and apply another
/// process's stores through the engine's own writes (so bindings, hooks and undo see them as any change).
/// `Engine` conforms; a caller that holds an engine passes it as it is.
public protocol ModelHost: AnyObject {
    // MARK: Building entities

    /// The schema entities are built with.
    var schema: Schema { get }
    /// The app's schema version, written into every stored model's `okit` header.
    var schemaVersion: Int { get }
    /// Whether a model stored by version `stored` keeps its values of another type than their field declares for
    /// the migrations (below the app's version, or while the app has not declared its version yet).
    func keepsMistyped(storedBy stored: Int) -> Bool
    /// Where new ids come from (an entity read without its id, a reference's own id).
    var ids: IdGenerator { get }
    /// The value field `slot` of `owner` takes when what was stored does not give it, as for a new entity: the
    /// declared default, else the type's zero (an empty collection, a new contained entity, …).
    func defaultValue(for field: FieldSpec, slot: Int, owner: Entity) throws -> Value
    /// Lets a model that is not registered (the copy a conversion or a restore writes) resolve ids and
    /// references through this host, as a registered model does.
    func hostUnregistered(_ model: Model)

    // MARK: Bytes of data and image fields

    /// Hands `write` the bytes of each data or image field of `model` written since its last store; those it
    /// returns true for are stored (the others stay for the next store). A throw stops the pass.
    func storeWrittenBytes(of model: Model, _ write: (_ meta: Entity, _ bytes: [UInt8]) throws -> Bool) throws
    /// Forgets the bytes in memory of one data or image field (its metadata entity went).
    func forgetLoadedBytes(of meta: Entity)
    /// Forgets the bytes in memory of every data and image field of `model` (its stored form was replaced).
    func forgetLoadedBytes(of model: Model)

    // MARK: Applying what another process stored

    /// Records a warning a front end shows.
    func warn(_ message: String)
    /// Reads `model` again from its storage, replacing what is in memory.
    func reload(_ model: Model) throws
    /// The entity with `id` (in `model` when given).
    func lookup(id: String, from model: Model?) -> Entity?
    /// Indexes every loaded entity's id now, not at the first lookup: a model that other processes' changes are
    /// applied to looks ids up from its first command on.
    func indexIds()
    /// Runs `body` as one transaction: its writes are undone together when it throws.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Writes field `name` of `e`.
    func set(_ e: Entity, _ name: String, _ value: Value) throws
    /// Inserts into a collection at `index` (nil: the end), or appends.
    func insert(_ value: Value, into c: EntityCollection, at index: Int?, append: Bool) throws
    /// Puts a value under `key` in a map.
    func put(_ value: Value, forKey key: String, in c: EntityCollection) throws
    /// Removes a value from a collection (the one nearest `near` when it is there twice); returns its index.
    @discardableResult
    func remove(_ value: Value, from c: EntityCollection, near: Int?) throws -> Int
    /// Removes the item at `index`.
    func remove(at index: Int, from c: EntityCollection) throws
    /// Moves an item within a collection.
    func move(in c: EntityCollection, from: Int, to: Int) throws
}
