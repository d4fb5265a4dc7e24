import Foundation

/// Models' storage (storage.md "Storage kinds"): the kind a model names is asked of the registry
/// (`SessionOptions.storageKinds`); the session gives it the data folder, the settings and the storages shared
/// between models. Its refusals are data (`StorageOptionError`, `SessionError`): the declaring side words them.
extension AppSession {
    /// The storage for a model of the given kind, with the model's options (each kind reads its own) and, when
    /// known, its root type: `file` and `encrypted` models share the data folder's file storage; an encrypted one
    /// is sealed with the data folder's key (the passphrase or `okit/keys/data.key`).
    public func makeStorage(kind: StorageKind, model name: String, options modelOptions: [String: Value] = [:],
                            rootType: EntityType? = nil) throws -> ModelStorage {
        let request = StorageRequest(model: name, kind: kind, options: modelOptions, host: SessionStorageHost(self),
                                     rootType: rootType, schema: engine.schema)
        let storage = try options.storageKinds.makeStorage(request)
        if let json = options.modelsInMemory[name], [.file, .encrypted, .transient].contains(kind) {
            return HandedOverModelStorage(json: json, storage: storage)
        }
        return storage
    }

    /// The data folder's file storage, opened (and its lock taken) on first use. Every app with stored models
    /// opens it — HTTP models too keep their pending changes in the data folder.
    public func dataFolderStorage() throws -> FileStorage {
        if let existing = fileStorage ?? options.openDataFolder {
            fileStorage = existing
            return existing
        }
        guard let folder = options.dataFolder else { throw SessionError.noDataFolder }
        let s = try FileStorage(dataFolder: folder)
        s.remedyWording = options.remedyWording
        s.otherForms = options.storageKinds.forms
        fileStorage = s
        if KeyChange.interruptedChange(dataFolder: folder) {
            engine.warn(KeyChange.interruptedMessage + (options.remedyWording?(.finishInterruptedKeyChange(noKey: false)) ?? ""))
        }
        return s
    }

    /// Closes every storage that holds something open (`ClosableStorage`: database connections, the data folder's
    /// lock), each once; nothing is stored. For a front end about to end its process without releasing the app.
    public func closeStorages() {
        var closed = Set<ObjectIdentifier>()
        let all: [ModelStorage] = Array(engine.storages.values) + Array(sharedStorages.values) + (fileStorage.map { [$0] } ?? [])
        for case let s as ClosableStorage in all where closed.insert(ObjectIdentifier(s)).inserted { s.close() }
    }

    /// Closes the data folder's file storage and gives its lock back (nothing is stored); a flow test releases
    /// an app this way so that the next one can open the same folder.
    public func closeDataFolder() {
        fileStorage?.close()
        fileStorage = nil
    }

    /// The models with changes their place (an HTTP server) has not taken yet (kept in `<data>/okit/pending/`),
    /// sorted.
    public var pendingHTTPModels: [String] {
        Array(Set(sharedStorages.values.compactMap { $0 as? PendingChangesStorage }.flatMap { $0.pendingModels() })).sorted()
    }

    /// Resolves the HTTP models with a pending change or a conflict: keeps the local copy (sent over the
    /// server's) or takes the server's (the local change dropped). Returns the models resolved.
    @discardableResult
    public func resolveHTTPConflicts(keepLocal: Bool, model only: String? = nil) throws -> [String] {
        var done: [String] = []
        for model in engine.models where only == nil || model.name == only {
            guard let s = engine.storage(of: model.name) as? ConflictResolvingStorage else { continue }
            guard s.isConflicted(model.name) || s.pendingModels().contains(model.name) else { continue }
            try s.resolveConflict(model, engine: engine, keepLocal: keepLocal)
            done.append(model.name)
        }
        return done
    }

    /// Stores the state: every model is attempted. A model whose server did not take its change keeps it
    /// pending on disk and is returned with the reason, to warn about; any other failure is thrown after the
    /// others were stored.
    public func storeStateKeepingPending() throws -> [(model: String, reason: String)] {
        try applyEncryptionSettingBeforeStoring()
        var pending: [(model: String, reason: String)] = []
        var firstError: Error?
        for m in engine.stateModels {
            do { _ = try engine.store(m) } catch {
                if (engine.storage(of: m.name) as? PendingChangesStorage)?.keepsFailedStorePending(m.name) == true {
                    pending.append((m.name, "\(error)"))
                }
                else if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        let failed = Set(pending.map(\.model))
        for name in pendingHTTPModels where !failed.contains(name) { pending.append((name, "not sent yet")) }
        return pending
    }

    /// How many changes of `model` wait on disk for its place, and where (`PendingChangesStorage.pendingChanges`).
    public func pendingChanges(of model: String) -> (count: Int, path: String)? {
        (engine.storage(of: model) as? PendingChangesStorage)?.pendingChanges(model)
    }

    /// Storing at exit (quit, end of input, a stop signal): the state is stored and every model written whole,
    /// so each model file is complete. Returns the HTTP models whose changes stay pending, with the reason.
    public func storeAtExit() throws -> [(model: String, reason: String)] {
        let pending = try storeStateKeepingPending()
        try engine.compactAll()
        return pending
    }
}

/// What a storage kind gets from the session: its data folder, its settings, its shared storages.
final class SessionStorageHost: StorageHost {
    unowned let session: AppSession
    init(_ session: AppSession) { self.session = session }

    var dataFolderLayout: DataFolder? { session.options.dataFolder.map(DataFolder.init) }
    var dataFolderForms: [DataFolderForm] { session.options.storageKinds.forms }
    func dataFolderStorage() throws -> FileStorage { try session.dataFolderStorage() }
    var passphrase: String? { session.options.passphrase }
    func setting(_ name: String) -> String? { session.options.storageSettings[name] }
    func appDefault(_ option: String) -> String? { session.appStorageDefaults[option] }
    var remedyWording: (@Sendable (Remedy) -> String)? { session.options.remedyWording }
    var sharedModelChanged: (@Sendable () -> Void)? {
        // The signal is read when the change arrives: the front end may set its callback after the models are
        // declared.
        let signal = session.sharedChangeSignal
        return { signal.fire() }
    }
    func reportConflict(_ record: ConflictRecord) { session.record(conflict: record) }
    func log(_ line: LogLine) { session.log(line) }

    func sharedStorage(_ id: String, make: () throws -> ModelStorage) throws -> ModelStorage {
        if let existing = session.sharedStorages[id] { return existing }
        let s = try make()
        session.sharedStorages[id] = s
        return s
    }
}
