import Foundation

/// Backups for the backups screen and `okit-run backup` (storage.md "Backups"): `BackupStore` on the session's
/// data folder, with its keys and schema.
extension AppSession: BackupService {
    var backupStore: BackupStore {
        get throws {
            guard let folder = options.dataFolder else { throw ShellError.notAllowed("backups (no data folder)", "backups") }
            var store = BackupStore(dataFolder: folder)
            store.appId = appId
            store.allowOtherApp = options.restoreOtherApp
            store.limits = options.archiveLimits
            store.forms = options.storageKinds.forms
            return store
        }
    }

    public func listBackups() throws -> [BackupInfo] { try backupStore.list() }

    public func createBackup(name: String, password: String?) throws { try createBackup(name: name, password: password, progress: nil) }

    /// Stores the state, then writes the backup; sealed files are opened with the session's keys for a secure one.
    public func createBackup(name: String, password: String?, progress: ((Int64, Int64) -> Void)?) throws {
        try storeState()
        let storage = fileStorage
        let passphrase = options.passphrase
        // Models kept outside the data folder (`BackupParticipant`): a consistent snapshot of each, as its JSON model file.
        var extra: [(path: String, bytes: [UInt8])] = []
        for (m, s) in backupParticipants { extra.append((m.name + ".json", try s.backupSnapshot(m, engine: engine))) }
        try backupStore.create(name: name, appId: appId, password: password,
                               openSealed: { id in storage?.key(withId: id, passphrase: passphrase) },
                               now: engine.clock.now, extraFiles: extra, progress: progress)
    }

    public func restoreBackup(name: String, password: String?) throws { try restoreBackup(name: name, password: password, progress: nil) }

    /// Verifies the backup (archive, paths, sizes, hashes, keys, and every model file against the schema), swaps
    /// the data folder, then reloads every model (migrating it) and starts every shell again at home. When the
    /// restored data does not load (a migration refuses it), the old data is swapped back and reloaded: a restore
    /// is all or nothing. The encrypted models' files are sealed again when the setting says so (a secure backup
    /// holds them plain). Data a newer app version stored (`newerData`) is replaced too, and the old data kept whole.
    public func restoreBackup(name: String, password: String?, progress: ((Int64, Int64) -> Void)?) throws {
        let storage = fileStorage
        let passphrase = options.passphrase
        let swapped: SwappedRestore
        do {
            swapped = try backupStore.restoreSwapped(name, password: password,
                                    key: { id in storage?.key(withId: id, passphrase: passphrase) },
                                    validate: { [engine, forms = options.storageKinds.forms] path, bytes in
                                        try engine.checkDecodes(relativePath: path, bytes: bytes, forms: forms)
                                    },
                                    validateFiles: { [self] paths in try checkForms(paths, backup: name) },
                                    keepOld: !newerData.isEmpty, now: engine.clock.now, progress: progress)
        } catch let e as BackupError {
            throw e.worded(options.remedyWording)      // the backups screen shows the error as it is
        }
        do {
            try reloadRestored()
        } catch {
            try undoRestore(swapped, name: name, because: error)
        }
        // A link not put back (the restored file stays in the data folder); where the replaced data is kept.
        for note in swapped.finish() { engine.warn(note) }
        newerData = []
        if let storage {
            for m in engine.models where m.storageKind == .encrypted && storage.isSealing(m.name) {
                try storage.setSealing(m, true, passphrase: passphrase, engine: engine, force: true)
            }
        }
        try restart()
    }

    /// Every model read again from the data folder (just swapped), and migrated; the models kept outside the data
    /// folder last (`restoreSharedModels` replaces their rows in their database: nothing undoes that), and only
    /// when `shared`.
    func reloadRestored(shared: Bool = true) throws {
        fileStorage?.filesReplaced()
        engine.forgetLoadedBytes()
        let participants = Set(backupParticipants.map { $0.0.name })
        for m in engine.models where m.storageKind != .transient && !participants.contains(m.name) {
            try engine.reload(m)
            try callbacks.migrate?(m)
        }
        guard shared, !participants.isEmpty else { return }
        try restoreSharedModels()
        for m in engine.models where participants.contains(m.name) {
            try engine.reload(m)
            try callbacks.migrate?(m)
        }
    }

    /// The restored data did not load: the old data is put back and read again; the error says nothing changed.
    func undoRestore(_ swapped: SwappedRestore, name: String, because error: Error) throws -> Never {
        let said = (error as? BackupError).map { $0.message } ?? "\(error)"
        do { try swapped.undo() } catch {
            throw BackupError(.io, backup: name, "backup \(name) does not load in this app (\(said)), and the old data could not be put back: \(error)")
        }
        var state = "nothing was changed: the data is as it was"
        do { try reloadRestored(shared: false) } catch {
            state = "the old data is back in the data folder, but it did not load again (\(error)): start the app again"
        }
        if !backupParticipants.isEmpty {
            state += "; the shared models' rows in their database may hold the backup's data (nothing undoes them)"
        }
        try? restart()
        throw BackupError(.invalidFile, backup: name, "backup \(name) does not load in this app: \(said)\n  " + state)
    }

    /// Refuses a backup that holds a model of the app only in a form other than the one it is declared with (a
    /// `file` model as `<model>.sqlite`): the app would not load it (`StorageError.otherForm`).
    func checkForms(_ paths: Set<String>, backup: String) throws {
        let forms = options.storageKinds.forms
        for m in engine.models {
            let own: String
            if m.storageKind == .file || m.storageKind == .encrypted { own = m.name + ".json" }
            else if let form = forms.first(where: { $0.kind == m.storageKind }) { own = m.name + "." + form.fileExtension }
            else { continue }
            guard !paths.contains(own) else { continue }
            let others = [(m.name + ".json", DataFolderForms.jsonName)] + forms.map { (m.name + "." + $0.fileExtension, $0.name) }
            guard let held = others.first(where: { $0.0 != own && paths.contains($0.0) }) else { continue }
            throw BackupError(.invalidFile, backup: backup, "backup \(backup) holds model \"\(m.name)\" as \(held.1) (\(held.0)), and this app declares it with storage = \"\(m.storageKind)\"\n  nothing was changed; restore it with an app version that declares it so, then convert the model to storage = \"\(m.storageKind)\"")
        }
    }

    public func deleteBackup(name: String) throws { try backupStore.delete(name: name) }

    /// The models whose storage a backup holds as their JSON model file, with their storage.
    var backupParticipants: [(Model, BackupParticipant)] {
        engine.models.compactMap { m in (engine.storage(of: m.name) as? BackupParticipant).map { (m, $0) } }
    }

    /// After a restore: each model kept outside the data folder that the backup held (as its JSON file) is given
    /// back to its storage (a shared model's rows replaced in the database); the file was only the backup's form
    /// of it and is removed.
    func restoreSharedModels() throws {
        guard let folder = options.dataFolder.map(DataFolder.init) else { return }
        for (m, s) in backupParticipants {
            guard let path = try? folder.modelFile(m.name), let bytes = try AtomicFile.read(path) else { continue }
            let root: Entity
            do {
                root = try bytes.withUnsafeBufferPointer { buf in
                    var r = JSONReader(bytes: buf, engine: engine)
                    return try r.root(m.rootType)
                }
            } catch {
                throw StorageError(kind: .corrupt, path: path, message: "the restored model does not read: \(error)")
            }
            try s.restoreFromBackup(root, model: m, engine: engine)
            try AtomicFile.remove(path)
        }
    }

    public func isSecureBackup(name: String) throws -> Bool { try backupStore.isSecure(name) }
}
