import Foundation
import GRDB
import GRDBSQLite
import OKitEngine

/// Reading a model's tables from a SQLite database (storage.md "SQLite models"): one statement per table, the
/// rows stepped here (few) or on a second thread (`SQLiteRowPipe`, many), each made into an entity by
/// `readRow`.
extension RelationalRowReader {
    func read(_ db: Database) throws -> Result? {
        var rows = RelationalReadRows()
        var unknownColumns: [Set<String>] = []
        var plans: [(table: Int, unknown: [String], statement: Statement, sql: String)] = []
        var estimate = 0
        for (ti, table) in tables.tables.enumerated() {
            let existing = try RelationalTable.columnNames(db, table: table.name)
            let unknown = existing.filter { !table.written.contains($0) }
            unknownColumns.append(Set(unknown))
            if existing.isEmpty { continue }
            // The columns okit writes (NULL for those the table lacks yet), then the unknown ones.
            let known = Set(existing)
            let selected = table.written.map { known.contains($0) ? RelationalTable.quoted($0) : "NULL" } + unknown.map(RelationalTable.quoted)
            let sql = "SELECT \(selected.joined(separator: ", ")) FROM \(RelationalTable.quoted(table.name)) ORDER BY rowid"
            plans.append((ti, unknown, try db.makeStatement(sql: sql), sql))
            // Room for the rows, by the largest rowid (found in the b-tree, not counted; bounded, for a table
            // whose rowids were set far apart).
            estimate += min(max(try Int.fetchOne(db, sql: "SELECT max(rowid) FROM \(RelationalTable.quoted(table.name))") ?? 0, 0), 1 << 22)
        }
        rows.reserve(estimate)
        if estimate >= pipeThreshold {
            try withExtendedLifetime(plans) {
                let pipe = SQLiteRowPipe(statements: plans.map { ($0.table, $0.statement.sqliteStatement, tables.tables[$0.table].written.count + $0.unknown.count, $0.sql) },
                                         connection: db.sqliteConnection)
                pipe.start()
                defer { pipe.finish() }
                var plan = 0
                while let batch = try pipe.next() {
                    while plans[plan].table != batch.table { plan += 1 }
                    let table = tables.tables[batch.table], unknown = plans[plan].unknown
                    try readBatch(batch, table, unknown: unknown, rows: &rows)
                    pipe.recycle(batch)
                }
            }
        } else {
            for p in plans {
                try readTable(db, p.table, tables.tables[p.table], p.statement, sql: p.sql, unknown: p.unknown, rows: &rows)
            }
        }
        return try finish(&rows, unknownColumns: unknownColumns)
    }

    func readTable(_ db: Database, _ ti: Int, _ table: RelationalTable, _ statement: Statement, sql: String, unknown: [String],
                           rows: inout RelationalReadRows) throws {
        // Each column straight from the statement (GRDB's generic per-column decoding was a tenth of a load),
        // stepped here, not through a GRDB cursor (its machinery per row was 13 ms of a 200 ms load).
        let st = statement.sqliteStatement
        let columns = SQLiteStatementColumns(statement: st)
        while true {
            let code = sqlite3_step(st)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try readRow(columns, ti, table, unknown: unknown, rows: &rows)
        }
    }
}
