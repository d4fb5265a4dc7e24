import Foundation
import OKitEngine
import PostgresNIO

/// The `postgres` storage kind (storage.md "Shared models on PostgreSQL"): a model's rows in a PostgreSQL database
/// that many okit processes share, in the `sqlite` kind's tables plus `okit_model` and per-row `okit_version`, and
/// an `okit_models` row per model. A store is one transaction of the changed rows, each checked against the version
/// this process read and written at the transaction's id as its new version (no model-wide lock: stores of
/// different rows by different processes run side by side); once committed, it announces the rows with
/// `NOTIFY okit_changes`. Every process listens and applies other processes' rows to its live entities
/// (`follow`), merging field by field. Partials' payloads, data and images stay files in the data folder.
public final class PostgresStorage: ModelStorage {
    let files: FileStorage
    public let settings: PostgresSettings
    let link: PostgresLink
    let listener: PostgresListener
    let inbox = PostgresInbox()
    /// Who this process is in announcements (its own are not applied again).
    let processToken = UUID().uuidString
    /// Where conflicts go (the session: a warning, `okit/conflicts.jsonl`, `app:conflicts()`).
    public var onConflict: ((ConflictRecord) -> Void)?
    /// Where the lines for the process's log go (`PostgresStorage+Log.swift`: an outage and its end, pending changes
    /// stored at start or not kept on disk).
    public var onLog: ((LogLine) -> Void)?

    var modelName = ""
    var tables: RelationalTables?
    var pgTables: [PostgresTable] = []
    /// Each table's columns as the last load read them (a follow selects the same columns).
    var existingColumns: [[String]] = []
    /// The catalog as this start's registration read it (`prepareTables`), until the load's read of the rows takes it.
    var startCatalog: PostgresCatalog?
    /// What the database holds, by row key, as of the last load, store or follow (as for `sqlite`).
    var stored: RelationalStoredRows = [:]
    /// Each row's values and version as this process last read or wrote them: the base of a three-way merge.
    var base = PostgresBaseRows()
    /// Where a catch-up starts (a lost connection, an announcement without keys): the oldest transaction id that
    /// was still running when this process last read every row (`pg_snapshot_xmin`). A row written since then by
    /// a transaction this process had not seen has a version (its writer's transaction id) at least this.
    var caughtUpXmin: Int64 = 0
    /// The `okit_models` row as this process knows it (type, schema version): a store writes it only when it
    /// differs, so stores do not all lock that one row.
    var modelsRow: (type: String, schemaVersion: Int)?
    /// Set while this process seeds a model the database did not have: it holds the model's advisory lock, so a
    /// process starting at the same time waits and then reads the seeded rows.
    var seeding = false
    /// Set when the database could not be reached by the last attempt (reads go on; stores stay pending).
    public internal(set) var offline = false {
        didSet { retryAfter = offline ? Date().addingTimeInterval(Self.retrySeconds) : nil }
    }
    /// While offline, the database is tried again after this (a connection attempt can take seconds).
    var retryAfter: Date?
    /// The outage the log told of (when it began, what failed): told once, not at every retry.
    var outage: (since: Date, failure: PostgresFailure)?
    /// Why the last store's changes could not be kept on disk (the pending file's path and the OS's error); nil
    /// while they are (or nothing is pending).
    var pendingNotKept: String?
    /// The pending file's bytes as this process last wrote them (nil: none written, or dropped since).
    var pendingWritten: [UInt8]?
    static let retrySeconds: TimeInterval = 1
    var mayRetry: Bool { retryAfter.map { Date() >= $0 } ?? true }
    var storedSchemaVersion: Int?
    /// Refuse to start a model fresh when the data folder holds it in another form (off for `okit-run convert`).
    var checksStoredForm = true
    /// The forms besides `<model>.json` the data folder may hold a model in (`StorageHost.dataFolderForms`).
    var dataFolderForms: [DataFolderForm] = []
    /// Set a value the database refuses aside and store the rest (storage.md "Values a database refuses"); off for
    /// a seed and a conversion, which are stored whole or not at all (a part of one would pass for the model).
    var isolatesRefusals = true
    /// The most bytes of text and blobs a load puts in one row batch (`RelationalRowBatch.maxBytes`; tests make
    /// it small to read a part into several batches).
    var batchBytes = RelationalRowBatch.maxBytes
    /// How many rows one `FETCH` of a load brings (`PostgresStorage.defaultFetchRows`; tests make it small to read
    /// a table of a few hundred rows in several parts).
    var fetchRows = PostgresStorage.defaultFetchRows
    /// Whether a load reads each row as one record (`PostgresRecordRow`); tests turn it off to read the same rows
    /// cell by cell and compare.
    var recordRows = true
    /// The tables the last load read as records (the others cell by cell).
    var tablesReadAsRecords: [String] = []
    /// Stores committed whose announcement could not be sent yet (`announce`).
    var unannounced: [PostgresAnnouncement] = []
    /// The database's key for announcements that carry rows (nil: this role cannot read it; none are sent or used).
    var announcementKey: PostgresAnnouncementKey?
    /// How many statements following has run to read rows (tests count them: announced rows need none).
    var followReads = 0
    /// Whether this process said that a notification on okit's channel was not an announcement (`sayUnreadable`).
    var saidUnreadable = false
    /// Runs inside a store's transaction just before its commit (tests hold a store open with it to show that
    /// another process's store of other rows does not wait for it).
    var beforeCommit: (() throws -> Void)?

