import Foundation

/// `okit-run convert` (storage.md "SQLite models"): moves a model between the `file` and `sqlite` forms. The new
/// form is written beside the old one, read back and compared with the model as read from the old form, then
/// swapped in; the old form is kept as `<name>.<ext>.converted-<UTC timestamp>` (never deleted automatically).
/// Anything that goes wrong leaves the data folder as it was.
public enum ModelConversion {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ text: String) { description = text }
    }

    /// What a conversion did: the file now holding the model and where the old form was kept.
    public struct Done: Sendable {
        public let path: String
        public let kept: [String]
        public let entities: Int
    }

    /// Converts model `name` (root type `rootType`) of the data folder `files` to `kind` (`.sqlite` or `.file`).
    public static func convert(model name: String, rootType: EntityType, engine: Engine, files: FileStorage,
                               to kind: StorageKind, now: Date) throws -> Done {
        let folder = files.folder
        let json = try folder.modelFile(name)
        let sqlite = try folder.sqliteFile(name)
        let journal = try folder.journal(name)
        let fm = FileManager.default
        let stamp = ISODate.format(now, fractional: false).replacingOccurrences(of: ":", with: "")
        switch kind {
        case .sqlite:
            guard !fm.fileExists(atPath: sqlite) else { throw Failure("model \"\(name)\" is already a SQLite database (\(sqlite)); nothing was changed") }
            guard fm.fileExists(atPath: json) else { throw Failure("model \"\(name)\" has no stored data at \(json); nothing was changed") }
            let loaded = try loadJSON(model: name, rootType: rootType, engine: engine, files: files, path: json)
            try writeSQLite(model: name, rootType: rootType, engine: engine, files: files, root: loaded.root,
                            headerExtras: loaded.headerExtras, to: sqlite)
            var kept = [json + ".converted-" + stamp]
            try fm.moveItem(atPath: json, toPath: kept[0])
            if fm.fileExists(atPath: journal) {
                kept.append(journal + ".converted-" + stamp)
                try fm.moveItem(atPath: journal, toPath: kept[1])
            }
            return Done(path: sqlite, kept: kept, entities: loaded.entityCount)
        case .file:
            guard !fm.fileExists(atPath: json) else { throw Failure("model \"\(name)\" is already a JSON file (\(json)); nothing was changed") }
            guard fm.fileExists(atPath: sqlite) else { throw Failure("model \"\(name)\" has no database at \(sqlite); nothing was changed") }
            let loaded = try loadSQLite(model: name, rootType: rootType, engine: engine, files: files, path: sqlite)
            try writeJSON(model: name, rootType: rootType, engine: engine, root: loaded.root,
                          version: loaded.version ?? engine.schemaVersion, headerExtras: loaded.headerExtras, to: json)
            let kept = sqlite + ".converted-" + stamp
            try fm.moveItem(atPath: sqlite, toPath: kept)
            for side in ["-wal", "-shm"] where fm.fileExists(atPath: sqlite + side) {
                try? fm.moveItem(atPath: sqlite + side, toPath: kept + side)
            }
            return Done(path: json, kept: [kept], entities: loaded.entityCount)
        default:
            throw Failure("okit-run convert moves models between \"file\", \"sqlite\" and \"postgres\", not to \"\(kind)\"")
        }
    }

    /// The model from the data folder's JSON file (at `path`).
    static func loadJSON(model name: String, rootType: EntityType, engine: Engine, files: FileStorage, path: String) throws -> LoadedModel {
        guard let loaded = try files.load(name: name, rootType: rootType, engine: engine) else {
            throw Failure("model \"\(name)\" has no stored data at \(path); nothing was changed")
        }
        return loaded
    }

    /// The model from the data folder's SQLite database at `path` (closed again).
    static func loadSQLite(model name: String, rootType: EntityType, engine: Engine, files: FileStorage, path: String) throws -> LoadedModel {
        let source = SQLiteStorage(files: files, path: path)
        defer { source.close() }
        guard let loaded = try source.load(name: name, rootType: rootType, engine: engine) else {
            throw Failure("model \"\(name)\" has no root row in \(path); nothing was changed")
        }
        return loaded
    }

    /// Writes a model as a SQLite database at `path`, beside which nothing is yet: written to a temporary file,
    /// read back and compared, then moved in place.
    static func writeSQLite(model name: String, rootType: EntityType, engine: Engine, files: FileStorage, root: Entity,
                            headerExtras: [(key: String, json: [UInt8])], to path: String) throws {
        let fm = FileManager.default
        let temporary = path + ".converting"
        removeDatabase(temporary)
        do {
            let model = Model(name: name, rootType: rootType, storageKind: .sqlite, root: root)
            model.engine = engine
            model.headerExtras = headerExtras
            model.wholeDirty = true
            let target = SQLiteStorage(files: files, path: temporary)
            do { try target.write(model, engine: engine) } catch let e as StorageError {
                throw Failure("cannot convert model \"\(name)\": \(e.message); nothing was changed")
            }
            target.close()
            let check = SQLiteStorage(files: files, path: temporary)
            defer { check.close() }
            guard let back = try check.load(name: name, rootType: rootType, engine: engine) else {
                throw Failure("the converted database of model \"\(name)\" reads back empty; nothing was changed")
            }
            if let difference = ModelComparison.difference(root, back.root, path: rootType.name) {
                throw Failure("the converted database of model \"\(name)\" does not read back as the model: \(difference); nothing was changed")
            }
            check.close()
            try fm.moveItem(atPath: temporary, toPath: path)
        } catch {
            removeDatabase(temporary)
            throw error
        }
    }

    /// Writes a model as a JSON file at `path`: written to a temporary file, read back and compared, then moved in
    /// place.
    static func writeJSON(model name: String, rootType: EntityType, engine: Engine, root: Entity, version: Int,
                          headerExtras: [(key: String, json: [UInt8])], to path: String) throws {
        var writer = JSONWriter(capacity: 1 << 16)
        writer.document(root, type: rootType.name, version: version, generation: 1, headerExtras: headerExtras)
        let temporary = path + ".converting"
        try AtomicFile.replace(temporary, with: writer.bytes)
        do {
            let back = try withExtendedLifetime(writer.out) {
                var r = JSONReader(bytes: writer.out.buffer, engine: engine)
                return try r.root(rootType)
            }
            if let difference = ModelComparison.difference(root, back, path: rootType.name) {
                throw Failure("the converted file of model \"\(name)\" does not read back as the model: \(difference); nothing was changed")
            }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            if let f = error as? JSONReader.Failure { throw Failure("the converted file of model \"\(name)\" does not read back: \(f.message); nothing was changed") }
            throw error
        }
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
