import Foundation
import OKitEngine

/// The `sqlite` kind's form in the data folder (storage.md "SQLite models"): `okit/data/<model>.sqlite` with its
/// `-wal`, `-shm` and `-journal`. A backup holds a consistent copy of the database (`SQLiteBackupCopy`), a restore
/// reads the copy with the app's schema, recovering a model moves the database aside with its side files, and a
/// model whose data is in this form is never started fresh as another kind.
public struct SQLiteForm: DataFolderForm {
    public init() {}
    public var kind: StorageKind { .sqlite }
    public var name: String { "a SQLite database" }
    public var fileExtension: String { "sqlite" }
    public var sideSuffixes: [String] { ["-wal", "-shm", "-journal"] }
    public func snapshot(_ path: String) throws -> [UInt8] { try SQLiteBackupCopy.snapshot(path) }
    public func checkDecodes(_ bytes: [UInt8], relativePath: String, rootType: EntityType, engine: any ModelHost) throws {
        try SQLiteBackupCopy.checkDecodes(bytes, relativePath: relativePath, rootType: rootType, engine: engine)
    }
}

extension StorageKind {
    public static let sqlite = StorageKind(rawValue: "sqlite")
}

extension DataFolder {
    /// `<data>/okit/data/<model>.sqlite`: a `sqlite` model's database.
    public func sqliteFile(_ model: String) throws -> String { try modelFile(model, extension: SQLiteForm().fileExtension) }
}
