import Foundation
import GRDB
import OKitEngine

/// The `sqlite` storage kind (storage.md "SQLite models"; Action Data's `ADSQLProvider`): a model in
/// `<data>/okit/data/<model>.sqlite`, a table per entity type, a row per entity. The database is in WAL mode with
/// `synchronous = FULL`; a store is one transaction that writes only the rows that changed, were inserted or were
/// removed. Partials' payloads, data and images stay files beside it, written by the data folder's file storage
/// (which also holds the data folder's lock).
public final class SQLiteStorage: ModelStorage {
    /// The data folder's file storage: its lock, side files and partials.
    let files: FileStorage
    /// The database's path (`<data>/okit/data/<model>.sqlite`, or another file for a conversion's copy).
    public let path: String
    private var queue: DatabaseQueue?
    private var tables: RelationalTables?
    /// What the database holds, by row key, as of the last load or store.
    private var stored: RelationalStoredRows = [:]
    /// Whether the tables were created or completed by this storage (since the last load).
    private var ensured = false
    /// The schema version the database was written by, as read.
    private var storedVersion: Int?
    /// Set when the database could not be read: it is then never written.
    private(set) var unreadable = false
    /// How long a statement waits for another program's lock on the database (the `sqlite3` shell's `BEGIN
    /// IMMEDIATE`, a backup tool) before the store fails as busy.
    var busyTimeout: TimeInterval = 5

    public init(files: FileStorage, path: String) {
        self.files = files
        self.path = path
    }

    /// The storage of one `sqlite` model of an app.
    public static func factory(_ r: StorageRequest) throws -> ModelStorage {
        if r.flag("encrypted") {
            throw StorageOptionError(kind: r.kind, option: "encrypted",
                                     reason: .notSupported(why: "no SQLCipher here; the encryption setting does not apply to sqlite models",
                                                           instead: "use storage = \"encrypted\" for a sealed JSON model"))
        }
        try RelationalTableNames.check(r)
        let files = try r.host.dataFolderStorage()
        return SQLiteStorage(files: files, path: try files.folder.sqliteFile(r.model))
    }

    /// Opens the database for stores (WAL, `synchronous = FULL`, foreign keys on); with `reading`, a connection
    /// that changes nothing in the files (a load, closed after it).
    func open(reading: Bool = false) throws -> DatabaseQueue {
        if let queue { return queue }
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        if !reading { config.journalMode = .wal }
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        config.label = "okit.sqlite"
        do {
            let q = try DatabaseQueue(path: path, configuration: config)
            queue = q
            return q
        } catch where SQLiteDamage.isBusy(error) {
            throw StorageError(kind: .io, path: path, message: SQLiteDamage.busy(waited: busyTimeout))
        } catch {
            throw damaged(SQLiteDamage.error(error, doing: "open", path: path)).worded(files.remedyWording)
        }
    }

    /// Closes the database (a restore or a conversion replaces the file; the next load opens it again).
    public func close() {
        try? queue?.close()
        queue = nil
    }

    static func text(_ error: Error) -> String {
        if let e = error as? DatabaseError { return "\(e.message ?? "\(e.resultCode)") (SQLite \(e.resultCode))" }
        return "\(error)"
    }

    // MARK: Load

