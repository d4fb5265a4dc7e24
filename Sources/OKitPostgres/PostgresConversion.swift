import Foundation
import OKitEngine

/// The `postgres` kind as a conversion's source and target (storage.md "Shared models on PostgreSQL"). Into the
/// database: the model's rows are written in one transaction (seeded as a first process would, all or nothing),
/// read back and compared. Out of it: the rows stay in the database (other processes may still use them; nothing
/// is deleted automatically).
extension PostgresStorage: ConvertibleStorage {
    public var conversionForm: String { "rows in \(settings.shown)" }
    public func conversionPlace(of name: String) throws -> String { settings.shown }
    /// Only a load can tell: the target's `writeConverted` refuses a model the database has rows of.
    public func holdsModel(_ name: String) throws -> Bool? { nil }
    public func convertedFiles(of name: String) throws -> [String] { [] }

    public func loadForConversion(_ name: String, rootType: EntityType, engine: any ModelHost) throws -> LoadedModel? {
        checksStoredForm = false
        defer { close() }
        guard let loaded = try load(name: name, rootType: rootType, engine: engine) else {
            throw ModelConversion.Failure("model \"\(name)\" has no rows in \(settings.shown) and no file in \(files.folder.models); nothing was changed")
        }
        return loaded
    }

    public func writeConverted(_ name: String, rootType: EntityType, engine: any ModelHost, from loaded: LoadedModel) throws {
        checksStoredForm = false
        isolatesRefusals = false
        defer { close() }
        // The load takes the model's lock when the database has no rows for it: no process seeds it meanwhile.
        if try load(name: name, rootType: rootType, engine: engine) != nil {
            throw ModelConversion.Failure("model \"\(name)\" already has rows in \(settings.shown); nothing was changed (a conversion never writes over a shared model)")
        }
        let model = Model(name: name, rootType: rootType, storageKind: .postgres, root: loaded.root)
        engine.hostUnregistered(model)
        model.wholeDirty = true
        do { try registered(model, engine: engine) } catch let e as StorageError {
            throw ModelConversion.Failure("cannot convert model \"\(name)\": \(e.message); nothing was changed in the data folder")
        }
        let check = PostgresStorage(files: files, settings: settings)
        defer { check.close() }
        check.checksStoredForm = false
        guard let back = try check.load(name: name, rootType: rootType, engine: engine) else {
            throw ModelConversion.Failure("the converted rows of model \"\(name)\" read back empty; nothing was changed in the data folder")
        }
        if let difference = ModelComparison.difference(loaded.root, back.root, path: rootType.name) {
            throw ModelConversion.Failure("the converted rows of model \"\(name)\" do not read back as the model: \(difference); nothing was changed in the data folder")
        }
    }
}
