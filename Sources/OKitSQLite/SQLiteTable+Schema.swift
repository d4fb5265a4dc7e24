import GRDB
import OKitEngine

/// A table in SQLite's dialect (storage.md "SQLite models"): column types, CREATE TABLE and ADD COLUMN, the
/// upsert, root update and delete statements of a store.
extension RelationalTable {
    /// The SQL type of a column okit writes.
    static func sqlType(_ m: Mapping) -> String {
        switch m {
        case .string, .date, .ref, .json, .binaryMeta: return "TEXT"
        case .int, .bool: return "INTEGER"
        case .double: return "REAL"
        case .inlineBlob: return "BLOB"
        case .children: return ""
        }
    }

    /// The definition of a field's column(s) for CREATE TABLE or ADD COLUMN.
    func definitions(of c: Column) -> [(name: String, sql: String)] {
        switch c.mapping {
        case .children: return []
        case .inlineBlob:
            return [(c.name, Self.quoted(c.name) + " BLOB"),
                    (c.name + Self.inlineMetaSuffix, Self.quoted(c.name + Self.inlineMetaSuffix) + " TEXT")]
        default:
            var sql = Self.quoted(c.name) + " " + Self.sqlType(c.mapping)
            if let d = Self.defaultLiteral(c) { sql += " DEFAULT " + d }
            return [(c.name, sql)]
        }
    }

    var linkDefinitions: [(name: String, sql: String)] {
        [(Self.parentColumn, Self.quoted(Self.parentColumn) + " TEXT"),
         (Self.fieldColumn, Self.quoted(Self.fieldColumn) + " TEXT"),
         (Self.positionColumn, Self.quoted(Self.positionColumn) + " INTEGER"),
         (Self.mapKeyColumn, Self.quoted(Self.mapKeyColumn) + " TEXT"),
         (Self.extraColumn, Self.quoted(Self.extraColumn) + " TEXT")]
    }

    /// Creates the table when missing, and adds the columns it lacks (never drops one). Returns the columns
    /// the table has that okit does not write (kept as they are).
    func ensure(_ db: Database) throws {
        let existing = try Self.columnNames(db, table: name)
        if existing.isEmpty {
            var defs: [String] = []
            if let keyColumn {
                defs.append(autoIncrement ? Self.quoted(keyColumn) + " INTEGER PRIMARY KEY AUTOINCREMENT"
                            : Self.quoted(keyColumn) + " TEXT PRIMARY KEY NOT NULL DEFAULT (upper(hex(randomblob(16))))")
            }
            defs += linkDefinitions.map(\.sql)
            for c in columns { defs += definitions(of: c).map(\.sql) }
            if keyColumn == nil {
                defs.append("PRIMARY KEY (\(Self.parentColumn), \(Self.fieldColumn), \(Self.positionColumn))")
            }
            try db.execute(sql: "CREATE TABLE \(Self.quoted(name)) (\(defs.joined(separator: ", ")))")
        } else {
            var missing = linkDefinitions.filter { !existing.contains($0.name) }
            for c in columns { missing += definitions(of: c).filter { !existing.contains($0.name) } }
            for m in missing { try db.execute(sql: "ALTER TABLE \(Self.quoted(name)) ADD COLUMN \(m.sql)") }
        }
        try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(Self.quoted(name + "_okit_parent")) ON \(Self.quoted(name)) (\(Self.parentColumn), \(Self.fieldColumn), \(Self.positionColumn))")
    }

    /// The column names of a table (empty when there is no such table).
    static func columnNames(_ db: Database, table: String) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]).map { $0[0] as String }
    }

    /// `INSERT … ON CONFLICT (key) DO UPDATE SET …` of the written columns: a row that exists keeps the columns
    /// okit does not know.
    var upsertSQL: String {
        let cols = written.map(Self.quoted).joined(separator: ", ")
        let marks = Array(repeating: "?", count: written.count).joined(separator: ", ")
        let conflict = keyColumn.map(Self.quoted) ?? "\(Self.parentColumn), \(Self.fieldColumn), \(Self.positionColumn)"
        let keyNames: Set<String> = keyColumn.map { [$0] } ?? [Self.parentColumn, Self.fieldColumn, Self.positionColumn]
        let updates = written.filter { !keyNames.contains($0) }.map { "\(Self.quoted($0)) = excluded.\(Self.quoted($0))" }
        return "INSERT INTO \(Self.quoted(name)) (\(cols)) VALUES (\(marks)) ON CONFLICT (\(conflict)) DO UPDATE SET \(updates.joined(separator: ", "))"
    }

    /// The root row of a type without ids: its key columns are NULL, and SQLite's unique keys never match NULLs,
    /// so an upsert would add a second root; it is updated in place (`WHERE okit_parent IS NULL`), and inserted
    /// only when there is none. Arguments as for `upsertSQL`.
    var rootUpdateSQL: String {
        let sets = written.map { "\(Self.quoted($0)) = ?" }.joined(separator: ", ")
        return "UPDATE \(Self.quoted(name)) SET \(sets) WHERE \(Self.parentColumn) IS NULL"
    }

    var deleteSQL: String {
        if let keyColumn { return "DELETE FROM \(Self.quoted(name)) WHERE \(Self.quoted(keyColumn)) = ?" }
        return "DELETE FROM \(Self.quoted(name)) WHERE \(Self.parentColumn) = ? AND \(Self.fieldColumn) = ? AND \(Self.positionColumn) = ?"
    }
}
