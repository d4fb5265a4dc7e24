import OKitEngine


/// An entity type's table in PostgreSQL (storage.md "Shared models on PostgreSQL"): the `sqlite` kind's table
/// mapping, plus `okit_model` (several models and apps share a database), `okit_version` (the model version
/// that last wrote the row) and, for types without ids, `okit_row` (the row's key: parent/field/position).
struct PostgresTable {
    let base: RelationalTable
    static let modelColumn = "okit_model"
    static let versionColumn = "okit_version"
    static let rowColumn = "okit_row"
    static let modelsTable = "okit_models"

    /// The fingerprint of the written columns that announced rows of this table carry (`PostgresAnnouncedRow`).
    let columnsFingerprint: String
    /// `updateSQL(checkingVersion: true, ownVersion: true, returningRow: true)`, the statement of the common store
    /// (`PostgresStorage.writeAlone`), made once: made for each store it was 4 % of a store's CPU (issue 39).
    private(set) var updateOwnVersionSQL = ""

    init(_ base: RelationalTable) {
        self.base = base
        columnsFingerprint = PostgresAnnouncedRow.fingerprint(base.written)
        updateOwnVersionSQL = updateSQL(checkingVersion: true, ownVersion: true, returningRow: true)
    }

    var name: String { base.name }
    var q: String { RelationalTable.quoted(base.name) }

    /// The mapping of each written column (nil for the key and link columns and `okit_extra`), in written order.
    var writtenMappings: [RelationalTable.Mapping?] {
        var out: [RelationalTable.Mapping?] = base.keyColumn == nil ? [] : [nil]
        out += [nil, nil, nil, nil]
        for c in base.columns {
            switch c.mapping {
            case .children: break
            case .inlineBlob: out += [c.mapping, nil]
            default: out.append(c.mapping)
            }
        }
        out.append(nil)
        return out
    }

    /// The written column index of each field's (first) column, by slot.
    var columnOfSlot: [Int: Int] {
        var out: [Int: Int] = [:]
        var k = (base.keyColumn == nil ? 0 : 1) + 4
        for c in base.columns {
            switch c.mapping {
            case .children: break
            case .inlineBlob: out[c.slot] = k; k += 2
            default: out[c.slot] = k; k += 1
            }
        }
        return out
    }

    static func sqlType(_ m: RelationalTable.Mapping) -> String {
        switch m {
        case .string, .date, .ref, .json, .binaryMeta: return "TEXT"
        case .int: return "BIGINT"
        case .bool: return "BOOLEAN"
        case .double: return "DOUBLE PRECISION"
        case .inlineBlob: return "BYTEA"
        case .children: return ""
        }
    }

    func definitions(of c: RelationalTable.Column) -> [(name: String, sql: String)] {
        switch c.mapping {
        case .children: return []
        case .inlineBlob:
            return [(c.name, RelationalTable.quoted(c.name) + " BYTEA"),
                    (c.name + RelationalTable.inlineMetaSuffix, RelationalTable.quoted(c.name + RelationalTable.inlineMetaSuffix) + " TEXT")]
        default:
            var sql = RelationalTable.quoted(c.name) + " " + Self.sqlType(c.mapping)
            if var d = RelationalTable.defaultLiteral(c) {
                if case .bool = c.mapping { d = d == "0" ? "false" : "true" }
                sql += " DEFAULT " + d
            }
            return [(c.name, sql)]
        }
    }

    var linkDefinitions: [(name: String, sql: String)] {
        var out = [(RelationalTable.parentColumn, RelationalTable.quoted(RelationalTable.parentColumn) + " TEXT"),
                   (RelationalTable.fieldColumn, RelationalTable.quoted(RelationalTable.fieldColumn) + " TEXT"),
                   (RelationalTable.positionColumn, RelationalTable.quoted(RelationalTable.positionColumn) + " BIGINT"),
                   (RelationalTable.mapKeyColumn, RelationalTable.quoted(RelationalTable.mapKeyColumn) + " TEXT"),
                   (RelationalTable.extraColumn, RelationalTable.quoted(RelationalTable.extraColumn) + " TEXT"),
                   (Self.versionColumn, RelationalTable.quoted(Self.versionColumn) + " BIGINT NOT NULL DEFAULT 0")]
        if base.keyColumn == nil { out.append((Self.rowColumn, RelationalTable.quoted(Self.rowColumn) + " TEXT NOT NULL DEFAULT ''")) }
        return out
    }

    /// The key column: the id column, or `okit_row` for types without ids.
    var keyColumnName: String { base.keyColumn ?? Self.rowColumn }

