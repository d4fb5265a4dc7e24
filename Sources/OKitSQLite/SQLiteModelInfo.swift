import GRDB
import OKitEngine

/// The `okit_model` table of a model's database: the root's type and the schema version (`okit.version`) it was
/// stored with, as a model file's `okit` header holds them.
enum SQLiteModelInfo {
    static let table = RelationalTableNames.modelTable

    static func ensure(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(table) (key TEXT PRIMARY KEY NOT NULL, value)")
    }

    /// The stored version and root type (nil when the table or the row is missing).
    static func read(_ db: Database) throws -> (version: Int?, type: String?) {
        guard try db.tableExists(table) else { return (nil, nil) }
        var version: Int?
        var type: String?
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM \(table)") {
            let key: String? = row[0]
            switch key {
            case "version": version = row[1]
            case "type": type = row[1]
            default: break
            }
        }
        return (version, type)
    }

    static func write(_ db: Database, type: String, version: Int) throws {
        try db.execute(sql: "INSERT INTO \(table) (key, value) VALUES ('type', ?), ('version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value",
                       arguments: [type, version])
    }
}
