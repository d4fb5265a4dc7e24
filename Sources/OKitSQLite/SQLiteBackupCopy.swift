import Foundation
import GRDB
import OKitEngine

/// SQLite models in backups (storage.md "SQLite models"): a backup holds a consistent copy of each database
/// (`VACUUM INTO`, a snapshot of the last committed store, whatever the WAL holds), never the `-wal` and `-shm`
/// files beside it; a restore reads the copy with the app's schema before anything is replaced.
enum SQLiteBackupCopy {
    /// The bytes of a consistent copy of the database at `path`.
    static func snapshot(_ path: String) throws -> [UInt8] {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("okit-backup-\(UUID().uuidString).sqlite").path
        defer { SQLiteStorage.removeDatabase(copy) }
        do {
            let q = try DatabaseQueue(path: path)
            try q.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
            try q.close()
        } catch {
            throw StorageError(kind: .io, path: path, message: "cannot copy the database for the backup: \(SQLiteDamage.reason(error, path: path))")
        }
        guard let bytes = try AtomicFile.read(copy) else {
            throw StorageError(kind: .io, path: path, message: "the copy of the database for the backup is missing")
        }
        return bytes
    }

    /// Reads a database's bytes (from a backup) as model `name` of root type `rootType`: throws as a load would.
    static func checkDecodes(_ bytes: [UInt8], relativePath: String, rootType: EntityType, engine: any ModelHost) throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("okit-check-\(UUID().uuidString).sqlite").path
        defer { SQLiteStorage.removeDatabase(copy) }
        try Data(bytes).write(to: URL(fileURLWithPath: copy))
        do {
            let q = try DatabaseQueue(path: copy)
            defer { try? q.close() }
            let tables = RelationalTables(rootType: rootType, schema: engine.schema)
            _ = try q.read { db in
                let check = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? ""
                guard check == "ok" else {
                    throw StorageError(kind: .corrupt, path: relativePath, message: "the database fails its integrity check: \(check)")
                }
                // As a load: a database of another root type, or stored by a newer app version, is refused.
                let (version, type) = try SQLiteModelInfo.read(db)
                if let type, type != rootType.name {
                    throw StorageError(kind: .wrongType, path: relativePath, message: "the database holds a \(type) model, not the \(rootType.name) this app declares")
                }
                try NewerAppData.check(stored: version, file: relativePath, app: engine.schemaVersion)
                var reader = RelationalRowReader(tables: tables, engine: engine, path: relativePath)
                reader.storedVersion = version   // an older version's values of another type are its migrations' (as a load)
                return try reader.read(db)
            }
        } catch let e as StorageError {
            throw e
        } catch let e as NewerAppData {
            throw e
        } catch {
            throw StorageError(kind: .corrupt, path: relativePath, message: "not a readable SQLite database: \(SQLiteStorage.text(error))")
        }
    }
}