    /// Creates the table when missing and adds the columns it lacks (never drops one); run under the schema lock.
    /// `known`: the table as the start read it (`PostgresCatalog`). Returns whether it created the table or added
    /// columns (the start then reads its columns again) and the order index's refusal, if PostgreSQL refused it
    /// for a reason to tell (`PostgresIndexRefusal`).
    func ensure(_ link: PostgresLink, _ known: PostgresCatalog.Table) throws -> (changed: Bool, refusal: PostgresIndexRefusal?) {
        let existing = Set(known.names)
        if existing.isEmpty {
            var defs = [RelationalTable.quoted(Self.modelColumn) + " TEXT NOT NULL"]
            if let key = base.keyColumn { defs.append(RelationalTable.quoted(key) + " TEXT NOT NULL") }
            defs += linkDefinitions.map(\.sql)
            for c in base.columns { defs += definitions(of: c).map(\.sql) }
            defs.append("PRIMARY KEY (\(RelationalTable.quoted(Self.modelColumn)), \(RelationalTable.quoted(keyColumnName)))")
            try link.execute("CREATE TABLE IF NOT EXISTS \(q) (\(defs.joined(separator: ", ")))")
            try link.execute("CREATE INDEX IF NOT EXISTS \(RelationalTable.quoted(name + "_okit_parent")) ON \(q) (\(Self.modelColumn), \(RelationalTable.parentColumn), \(RelationalTable.fieldColumn), \(RelationalTable.positionColumn))")
            return (true, try ensureOrderIndex(link, present: false))
        }
        var missing = linkDefinitions.filter { !existing.contains($0.name) }
        if !existing.contains(Self.modelColumn) {
            missing.append((Self.modelColumn, RelationalTable.quoted(Self.modelColumn) + " TEXT NOT NULL DEFAULT 'default'"))
        }
        for c in base.columns { missing += definitions(of: c).filter { !existing.contains($0.name) } }
        for m in missing { try link.execute("ALTER TABLE \(q) ADD COLUMN IF NOT EXISTS \(m.sql)") }
        return (!missing.isEmpty, try ensureOrderIndex(link, present: known.hasOrderIndex))
    }

    /// The name of the order index: `<table>_okit_order`, cut to the 63 bytes PostgreSQL keeps (at a character's
    /// end, as PostgreSQL cuts it).
    var orderIndexName: String { Self.cut(name + "_okit_order") }

    /// `name` cut as PostgreSQL cuts an identifier: the whole characters that fit in 63 bytes.
    static func cut(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        var bytes = 0
        for u in name.unicodeScalars {
            bytes += String(u).utf8.count
            if bytes > 63 { break }
            out.append(u)
        }
        return String(out)
    }

    /// The index a load's rows are read in (`PostgresStorage.readAll`: by model, position, key), so that a
    /// process joining a model streams each table from it instead of waiting for the whole table sorted.
    var orderIndexSQL: String {
        "CREATE INDEX \(RelationalTable.quoted(orderIndexName)) ON \(q) (\(Self.modelColumn), \(RelationalTable.positionColumn) NULLS FIRST, \(RelationalTable.quoted(keyColumnName)))"
    }

    /// Makes the order index when the table lacks it (`present`: the start found it): with the table, or added to a
    /// table made before okit made it (issue 39). Only a speed-up: a role that may not create it (the tables made by
    /// their owner) or a read-only database reads the rows sorted as before (storage.md), and any other refusal
    /// (another object of that name, a lock or statement timeout) is returned for a warning; the start goes on.
    /// No `IF NOT EXISTS`: that would pass over a table or view of the index's name without a word.
    func ensureOrderIndex(_ link: PostgresLink, present: Bool) throws -> PostgresIndexRefusal? {
        guard !present else { return nil }
        try link.execute("SAVEPOINT okit_order_index")
        do {
            try link.execute(orderIndexSQL)
            try link.execute("RELEASE SAVEPOINT okit_order_index")
            return nil
        } catch {
            if PostgresStorage.isConnectionError(error) { throw error }
            try link.execute("ROLLBACK TO SAVEPOINT okit_order_index")
            try link.execute("RELEASE SAVEPOINT okit_order_index")
            return PostgresIndexRefusal(self, error)
        }
    }

    static func columnNames(_ link: PostgresLink, table: String) throws -> [String] {
        try link.query("SELECT column_name::text FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
                       [.text(table)]).rows.compactMap { PostgresLink.values($0).first.flatMap { String.fromRelationalValue($0) } }
    }

    static func ensureModelsTable(_ link: PostgresLink) throws {
        try link.execute("""
            CREATE TABLE IF NOT EXISTS \(modelsTable) (model TEXT PRIMARY KEY, type TEXT, schema_version INTEGER,
            version BIGINT NOT NULL DEFAULT 0)
            """)
    }

    /// Columns of a row this storage writes, after `okit_model` (and before `okit_version`, `okit_row`).
    var writtenList: String { base.written.map(RelationalTable.quoted).joined(separator: ", ") }

