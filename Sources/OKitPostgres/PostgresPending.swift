import Foundation
import OKitEngine

/// A shared model's changes that could not be stored because the database was out of reach (storage.md: "stores
/// keep their changes pending (on disk, as for http) and are retried"): the rows the store would have written,
/// with the values and version this process had read, in `<data>/okit/pending/<model>.postgres.json`. The next
/// start replays them before it reads the model, merging field by field with what other processes stored
/// meanwhile (a field both changed keeps the other side's value and this one is reported).
struct PostgresPendingRow {
    let key: String
    let table: Int
    /// The row's values; nil: the row is deleted.
    let values: [RelationalValue]?
    /// What this process had read of the row (nil: a new row).
    let base: [RelationalValue]?
    let baseVersion: Int64?
    /// Positions in `values` (and `base`) whose value did not read (they hold NULL): the row is checked, not replayed
    /// as it is.
    var unreadable: Set<Int> = []
    var baseUnreadable = false
    /// Its place in the file (1-based), for a row that names no key or table.
    var number = 0
}

enum PostgresPending {
    static func path(_ files: FileStorage, model: String) -> String { files.folder.pending + "/" + model + ".postgres.json" }

    /// The pending file's bytes for `rows`.
    static func encoded(_ rows: [PostgresPendingRow]) throws -> [UInt8] {
        var out: [[String: Any]] = []
        for r in rows {
            var o: [String: Any] = ["key": r.key, "table": r.table]
            if let v = r.values { o["values"] = v.map(encode) }
            if let b = r.base { o["base"] = b.map(encode) }
            if let v = r.baseVersion { o["baseVersion"] = v }
            out.append(o)
        }
        return Array(try JSONSerialization.data(withJSONObject: ["okit": "postgres-pending", "rows": out], options: [.sortedKeys]))
    }

    static func load(_ path: String) throws -> [PostgresPendingRow]? {
        guard let bytes = try AtomicFile.read(path) else { return nil }
        guard let o = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any], let rows = o["rows"] as? [[String: Any]] else {
            throw StorageError(kind: .corrupt, path: path, message: "the pending changes of a postgres model do not read; fix or move the file aside (nothing was stored)")
        }
        // A row that does not read is kept as one naming no table (-1): the check reports it, nothing drops it.
        return rows.enumerated().map { n, r in
            let values = (r["values"] as? [Any]).map { $0.map(decode) }
            let base = (r["base"] as? [Any]).map { $0.map(decode) }
            guard let key = r["key"] as? String, let table = r["table"] as? Int,
                  r["values"] == nil || values != nil, r["base"] == nil || base != nil else {
                return PostgresPendingRow(key: (r["key"] as? String) ?? "", table: -1, values: nil, base: nil, baseVersion: nil, number: n + 1)
            }
            var row = PostgresPendingRow(key: key, table: table, values: values.map { $0.map { $0 ?? .null } },
                                         base: base.map { $0.map { $0 ?? .null } }, baseVersion: (r["baseVersion"] as? NSNumber)?.int64Value)
            row.unreadable = Set(values?.indices.filter { values?[$0] == nil } ?? [])
            row.baseUnreadable = base?.contains { $0 == nil } ?? false
            row.number = n + 1
            return row
        }
    }

    static func encode(_ v: RelationalValue) -> Any {
        switch v {
        case .null: return NSNull()
        case .int64(let i): return ["i": i]
        case .double(let d): return ["d": d.isFinite ? d : 0]
        case .string(let s): return ["s": s]
        case .blob(let b): return ["b": b.base64EncodedString()]
        }
    }

    /// A value as `encode` wrote it; NULL for JSON null; nil for anything else (a value that does not read).
    static func decode(_ any: Any) -> RelationalValue? {
        if any is NSNull { return .null }
        guard let o = any as? [String: Any], o.count == 1 else { return nil }
        if let n = o["i"] as? NSNumber {
            // An int is a number without a fraction (12.5 is not read as 12).
            let i = n.int64Value
            guard n.stringValue == String(i) || Double(i) == n.doubleValue else { return nil }
            return i.relationalValue
        }
        if let n = o["d"] as? NSNumber { return n.doubleValue.relationalValue }
        if let s = o["s"] as? String { return s.relationalValue }
        if let b = o["b"] as? String, let data = Data(base64Encoded: b) { return data.relationalValue }
        return nil
    }
}

