import Foundation

/// A model's stored form against the kind the app declares (storage.md "SQLite models"): a model whose data is
/// in the other form is never started fresh; the app stops and names `okit-run convert`.
public enum SQLiteStoredForm {
    /// The error for a model declared as `declared` whose data folder holds the other form (nil when it does not).
    public static func mismatch(model: String, declared: StorageKind, folder: DataFolder) -> StorageError? {
        guard let json = try? folder.modelFile(model), let sqlite = try? folder.sqliteFile(model) else { return nil }
        let fm = FileManager.default
        switch declared {
        case .sqlite where !fm.fileExists(atPath: sqlite) && fm.fileExists(atPath: json):
            return StorageError(kind: .io, path: json, message: "model \"\(model)\" is declared with storage = \"sqlite\" but its data is a JSON file; convert it first: okit-run convert --app APP.lua --model \(model) --to sqlite (nothing was changed)",
                                remedy: nil)
        case .postgres:
            for (path, form) in [(json, "a JSON file"), (sqlite, "a SQLite database")] where fm.fileExists(atPath: path) {
                return StorageError(kind: .io, path: path, message: "model \"\(model)\" is declared with storage = \"postgres\" and has no rows in the database, but its data is \(form) here; convert it first: okit-run convert --app APP.lua --model \(model) --to postgres (nothing was changed)")
            }
            return nil
        case .file, .encrypted:
            guard !fm.fileExists(atPath: json), fm.fileExists(atPath: sqlite) else { return nil }
            return StorageError(kind: .io, path: sqlite, message: "model \"\(model)\" is declared with storage = \"\(declared)\" but its data is a SQLite database; convert it first: okit-run convert --app APP.lua --model \(model) --to file (nothing was changed)")
        default:
            return nil
        }
    }

    static func refuseOtherForm(model: String, declared: StorageKind, files: FileStorage) throws {
        if let e = mismatch(model: model, declared: declared, folder: files.folder) { throw e }
    }
}

extension StorageKind {
    public static let sqlite = StorageKind(rawValue: "sqlite")
}