    public init(files: FileStorage, settings: PostgresSettings) {
        self.files = files
        self.settings = settings
        link = PostgresLink(settings: settings)
        listener = PostgresListener(settings: settings, inbox: inbox)
    }

    /// The storage of one `postgres` model of an app: the database is the process's `database` setting, else the
    /// model's `database`, else the app's; the password the `databasePassword` setting, else the URL's.
    public static func factory(_ r: StorageRequest) throws -> ModelStorage {
        if r.flag("encrypted") {
            throw StorageOptionError(kind: r.kind, option: "encrypted",
                                     reason: .notSupported(why: "the rows are read by every process sharing the database", instead: nil))
        }
        try RelationalTableNames.check(r)
        let files = try r.host.dataFolderStorage()
        let example = "postgres://user@host:port/database"
        guard let url = try r.option("database", expected: "a URL string", example: "postgres://okit@127.0.0.1:5432/shop") else {
            throw StorageOptionError(kind: r.kind, option: "database", reason: .missing(example: example), isStorage: true)
        }
        let settings: PostgresSettings
        do { settings = try PostgresSettings.parse(url, password: r.host.setting("databasePassword")) } catch let e as PostgresSettingsError {
            throw StorageOptionError(kind: r.kind, option: "database", reason: .invalid(value: e.text, problem: e.problem, example: example),
                                     isStorage: true)
        }
        let s = PostgresStorage(files: files, settings: settings)
        s.dataFolderForms = r.host.dataFolderForms
        s.inbox.onArrival = r.host.sharedModelChanged
        let host = r.host
        s.onConflict = { host.reportConflict($0) }
        s.onLog = { host.log($0) }
        return s
    }

    var lockKey: String { "okit_model:" + modelName }

    /// Gives back the model's advisory lock (taken by a load until it knows the model is there or seeded).
    func unlockModel() {
        _ = try? link.query("SELECT pg_advisory_unlock(hashtext($1))", [.text(lockKey)])
    }

    func unreachable(_ error: Error) -> StorageError {
        if PostgresFailure(error) == .tls {
            return StorageError(kind: .io, path: settings.shown, message: "cannot connect over TLS (nothing was read or written): \(text(error))")
        }
        if PostgresFailure(error) == .login {
            return StorageError(kind: .io, path: settings.shown, message: "cannot log in to the database: \(text(error))", remedy: .checkDatabaseLogin)
                .worded(files.remedyWording)
        }
        return StorageError(kind: .io, path: settings.shown, message: "cannot reach the database: \(text(error))", remedy: .checkDatabase)
            .worded(files.remedyWording)
    }

    /// `PostgresStorage.text` with this model's `sslmode`.
    func text(_ error: Error) -> String { Self.text(error, sslMode: settings.sslMode) }

    // MARK: Load

