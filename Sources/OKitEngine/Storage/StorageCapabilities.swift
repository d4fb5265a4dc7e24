/// What only some storage kinds can do, as protocols a kind's storage conforms to (docs/engine.md "Where to put a
/// new storage kind"). The session, the engine and the front ends ask a storage for a capability (`as?` one of
/// these), never for a concrete class: a new kind gets the behaviour by conforming, without a change outside its
/// folder.

/// A storage whose failed store can keep the changes on disk, to be sent by a later store or run, instead of
/// failing the app (an HTTP server that did not take them, a shared database out of reach).
public protocol PendingChangesStorage: ModelStorage {
    /// Whether a store of `model` that failed kept its changes pending (named in a warning at exit, not an error).
    func keepsFailedStorePending(_ model: String) -> Bool
    /// The models with changes their place has not taken yet, sorted.
    func pendingModels() -> [String]
    /// How many changes of `model` wait on disk for its place, and the file they are kept in; nil: none (or the
    /// kind does not say).
    func pendingChanges(_ model: String) -> (count: Int, path: String)?
}

extension PendingChangesStorage {
    public func pendingModels() -> [String] { [] }
    public func pendingChanges(_ model: String) -> (count: Int, path: String)? { nil }
}

/// A storage whose pending changes can meet a conflict the user resolves (`okit-run sync`): keep the local copy
/// (sent over the other) or take the other (the local change dropped).
public protocol ConflictResolvingStorage: PendingChangesStorage {
    /// True when the model's pending change was refused as a conflict and is not resolved yet.
    func isConflicted(_ model: String) -> Bool
    /// Resolves the model's conflict (or sends its pending change).
    func resolveConflict(_ model: Model, engine: any ModelHost, keepLocal: Bool) throws
}

/// A model many processes share (storage.md "Shared models on PostgreSQL"): each process follows the others' stores
/// live, stores after every command that changed it, and is offline while the shared place is out of reach.
public protocol SharedModelStorage: ModelStorage {
    /// True while the shared place cannot be reached (reads go on; stores stay pending).
    var offline: Bool { get }
    /// Applies what other processes stored since the last call; true when something changed.
    func followAnnouncements(_ model: Model, engine: any ModelHost) throws -> Bool
    /// True while changes the shared place did not take could not be kept on disk either (the pending file cannot
    /// be written): they are in memory only, and a failed store is said as not kept, not as offline.
    var changesInMemoryOnly: Bool { get }
}

extension SharedModelStorage {
    public var changesInMemoryOnly: Bool { false }
}

/// A storage whose models a backup holds as their JSON model file, because its data is not files of the data
/// folder (a database server): a snapshot goes into the backup, and a restore gives the model back to it.
public protocol BackupParticipant: ModelStorage {
    /// The model as a JSON model file, read in one consistent snapshot.
    func backupSnapshot(_ model: Model, engine: any ModelHost) throws -> [UInt8]
    /// Replaces the stored model with `root` (a restored backup's), at once for every process that shares it.
    func restoreFromBackup(_ root: Entity, model: Model, engine: any ModelHost) throws
}

/// A storage with work to do when the app stops: a journal written into its model file, a database closed.
public protocol ClosingStorage: ModelStorage {
    /// Called for each of its models at exit, after the last store.
    func finish(_ model: Model, engine: any ModelHost) throws
}

/// A storage that keeps each model in a file a person can be pointed at (messages name it).
public protocol FileBackedStorage: ModelStorage {
    /// The model's file.
    func path(of model: String) throws -> String
}
