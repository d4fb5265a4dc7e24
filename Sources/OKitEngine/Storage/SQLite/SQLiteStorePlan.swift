import GRDB
import GRDBSQLite

/// What one store writes: the rows of the changed entities (and of everything they own) whose values differ
/// from what the database holds, and the rows of entities no longer in the model.
///
/// A change inside an entity with an id re-derives that entity's rows only (the model's dirty units); a change
/// to the root (or a model written whole) re-derives every row and compares each with what is stored.
struct SQLiteStorePlan {
    let drafts: [SQLiteRowDraft]
    let upserts: [SQLiteRowDraft]
    /// Keys of rows to delete, with what the database holds of them.
    let deletes: [(key: String, row: SQLiteStoredRow)]

    init(model: Model, tables: SQLiteTables, stored: SQLiteStoredRows) throws {
        var writer = SQLiteRowWriter(tables: tables, stored: stored)
        var full = model.wholeDirty || stored.isEmpty
        if !full {
            let units = model.dirtyUnits.filter { $0.state == .managed && $0.model === model }
            let unitSet = Set(units.map(ObjectIdentifier.init))
            for unit in units {
                // A unit inside another dirty unit is derived with it.
                var p = unit.parent, covered = false
                while let x = p { if unitSet.contains(ObjectIdentifier(x)) { covered = true; break }; p = x.parent }
                if covered { continue }
                guard let id = unit.id, let s = stored[id] else { full = true; break }
                try writer.derive(unit, parent: s.parent?.text, field: s.field, position: s.position, mapKey: s.mapKey)
            }
        }
        var deletes: [(key: String, row: SQLiteStoredRow)] = []
        if full {
            writer = SQLiteRowWriter(tables: tables, stored: stored)
            try writer.derive(model.root, parent: nil, field: nil, position: nil, mapKey: nil)
            for key in stored.keys {
                let text = key.text
                if !writer.isDerived(text), let row = stored[key] { deletes.append((text, row)) }
            }
        } else {
            // Rows that hung under a re-derived row and are no longer anywhere in what was derived.
            var gone: [SQLiteRowKey] = []
            for d in writer.drafts {
                guard let old = stored[d.key], !old.children.isEmpty else { continue }
                let now = Set(d.children.map(SQLiteRowKey.init))
                for c in old.children where !now.contains(c) { gone.append(c) }
            }
            var seen: Set<SQLiteRowKey> = []
            while let key = gone.popLast() {
                guard seen.insert(key).inserted, let row = stored[key] else { continue }
                gone.append(contentsOf: row.children)
                let text = key.text
                if !writer.isDerived(text) { deletes.append((text, row)) }
            }
        }
        drafts = writer.drafts
        upserts = drafts.filter { d in
            guard let s = stored[d.key] else { return true }
            return s.hash != d.hash || Int(s.table) != d.table
        }
        self.deletes = deletes
    }

    func execute(_ db: Database, tables: SQLiteTables) throws {
        var deleteStatements: [Int: Statement] = [:]
        for (key, row) in deletes {
            let ti = Int(row.table)
            let table = tables.tables[ti]
            let st: Statement
            if let s = deleteStatements[ti] { st = s } else { st = try db.makeStatement(sql: table.deleteSQL); deleteStatements[ti] = st }
            let args: [DatabaseValue]
            if table.keyColumn != nil {
                args = [table.autoIncrement ? (Int64(key)?.databaseValue ?? key.databaseValue) : key.databaseValue]
            } else {
                args = [row.parent?.text.databaseValue ?? .null, row.field?.databaseValue ?? .null, row.position.map { Int64($0) }?.databaseValue ?? .null]
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
    static func run(_ st: Statement, _ values: [DatabaseValue]) throws {
        st.setUncheckedArguments(StatementArguments(values))
        for (i, v) in values.enumerated() {
            guard case .string(var s) = v.storage, s.hasNUL else { continue }
            let code = s.withUTF8 { b -> Int32 in
                guard let p = b.baseAddress else { return SQLITE_OK }
                return sqlite3_bind_text(st.sqliteStatement, Int32(i + 1), UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self),
                                         Int32(b.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind a text with a NUL") }
        }
        try st.execute()
    }

    /// What the database holds after the plan was committed.
    func apply(to stored: inout SQLiteStoredRows) {
        for (key, _) in deletes { stored[key] = nil }
        for d in drafts {
            stored[d.key] = SQLiteStoredRow(table: Int32(d.table), position: d.position, hash: d.hash,
                                            parent: d.parent.map(SQLiteRowKey.init), field: d.field, mapKey: d.mapKey,
                                            children: d.children.map(SQLiteRowKey.init))
        }
    }
}