    public func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        close()
        ensured = false
        stored = [:]
        unreadable = false
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists {
            // A model whose data is a JSON file is never started fresh as a sqlite model: convert it.
            if let json = try? files.folder.modelFile(name), FileManager.default.fileExists(atPath: json) {
                throw StorageError.otherForm(model: name, declared: .sqlite, found: (json, DataFolderForms.jsonName), convertTo: .sqlite)
                    .worded(files.remedyWording)
            }
            return nil
        }
        // Held twice (an earlier okit's interrupted convert): never read while a JSON file of it is beside it.
        if path == (try? files.folder.sqliteFile(name)), let json = try? files.folder.modelFile(name), FileManager.default.fileExists(atPath: json) {
            throw StorageError.twoForms(model: name, declared: .sqlite, live: (path, SQLiteForm().name),
                                        other: (json, DataFolderForms.jsonName), otherKind: .file)
        }
        let tables = RelationalTables(rootType: rootType, schema: engine.schema)
        self.tables = tables
        do {
            try SQLiteDamage.checkHeader(path)
            let q = try open(reading: true)
            let result: (RelationalRowReader.Result?, Int?, String?, [(name: String, rows: Int)]) = try q.read { db in
                let (version, type) = try SQLiteModelInfo.read(db)
                var reader = RelationalRowReader(tables: tables, engine: engine, path: path)
                reader.storedVersion = version
                return (try reader.read(db), version, type, try SQLiteOrphanTables.find(db, tables: tables))
            }
            if let type = result.2, type != rootType.name {
                throw StorageError(kind: .wrongType, path: path, message: "the database holds a \(type) model, not the \(rootType.name) this app declares for model \"\(name)\"",
                                   remedy: .described(StorageError.keepRootName(stored: type)))
            }
            for o in result.3 { engine.warn(SQLiteOrphanTables.warning(model: name, path: path, table: o.name, rows: o.rows)) }
            guard let read = result.0 else {
                self.tables?.setUnknownColumns([])
                close()
                return nil
            }
            self.tables?.setUnknownColumns(read.unknownColumns)
            stored = read.stored
            storedVersion = result.1
            // Reading leaves the files as they were: the connection (and its -wal, -shm) goes until a store.
            close()
            return LoadedModel(root: read.root, version: result.1, entityCount: read.count)
        } catch let e as StorageError {
            unreadable = true
            close()
            throw damaged(e).worded(files.remedyWording)
        } catch {
            unreadable = true
            close()
            throw damaged(SQLiteDamage.error(error, doing: "read", path: path)).worded(files.remedyWording)
        }
    }

    /// A model's database (`<data>/okit/data/<model>.sqlite`) that does not read as the model (damaged, or of
    /// another type) is fixed, or moved aside by recovering the model.
    func damaged(_ e: StorageError) -> StorageError {
        let model = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard e.kind == .corrupt || e.kind == .wrongType, (try? files.folder.sqliteFile(model)) == path else { return e }
        return e.withRemedy(.fixOrRecover(model: model))
    }

    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        try files.worded { try files.readBinaryFile(meta, model: model) }
    }

    public func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        try files.worded { try files.readPayload(of: stub, type: type, model: model, engine: engine) }
    }

    // MARK: Store

    public func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        if unreadable {
            throw StorageError(kind: .io, path: path, message: "this model's database could not be read, so it is not written over",
                               remedy: .recover(model: model.name)).worded(files.remedyWording)
        }
        if let v = storedVersion, v > engine.schemaVersion {
            throw StorageError(kind: .io, path: path, message: FileStorage.newerMessage(stored: v, app: engine.schemaVersion))
        }
        try files.worded {
            try files.storePayloads(model, engine: engine)
            try files.writeBinaries(model, engine: engine)
        }
        guard model.isFileDirty else { return .unchanged }
        let outcome = try write(model, engine: engine)
        model.clearFileDirty()
        try files.worded { try files.deleteRemovedFiles(model, engine: engine) }
        return outcome
    }

    /// Writes the model's changed, inserted and removed rows in one transaction.
    @discardableResult
    func write(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        let tables = self.tables ?? RelationalTables(rootType: model.rootType, schema: engine.schema)
        self.tables = tables
        let plan: RelationalStorePlan
        do {
            plan = try RelationalStorePlan(model: model, tables: tables, stored: stored)
        } catch let e as RelationalDuplicateId {
            throw StorageError(kind: .io, path: path, message: "\(e.description) (nothing was written)")
        }
        let q = try open()
        let ensure = !ensured
        let migrated = storedVersion.map { $0 < engine.schemaVersion } ?? false
        do {
            try q.inDatabase { db in
                try db.inTransaction(.immediate) {
                    if ensure {
                        for t in tables.tables { try t.ensure(db) }
                        try SQLiteModelInfo.ensure(db)
                    }
                    try SQLiteModelInfo.write(db, type: model.rootType.name, version: engine.schemaVersion)
                    // The migrations converted the values of fields now kept elsewhere: their old columns go empty.
                    if migrated { try SQLiteOrphanTables.clearMovedColumns(db, tables: tables) }
                    try plan.execute(db, tables: tables)
                    return .commit
                }
            }
        } catch where SQLiteDamage.isBusy(error) {
            throw StorageError(kind: .io, path: path, message: SQLiteDamage.busy(waited: busyTimeout))
        } catch {
            throw StorageError(kind: .io, path: path, message: "cannot write the database: \(SQLiteDamage.reason(error, path: path)); it keeps the last store")
        }
        ensured = true
        storedVersion = engine.schemaVersion
        plan.apply(to: &stored)
        return .rows(written: plan.upserts.count, deleted: plan.deletes.count)
    }
}

extension SQLiteStorage: ClosableStorage {}