    /// `INSERT` of a new row: model, written columns, version (and okit_row). Nothing when the key exists.
    var insertSQL: String {
        var cols = [RelationalTable.quoted(Self.modelColumn)] + base.written.map(RelationalTable.quoted) + [RelationalTable.quoted(Self.versionColumn)]
        if base.keyColumn == nil { cols.append(RelationalTable.quoted(Self.rowColumn)) }
        let marks = (1...cols.count).map { "$\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(q) (\(cols.joined(separator: ", "))) VALUES (\(marks)) ON CONFLICT DO NOTHING"
    }

    /// `UPDATE` of a row read at a version: the written columns but the key ($1…, `updateBinds`), the new version,
    /// then model, key and the version read. It returns the written columns as committed (what the store
    /// announces).
    var updateSQL: String { updateSQL(checkingVersion: true, returningRow: true) }

    /// `updateSQL`, or without its version check (a row this transaction locked and merged: it writes whatever
    /// version the row has; the last parameter is then not used).
    /// `ownVersion`: the new version is the writing transaction's id, returned (the version parameter is not used).
    /// `returningRow`: the written columns are returned (after the version, with `ownVersion`).
    func updateSQL(checkingVersion: Bool, ownVersion: Bool = false, returningRow: Bool = false) -> String {
        let keyNames: Set<String> = base.keyColumn.map { [$0] } ?? []
        var k = 0
        var sets: [String] = []
        for c in base.written where !keyNames.contains(c) {
            k += 1
            sets.append("\(RelationalTable.quoted(c)) = $\(k)")
        }
        sets.append("\(RelationalTable.quoted(Self.versionColumn)) = " + (ownVersion ? "pg_current_xact_id()::text::bigint" : "$\(k + 1)"))
        let version = checkingVersion ? "\(Self.versionColumn) = $\(k + 4)" : "$\(k + 4)::bigint IS NOT NULL"
        let sql = "UPDATE \(q) SET \(sets.joined(separator: ", ")) WHERE \(Self.modelColumn) = $\(k + 2) AND \(RelationalTable.quoted(keyColumnName)) = $\(k + 3) AND \(version)"
        let row = returningRow ? writtenList : ""
        if ownVersion { return sql + " AND $\(k + 1)::bigint IS NOT NULL RETURNING \(Self.versionColumn)" + (row.isEmpty ? "" : ", " + row) }
        return row.isEmpty ? sql : sql + " RETURNING " + row
    }

    /// The parameters of `updateSQL` for a row's written values: every written column but the key, then the new
    /// version, the model, the key and the version read.
    func updateBinds(_ values: [RelationalValue], version: Int64, model: String, key: String, read: Int64) -> [PostgresBind] {
        let mappings = writtenMappings
        var binds: [PostgresBind] = []
        for (j, c) in base.written.enumerated() where c != base.keyColumn { binds.append(PostgresBind(values[j], mapping: mappings[j])) }
        return binds + [.int(version), .text(model), .text(key), .int(read)]
    }

    /// The parameters of `insertSQL` for a row's written values.
    func insertBinds(_ values: [RelationalValue], version: Int64, model: String, key: String) -> [PostgresBind] {
        let mappings = writtenMappings
        var binds: [PostgresBind] = [.text(model)]
        for (j, v) in values.enumerated() { binds.append(PostgresBind(v, mapping: mappings[j])) }
        binds.append(.int(version))
        if base.keyColumn == nil { binds.append(.text(key)) }
        return binds
    }

    /// The columns a table has that are neither written by okit nor okit's own: kept as the entities' unknown fields.
    func unknownColumns(existing: [String]) -> [String] {
        existing.filter { !base.written.contains($0) && !Self.ownColumns.contains($0) }
    }

    var deleteSQL: String {
        "DELETE FROM \(q) WHERE \(Self.modelColumn) = $1 AND \(RelationalTable.quoted(keyColumnName)) = $2"
    }

    /// The written columns (NULL for those the table lacks), the unknown ones, then `okit_version`.
    func selectList(existing: Set<String>, unknown: [String]) -> String {
        selectedColumns(existing: existing, unknown: unknown).map { $0 ?? "NULL" }.joined(separator: ", ")
    }

    /// The columns a load selects, in order: the written ones (nil for one the table lacks, read as NULL), the
    /// unknown ones, then `okit_version`.
    func selectedColumns(existing: Set<String>, unknown: [String]) -> [String?] {
        base.written.map { existing.contains($0) ? RelationalTable.quoted($0) : nil } + unknown.map(RelationalTable.quoted)
            + [RelationalTable.quoted(Self.versionColumn)]
    }

    /// The select list of a load as one record a row (`PostgresRecordRow`) when every selected column is of a type
    /// a record is read with (`types`: each existing column's `data_type`), else nil.
    func recordSelectList(existing: Set<String>, unknown: [String], types: [String: String]) -> String? {
        let selected = base.written.filter(existing.contains) + unknown + [Self.versionColumn]
        guard PostgresRecordRow.reads(types: selected.map { types[$0] ?? "" }) else { return nil }
        return PostgresRecordRow.selectList(selectedColumns(existing: existing, unknown: unknown).map { $0 ?? "NULL" })
    }

    /// Columns okit keeps for itself in PostgreSQL (neither fields nor unknown columns).
    static let ownColumns: Set<String> = [modelColumn, versionColumn, rowColumn]
}
