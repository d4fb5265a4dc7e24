import Foundation
import OKitEngine

/// Shared models in backups (storage.md "Shared models on PostgreSQL"): a backup holds a consistent snapshot of each
/// postgres model (its rows read in one `REPEATABLE READ` transaction) as the model's JSON file, so that it restores
/// into any kind; restoring it into a postgres model replaces the model's rows in one transaction and announces it,
/// and every process catches up.
extension PostgresStorage {
    /// The model as a JSON model file, read from the database in one snapshot (a connection of its own: this
    /// storage's own state is not touched).
    public func snapshotJSON(_ model: Model, engine: any ModelHost) throws -> [UInt8] {
        let reader = PostgresStorage(files: files, settings: settings)
        defer { reader.close() }
        reader.modelName = model.name
        let tables = RelationalTables(rootType: model.rootType, schema: engine.schema)
        reader.tables = tables
        reader.pgTables = tables.tables.map(PostgresTable.init)
        let read: RelationalRowReader.Result?
        do {
            try reader.link.open()
            read = try reader.readAll(rootType: model.rootType, engine: engine)
        } catch let e as StorageError {
            throw e
        } catch {
            throw StorageError(kind: .io, path: settings.shown, message: "cannot read model \"\(model.name)\" for the backup: \(text(error))")
        }
        guard let read else {
            throw StorageError(kind: .io, path: settings.shown, message: "model \"\(model.name)\" has no rows in the database to back up")
        }
        var w = JSONWriter(capacity: 1 << 16)
        w.document(read.root, type: model.rootType.name, version: reader.storedSchemaVersion ?? engine.schemaVersion, generation: 1,
                   headerExtras: [])
        return w.bytes
    }

    /// Replaces the model's rows with `root` (a restored backup) in one transaction, announced to every process.
    public func replaceRows(with root: Entity, model: Model, engine: any ModelHost) throws {
        guard let tables else { return }
        let replacement = Model(name: model.name, rootType: model.rootType, storageKind: .postgres, root: root)
        engine.hostUnregistered(replacement)
        replacement.wholeDirty = true
        let plan: RelationalStorePlan
        do { plan = try RelationalStorePlan(model: replacement, tables: tables, stored: [:]) } catch let e as RelationalDuplicateId {
            throw StorageError(kind: .io, path: settings.shown, message: "\(e.description) (nothing was written)")
        }
        let savedBase = base
        base = [:]
        do {
            _ = try write(plan, model: replacement, engine: engine, replacing: true)
            analyze()
        } catch {
            base = savedBase
            if let e = error as? StorageError { throw e }
            throw StorageError(kind: .io, path: settings.shown, message: "cannot restore model \"\(model.name)\" into the database: \(text(error)); its rows are as they were")
        }
    }
}

/// A shared model is followed live, keeps its changes pending while the database is out of reach, and is held
/// in backups as its JSON model file.
extension PostgresStorage: SharedModelStorage, PendingChangesStorage, BackupParticipant {
    public func keepsFailedStorePending(_ model: String) -> Bool { offline && pendingNotKept == nil }
    public var changesInMemoryOnly: Bool { pendingNotKept != nil }
    public func pendingChanges(_ model: String) -> (count: Int, path: String)? {
        guard model == modelName, let rows = (try? PostgresPending.load(pendingPath)) ?? nil, !rows.isEmpty else { return nil }
        return (rows.count, pendingPath)
    }
    public func backupSnapshot(_ model: Model, engine: any ModelHost) throws -> [UInt8] { try snapshotJSON(model, engine: engine) }
    public func restoreFromBackup(_ root: Entity, model: Model, engine: any ModelHost) throws {
        try replaceRows(with: root, model: model, engine: engine)
    }
}