extension PostgresStorage {
    var pendingPath: String { PostgresPending.path(files, model: modelName) }

    /// Keeps a store's changes on disk, for the next store or start.
    func savePendingOrThrow(_ plan: RelationalStorePlan) throws {
        var rows: [PostgresPendingRow] = []
        for d in plan.upserts {
            rows.append(PostgresPendingRow(key: d.key, table: d.table, values: d.values, base: base[d.key]?.values, baseVersion: base[d.key]?.version))
        }
        for (key, row) in plan.deletes {
            rows.append(PostgresPendingRow(key: key, table: Int(row.table), values: nil, base: base[key]?.values, baseVersion: base[key]?.version))
        }
        // The server tries again every second while the database is out of reach: the same changes are not
        // written again (a durable write each second for nothing), only changed ones or a file gone meanwhile.
        let bytes = try PostgresPending.encoded(rows)
        if bytes == pendingWritten, FileManager.default.fileExists(atPath: pendingPath) { return }
        try FileManager.default.createDirectory(atPath: (pendingPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try AtomicFile.replace(pendingPath, with: bytes)
        pendingWritten = bytes
    }

    func dropPending() {
        pendingNotKept = nil
        pendingWritten = nil
        if FileManager.default.fileExists(atPath: pendingPath) { try? AtomicFile.remove(pendingPath) }
    }

    /// Stores the changes a previous run left pending, in one transaction, before the model is read. Every value
    /// is checked against the schema first, and each row is written in a savepoint: a value that does not check,
    /// or that the database refuses, is set aside (`okit/refused.jsonl`) and reported with the file, model, entity
    /// and field; the other rows are stored.
    func replayPending(rootType: EntityType, schemaVersion: Int, engine: any ModelHost) throws {
        guard let rows = try PostgresPending.load(pendingPath), !rows.isEmpty else { dropPending(); return }
        var refused: [PostgresRefusal] = []
        let checked = rows.compactMap { checkedPendingRow($0, refused: &refused) }
        // Rows of another version of the app's schema (other columns) are not replayed column by column.
        for r in checked {
            guard let mine = r.values else { continue }
            let t = pgTables[r.table]
            guard mine.count == t.base.written.count, r.base.map({ $0.count == mine.count }) ?? true else {
                throw StorageError(kind: .io, path: pendingPath, message: "the pending changes were made by a version of the app with other fields in \(t.base.type.name); start that version once with the database reachable, or move the file aside (its changes are then lost)")
            }
        }
        var leftOut = Set(refused.filter { $0.field == nil }.map(\.id))
        let written = try link.transaction { () -> (version: Int64, keys: [String]) in
            let version = try writeVersion(type: rootType.name, schemaVersion: schemaVersion)
            var keys: [String] = []
            for r in checked {
                let t = pgTables[r.table]
                if let mine = r.values, let parent = String.fromRelationalValue(mine[t.base.keyColumn == nil ? 0 : 1]), leftOut.contains(parent) {
                    refused.append(PostgresRefusal(model: modelName, type: t.base.type.name, id: r.key, field: nil, value: Self.rowJSON(t, mine),
                                                   reason: "the entity it belongs to (\(parent)) was not stored", source: pendingPath, byDatabase: false))
                    leftOut.insert(r.key)
                    continue
                }
                do {
                    var rowKeys: [String] = []
                    var fieldsOut: [PostgresRefusal] = []
                    try link.savepoint { try replayRow(r, t, version: version, keys: &rowKeys, refused: &fieldsOut) }
                    keys += rowKeys
                    refused += fieldsOut.map { var f = $0; f.source = pendingPath; return f }
                } catch where PostgresFailure(error) == .value {
                    var whole = PostgresRefusal(model: modelName, type: t.base.type.name, id: r.key, field: nil,
                                                value: r.values.map { Self.rowJSON(t, $0) } ?? "null", reason: text(error), source: pendingPath)
                    if let mine = r.values, let b = r.base { whole.changed = Self.changedFields(t, mine, b) }
                    refused.append(whole)
                    if r.base == nil { leftOut.insert(r.key) }
                }
            }
            return (version, keys)
        }
        modelsRow = (rootType.name, schemaVersion)
        announce(version: written.version, keys: written.keys)
        let n = Set(written.keys).count
        if n > 0 {
            onLog?(LogLine("stored \(n) pending change\(n == 1 ? "" : "s") to model \"\(modelName)\" that an earlier run kept in \(pendingPath), merged field by field with what other processes stored meanwhile", warning: false))
        }
        if !refused.isEmpty {
            engine.warn(Self.refusedMessage(refused, kept: setAside(refused)))
        }
        dropPending()
    }

    /// One pending row written: a deletion (it wins; an edit stored meanwhile is reported), a new row, or an edit
    /// merged field by field with what other processes stored since it was read.
    /// A value of it the database refuses: of a row read before, just the refused fields (each changed field tried
    /// alone, as a live store does) keep what the database holds and are appended to `refused`; the row's other
    /// fields are written. `keys` gets the rows written.
    func replayRow(_ r: PostgresPendingRow, _ t: PostgresTable, version: Int64, keys: inout [String],
                   refused: inout [PostgresRefusal]) throws {
        guard let mine = r.values else {
            keys.append(r.key)
            let gone = try link.query(t.deleteSQL + " RETURNING \(t.writtenList), \(PostgresTable.versionColumn)", [.text(modelName), .text(r.key)])
            if let b = r.base, let got = gone.rows.first.map(PostgresLink.values), Int64.fromRelationalValue(got.last ?? .null) != r.baseVersion {
                reportEditsDeleted(t, key: r.key, base: b, theirs: Array(got.prefix(t.base.written.count)))
            }
            return
        }
        let existing = try link.query("SELECT \(t.writtenList), \(PostgresTable.versionColumn) FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(RelationalTable.quoted(t.keyColumnName)) = $2 FOR UPDATE",
                                      [.text(modelName), .text(r.key)]).rows.first.map(PostgresLink.values)
        if let existing, r.base == nil {
            keys.append(r.key)
            try replayAddedTwice(r, t, mine: mine, theirs: Array(existing.prefix(t.base.written.count)), version: version, keys: &keys)
        } else if let existing {
            let theirs = Array(existing.prefix(t.base.written.count))
            var merged = mine
            if let b = r.base, Int64.fromRelationalValue(existing.last ?? .null) != r.baseVersion {
                merged = mergeRow(base: b, theirs: theirs, mine: mine, table: t, key: r.key)
            }
            if try replayUpdate(merged, theirs: theirs, t, key: r.key, version: version, refused: &refused) { keys.append(r.key) }
        } else if let b = r.base {
            // Deleted by another process meanwhile: the deletion wins; the edits are reported.
            keys.append(r.key)
            _ = mergeRow(base: b, theirs: nil, mine: mine, table: t, key: r.key)
        } else {
            keys.append(r.key)
            try link.query(t.insertSQL, t.insertBinds(mine, version: version, model: modelName, key: r.key))
        }
    }

    /// A merged row written over the row the database holds (`theirs`, locked). When the database refuses a value,
    /// each changed field is tried alone; the refused ones keep the database's value and are appended to `refused`,
    /// and the rest is written. False when nothing of this process's was left to write.
    func replayUpdate(_ merged: [RelationalValue], theirs: [RelationalValue], _ t: PostgresTable, key: String, version: Int64,
                      refused: inout [PostgresRefusal]) throws -> Bool {
        let sql = t.updateSQL(checkingVersion: false)
        do {
            try link.savepoint { _ = try link.query(sql, t.updateBinds(merged, version: version, model: modelName, key: key, read: 0)) }
            return true
        } catch where PostgresFailure(error) == .value {
            let bad = try refusedFields(t, key: key, values: merged, read: PostgresRowState(table: 0, values: theirs, version: 0))
            guard !bad.isEmpty else { throw error }
            var values = merged
            for b in bad {
                refused.append(refusal(t, key: key, column: b.column, values: merged, at: b.j, reason: b.reason))
                for k in b.j..<min(b.j + b.column.width, values.count, theirs.count) { values[k] = theirs[k] }
            }
            if values == theirs { return false }
            try link.query(sql, t.updateBinds(values, version: version, model: modelName, key: key, read: 0))
            return true
        }
    }

    /// A row this process added, under a key another process's row took meanwhile: an entity without an id added to
    /// a collection on both sides (its key is its position) goes after the last one; otherwise the other row stays
    /// and this one's values are reported (it was written over).
    func replayAddedTwice(_ r: PostgresPendingRow, _ t: PostgresTable, mine: [RelationalValue], theirs: [RelationalValue], version: Int64,
                          keys: inout [String]) throws {
        if t.base.keyColumn == nil, let parent = String.fromRelationalValue(mine[0]), let field = String.fromRelationalValue(mine[1]),
           tables?.tables.contains(where: { $0.columns.contains { c in
               if case .children = c.mapping { return c.name == field && c.field.type.isCollection } else { return false } } }) == true {
            let next = try link.query("SELECT coalesce(max(\(RelationalTable.positionColumn)), -1) + 1 FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(RelationalTable.parentColumn) = $2 AND \(RelationalTable.fieldColumn) = $3",
                                      [.text(modelName), .text(parent), .text(field)]).rows.first.flatMap { Int64.fromRelationalValue(PostgresLink.values($0)[0]) } ?? 0
            var moved = mine
            moved[2] = next.relationalValue
            let key = RelationalTable.positionalKey(parent: parent, field: field, position: Int(next))
            try link.query(t.insertSQL, t.insertBinds(moved, version: version, model: modelName, key: key))
            keys.append(key)
            return
        }
        for c in t.base.columns {
            guard let j = t.columnOfSlot[c.slot], j < mine.count, j < theirs.count, mine[j] != theirs[j] else { continue }
            report(type: t.base.type.name, id: r.key, field: c.name, base: "null", theirs: ConflictRecord.json(theirs[j], c.mapping),
                   mine: ConflictRecord.json(mine[j], c.mapping))
        }
    }

    /// A row merged field by field: this process's changed fields over the other side's row; a field both changed
    /// keeps the other side's value and is reported. `theirs` nil: the row was deleted (every edit is reported).
    func mergeRow(base: [RelationalValue], theirs: [RelationalValue]?, mine: [RelationalValue], table t: PostgresTable, key: String) -> [RelationalValue] {
        var merged = theirs ?? mine
        for c in t.base.columns {
            guard let j = t.columnOfSlot[c.slot], j < mine.count, j < base.count else { continue }
            let range = j..<min(j + c.width, mine.count)
            if Array(mine[range]) == Array(base[range]) { continue }
            guard let theirs else {
                report(type: t.base.type.name, id: key, field: c.name, base: ConflictRecord.json(base[j], c.mapping), theirs: "null",
                       mine: ConflictRecord.json(mine[j], c.mapping), deletedThere: true)
                continue
            }
            if Array(theirs[range]) == Array(base[range]) || Array(theirs[range]) == Array(mine[range]) {
                for k in range { merged[k] = mine[k] }
            } else {
                report(type: t.base.type.name, id: key, field: c.name, base: ConflictRecord.json(base[j], c.mapping),
                       theirs: ConflictRecord.json(theirs[j], c.mapping), mine: ConflictRecord.json(mine[j], c.mapping))
            }
        }
        return merged
    }
}