    public func load(name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        modelName = name
        stored = [:]
        base = [:]
        let tables = RelationalTables(rootType: rootType, schema: engine.schema)
        self.tables = tables
        pgTables = tables.tables.map(PostgresTable.init)
        if let t = tables.tables.first(where: { $0.autoIncrement }) {
            throw StorageError(kind: .io, path: settings.shown, message: "\(t.type.name) is declared with key = \"autoincrement\", which a model shared by many processes cannot number safely; use okit's ids (remove key = \"autoincrement\") for a postgres model")
        }
        // PostgreSQL cuts names to 63 bytes: a longer column would be created cut, never found again by its name,
        // and its values read as the field's default.
        for t in tables.tables {
            for name in [t.name] + t.written where name.utf8.count > 63 {
                let what = name == t.name ? "entity type \(t.name)" : "column \"\(name)\" of table \(t.name)"
                throw StorageError(kind: .io, path: settings.shown, message: "the \(what) has a name of \(name.utf8.count) bytes, longer than the 63 PostgreSQL keeps; shorten it for a postgres model (nothing was written)")
            }
        }
        do { try link.open() } catch {
            offline = true
            throw unreachable(error)
        }
        do {
            for refusal in try prepareTables() { engine.warn(refusal.warning(model: name, shown: settings.shown)) }
            try link.query("SELECT pg_advisory_lock(hashtext($1))", [.text(lockKey)])
            try replayPending(rootType: rootType, schemaVersion: engine.schemaVersion, engine: engine)
        } catch let e as StorageError {
            throw e
        } catch {
            // A statement the database refused (the connection is fine): "cannot reach" would send the user
            // looking for a server that runs.
            if !Self.isConnectionError(error) {
                throw StorageError(kind: .io, path: settings.shown, message: "cannot prepare model \"\(name)\" (its tables, okit_models, pending changes): \(text(error)); the database user needs the right to create tables in its schema, or an owner creates them once by starting okit")
            }
            offline = true
            throw unreachable(error)
        }
        offline = false
        let read: RelationalRowReader.Result?
        do {
            read = try readAll(rootType: rootType, engine: engine)
        } catch {
            unlockModel()
            if let e = error as? StorageError { throw e }
            if Self.isConnectionError(error) { offline = true; throw unreachable(error) }
            throw StorageError(kind: .io, path: settings.shown, message: "cannot read model \"\(name)\": \(text(error))")
        }
        guard let read else {
            if checksStoredForm, let other = DataFolderForms.other(model: name, declared: .postgres, folder: files.folder, forms: dataFolderForms) {
                unlockModel()
                throw StorageError.otherForm(model: name, declared: .postgres, found: other, convertTo: .postgres,
                                             declaredHasNone: " and has no rows in the database,")
            }
            try? listener.start()
            seeding = true                        // the lock is kept until the seeded model is stored
            return nil
        }
        try? listener.start()
        unlockModel()
        stored = read.stored
        return LoadedModel(root: read.root, version: storedSchemaVersion, entityCount: read.count)
    }

    /// Makes and completes the model's tables under the schema lock from one read of the catalog
    /// (`PostgresCatalog`), read again only for the tables it created or added columns to; the load's read of the
    /// rows takes what it read (`startCatalog`). Returns the order indexes PostgreSQL refused for a reason to tell.
    func prepareTables() throws -> [PostgresIndexRefusal] {
        startCatalog = nil
        return try link.transaction {
            try link.query("SELECT pg_advisory_xact_lock(hashtext('okit_schema'))")
            try PostgresTable.ensureModelsTable(link)
            var catalog = try PostgresCatalog.read(link, tables: pgTables)
            var changed: [Int] = []
            var refusals: [PostgresIndexRefusal] = []
            for (i, t) in pgTables.enumerated() {
                let r = try t.ensure(link, catalog.tables[i])
                if r.changed { changed.append(i) }
                if let refusal = r.refusal { refusals.append(refusal) }
            }
            try catalog.reread(link, tables: pgTables, changed: changed)
            announcementKey = PostgresAnnouncementKey.read(link)
            startCatalog = catalog
            return refusals
        }
    }

    /// After the model is registered: a model this process seeded is stored at once, and the lock that made
    /// other processes wait is given back.
    public func registered(_ model: Model, engine: any ModelHost) throws {
        // Other processes' rows are applied by id from the first command on: the index is built with the join
        // (at the first announcement it held up the first command after a join, 45 ms at 100,000 books).
        engine.indexIds()
        guard seeding else { return }
        defer {
            seeding = false
            isolatesRefusals = true
            unlockModel()
        }
        isolatesRefusals = false
        _ = try store(model, engine: engine)
        analyze()
    }

    public func readBinary(_ meta: Entity, model: Model) throws -> [UInt8]? {
        try files.worded { try files.readBinaryFile(meta, model: model) }
    }

    public func loadPayload(of stub: Entity, type: EntityType, model: Model, engine: any ModelHost) throws -> Entity? {
        try files.worded { try files.readPayload(of: stub, type: type, model: model, engine: engine) }
    }

    /// Updates the planner's statistics of the model's tables after many rows arrived at once (a seed, a
    /// conversion, a restore): until autovacuum does, statements on a table that grew may plan badly.
    func analyze() {
        for t in pgTables { _ = try? link.query("ANALYZE \(t.q)") }
    }

    /// Closes both connections.
    public func close() {
        listener.stop()
        link.close()
    }
}

/// A row as this process last read or wrote it.
struct PostgresRowState {
    var table: Int
    var values: [RelationalValue]
    var version: Int64
}

extension PostgresStorage: ClosableStorage {}
