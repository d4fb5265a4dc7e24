import Foundation

/// `okit-run convert --to postgres` and back (storage.md "Shared models on PostgreSQL"): the model is read from the
/// form it has, written in the other, read back and compared. Into the database: the folder's file or database is
/// kept as `<name>.<ext>.converted-<UTC timestamp>`. Out of it: the rows stay in the database (other processes may
/// still use them; nothing is deleted automatically).
extension ModelConversion {
    /// Converts with a database: to `postgres`, or from it when the data folder holds no other form of the model.
    public static func convert(model name: String, rootType: EntityType, engine: Engine, files: FileStorage,
                               to kind: StorageKind, database: PostgresSettings?, now: Date) throws -> Done {
        let folder = files.folder
        let json = try folder.modelFile(name)
        let sqlite = try folder.sqliteFile(name)
        let fm = FileManager.default
        let hasLocal = fm.fileExists(atPath: json) || fm.fileExists(atPath: sqlite)
        if kind == .postgres {
            guard let database else {
                throw Failure("no database to convert model \"\(name)\" into: set OKIT_DATABASE_URL=postgres://user@host:port/database, or give database = \"…\" in okit.model or okit.app")
            }
            return try toPostgres(model: name, rootType: rootType, engine: engine, files: files, database: database, now: now)
        }
        if !hasLocal, let database {
            return try fromPostgres(model: name, rootType: rootType, engine: engine, files: files, database: database, to: kind)
        }
        return try convert(model: name, rootType: rootType, engine: engine, files: files, to: kind, now: now)
    }

    static func toPostgres(model name: String, rootType: EntityType, engine: Engine, files: FileStorage,
                           database: PostgresSettings, now: Date) throws -> Done {
        let folder = files.folder
        let json = try folder.modelFile(name)
        let sqlite = try folder.sqliteFile(name)
        let journal = try folder.journal(name)
        let fm = FileManager.default
        let stamp = ISODate.format(now, fractional: false).replacingOccurrences(of: ":", with: "")
        let loaded: LoadedModel
        var moved: [String]
        if fm.fileExists(atPath: json) {
            loaded = try loadJSON(model: name, rootType: rootType, engine: engine, files: files, path: json)
            moved = [json] + (fm.fileExists(atPath: journal) ? [journal] : [])
        } else if fm.fileExists(atPath: sqlite) {
            loaded = try loadSQLite(model: name, rootType: rootType, engine: engine, files: files, path: sqlite)
            moved = [sqlite] + ["-wal", "-shm"].map { sqlite + $0 }.filter { fm.fileExists(atPath: $0) }
        } else {
            throw Failure("model \"\(name)\" has no stored data in \(folder.models) (neither \(json) nor \(sqlite)); nothing was changed")
        }
        let target = PostgresStorage(files: files, settings: database)
        target.checksStoredForm = false
        target.isolatesRefusals = false
        defer { target.close() }
        // The load takes the model's lock when the database has no rows for it: no process seeds it meanwhile.
        if try target.load(name: name, rootType: rootType, engine: engine) != nil {
            throw Failure("model \"\(name)\" already has rows in \(database.shown); nothing was changed (okit-run convert never writes over a shared model)")
        }
        let model = Model(name: name, rootType: rootType, storageKind: .postgres, root: loaded.root)
        model.engine = engine
        model.wholeDirty = true
        do { try target.registered(model, engine: engine) } catch let e as StorageError {
            throw Failure("cannot convert model \"\(name)\": \(e.message); nothing was changed in the data folder")
        }
        let check = PostgresStorage(files: files, settings: database)
        defer { check.close() }
        guard let back = try check.load(name: name, rootType: rootType, engine: engine) else {
            throw Failure("the converted rows of model \"\(name)\" read back empty; nothing was changed in the data folder")
        }
        if let difference = ModelComparison.difference(loaded.root, back.root, path: rootType.name) {
            throw Failure("the converted rows of model \"\(name)\" do not read back as the model: \(difference); nothing was changed in the data folder")
        }
        var kept: [String] = []
        for path in moved {
            let k = path + ".converted-" + stamp
            try fm.moveItem(atPath: path, toPath: k)
            kept.append(k)
        }
        return Done(path: database.shown, kept: kept, entities: loaded.entityCount)
    }

    static func fromPostgres(model name: String, rootType: EntityType, engine: Engine, files: FileStorage,
                             database: PostgresSettings, to kind: StorageKind) throws -> Done {
        let source = PostgresStorage(files: files, settings: database)
        defer { source.close() }
        guard let loaded = try source.load(name: name, rootType: rootType, engine: engine) else {
            throw Failure("model \"\(name)\" has no rows in \(database.shown) and no file in \(files.folder.models); nothing was changed")
        }
        let path: String
        switch kind {
        case .sqlite:
            path = try files.folder.sqliteFile(name)
            try writeSQLite(model: name, rootType: rootType, engine: engine, files: files, root: loaded.root,
                            headerExtras: loaded.headerExtras, to: path)
        case .file:
            path = try files.folder.modelFile(name)
            try writeJSON(model: name, rootType: rootType, engine: engine, root: loaded.root,
                          version: loaded.version ?? engine.schemaVersion, headerExtras: loaded.headerExtras, to: path)
        default:
            throw Failure("okit-run convert moves models between \"file\", \"sqlite\" and \"postgres\", not to \"\(kind)\"")
        }
        return Done(path: path, kept: [], entities: loaded.entityCount)
    }
}
