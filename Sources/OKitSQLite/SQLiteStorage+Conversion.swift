import Foundation
import OKitEngine

/// The `sqlite` kind as a conversion's source and target: `<model>.sqlite` (with its `-wal` and `-shm`).
extension SQLiteStorage: ConvertibleStorage {
    public var conversionForm: String { SQLiteForm().name }
    public func conversionPlace(of name: String) throws -> String { path }
    public func holdsModel(_ name: String) throws -> Bool? { FileManager.default.fileExists(atPath: path) }

    /// The model from the database (closed again).
    public func loadForConversion(_ name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        defer { close() }
        guard let loaded = try load(name: name, rootType: rootType, engine: engine) else {
            throw ModelConversion.Failure("model \"\(name)\" has no root row in \(path); nothing was changed")
        }
        return loaded
    }

    public func convertedFiles(of name: String) throws -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Writes the model as a database where none is yet: to a temporary file, read back and compared, then moved
    /// in place.
    public func writeConverted(_ name: String, rootType: EntityType, engine: any ModelHost, from loaded: LoadedModel) throws {
        let temporary = path + ".converting"
        Self.removeDatabase(temporary)
        do {
            let model = Model(name: name, rootType: rootType, storageKind: .sqlite, root: loaded.root)
            engine.hostUnregistered(model)
            model.headerExtras = loaded.headerExtras
            model.wholeDirty = true
            let target = SQLiteStorage(files: files, path: temporary)
            do { try target.write(model, engine: engine) } catch let e as StorageError {
                throw ModelConversion.Failure("cannot convert model \"\(name)\": \(e.message); nothing was changed")
            }
            target.close()
            let check = SQLiteStorage(files: files, path: temporary)
            defer { check.close() }
            guard let back = try check.load(name: name, rootType: rootType, engine: engine) else {
                throw ModelConversion.Failure("the converted database of model \"\(name)\" reads back empty; nothing was changed")
            }
            if let difference = ModelComparison.difference(loaded.root, back.root, path: rootType.name) {
                throw ModelConversion.Failure("the converted database of model \"\(name)\" does not read back as the model: \(difference); nothing was changed")
            }
            check.close()
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            Self.removeDatabase(temporary)
            throw error
        }
    }

    /// Removes a database and its side files.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
