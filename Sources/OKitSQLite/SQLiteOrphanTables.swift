import GRDB
import OKitEngine

/// Tables of a model's database that no entity type of the model reads (storage.md "SQLite models"): a type
/// renamed leaves its rows in the table of its old name. They are kept as they are; the load says so.
enum SQLiteOrphanTables {
    /// The name and row count of each table with okit's link columns that is none of `tables` and has rows.
    static func find(_ db: Database, tables: RelationalTables) throws -> [(name: String, rows: Int)] {
        let declared = Set(tables.tables.map { $0.name.lowercased() })
        var found: [(name: String, rows: Int)] = []
        for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            let folded = name.lowercased()
            if declared.contains(folded) || folded == RelationalTableNames.modelTable || folded.hasPrefix("sqlite_") { continue }
            guard try RelationalTable.columnNames(db, table: name).contains(RelationalTable.parentColumn) else { continue }
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(RelationalTable.quoted(name))") ?? 0
            if rows > 0 { found.append((name, rows)) }
        }
        return found
    }

    /// The warning for one such table.
    static func warning(model: String, path: String, table: String, rows: Int) -> String {
        "model \"\(model)\" (\(path)): table \(table) holds \(rows) row\(rows == 1 ? "" : "s") that no entity type of the model reads "
            + "(a type renamed? a SQLite model keeps each entity type in the table of its name); they are left as they are: "
            + "declare the type with okit.entity(\"…\", { … }, { table = \"\(table)\" }) to read them, or give it its old name again"
    }

    /// Empties the columns of fields this schema keeps elsewhere (`ref Owner` become an owned `Owner`, kept in
    /// its own table): the first store after the migrations that converted them (`RelationalRowReader.movedField`).
    static func clearMovedColumns(_ db: Database, tables: RelationalTables) throws {
        for t in tables.tables {
            for name in t.unknownColumns.sorted() where t.type.slot(of: name) != nil {
                let column = RelationalTable.quoted(name)
                try db.execute(sql: "UPDATE \(RelationalTable.quoted(t.name)) SET \(column) = NULL WHERE \(column) IS NOT NULL")
            }
        }
    }
}
