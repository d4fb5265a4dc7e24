import GRDB
import GRDBSQLite
import OKitEngine

/// A store's plan run on a SQLite database: the deletes, then the upserts, each statement prepared once per table.
extension RelationalStorePlan {
    func execute(_ db: Database, tables: RelationalTables) throws {
        var deleteStatements: [Int: Statement] = [:]
        for (key, row) in deletes {
            let ti = Int(row.table)
            let table = tables.tables[ti]
            let st: Statement
            if let s = deleteStatements[ti] { st = s } else { st = try db.makeStatement(sql: table.deleteSQL); deleteStatements[ti] = st }
            let args: [RelationalValue]
            if table.keyColumn != nil {
                args = [table.autoIncrement ? (Int64(key)?.relationalValue ?? key.relationalValue) : key.relationalValue]
            } else {
                args = [row.parent?.text.relationalValue ?? .null, row.field?.relationalValue ?? .null,
                        row.position.map { Int64($0) }?.relationalValue ?? .null]
            }
            try Self.run(st, args)
        }
        var upsertStatements: [Int: Statement] = [:]
        for d in upserts {
            if d.parent == nil, tables.tables[d.table].keyColumn == nil {
                try Self.run(try db.makeStatement(sql: tables.tables[d.table].rootUpdateSQL), d.values)
                if db.changesCount > 0 { continue }
            }
            let st: Statement
            if let s = upsertStatements[d.table] { st = s } else {
                st = try db.makeStatement(sql: tables.tables[d.table].upsertSQL)
                upsertStatements[d.table] = st
            }
            try Self.run(st, d.values)
        }
    }

    /// Runs a statement with these arguments. A text holding a NUL (U+0000) is bound with its length: GRDB binds
    /// a text up to its first NUL, which cut it silently. okit refuses such a text at every write, but a model
    /// read from a file or database another program wrote may hold one; a sqlite model keeps it as it is.
    static func run(_ st: Statement, _ values: [RelationalValue]) throws {
        st.setUncheckedArguments(StatementArguments(values))
        for (i, v) in values.enumerated() {
            guard case .string(var s) = v, s.hasNUL else { continue }
            let code = s.withUTF8 { b -> Int32 in
                guard let p = b.baseAddress else { return SQLITE_OK }
                return sqlite3_bind_text(st.sqliteStatement, Int32(i + 1), UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self),
                                         Int32(b.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a text with a NUL") }
        }
        try st.execute()
    }
}
