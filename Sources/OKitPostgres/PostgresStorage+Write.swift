import Foundation
import OKitEngine
import PostgresNIO

/// A store's rows whose version moved under it: another process wrote or deleted them first.
struct PostgresVersionConflict: Error {
    let keys: [String]
}

/// What one store's transaction did besides writing: the keys it announced, what it must report once committed,
/// and (when it isolates refusals) the rows and fields it left out.
struct PostgresWriteState {
    var keys: [String] = []
    /// The tables of those rows (followers read only these).
    var tables: Set<String> = []
    /// The rows updated in place, as committed (announced with their values: followers need not read them).
    var rows: [PostgresAnnouncedRow] = []
    /// Rows this store deleted that another process edited since this one read them (reported once committed).
    var editedThenDeleted: [(key: String, table: PostgresTable, base: [RelationalValue], theirs: [RelationalValue])] = []
    /// Rows another process added under rows this store deleted (deleted with them, reported once committed).
    var addedThenDeleted: [(parent: String, table: PostgresTable, field: String, key: String)] = []
    /// Values the database (or the text rule) refused: set aside, reported, never written.
    var refused: [PostgresRefusal] = []
    /// New rows left out: the rows under them are left out with them (they would hang under nothing).
    var leftOut: Set<String> = []
}

extension PostgresStorage {
    /// The version this transaction writes its rows at: its own transaction id (`pg_current_xact_id`), unique
    /// in the database's life and taken without a lock, so stores of different rows by different processes do not
    /// wait for each other (storage.md "Shared models on PostgreSQL"). The model's `okit_models` row is written
    /// only when it is missing or names another type or schema version (then it is locked until the commit), and
    /// never back to an older schema version. The schema version it holds is read in the same round trip: a newer
    /// app's (another process migrated the model) stops the store (`PostgresNewerSchema`), which then writes nothing.
    func writeVersion(type: String, schemaVersion: Int) throws -> Int64 {
        if modelsRow?.type != type || modelsRow?.schemaVersion != schemaVersion {
            try link.query("""
                INSERT INTO \(PostgresTable.modelsTable) AS m (model, type, schema_version, version) VALUES ($1, $2, $3, 1)
                ON CONFLICT (model) DO UPDATE SET type = excluded.type, schema_version = excluded.schema_version
                WHERE m.schema_version IS NULL OR m.schema_version <= excluded.schema_version
                """, [.text(modelName), .text(type), .int(Int64(schemaVersion))])
        }
        let r = try link.query("SELECT pg_current_xact_id()::text::bigint, (SELECT schema_version FROM \(PostgresTable.modelsTable) WHERE model = $1)",
                               [.text(modelName)])
        let values = r.rows.first.map(PostgresLink.values) ?? []
        if let stored = values.dropFirst().first.flatMap(Int64.fromRelationalValue), stored > schemaVersion {
            throw PostgresNewerSchema(version: Int(stored))
        }
        return values.first.flatMap(Int64.fromRelationalValue) ?? 1
    }

    /// The oldest transaction id still running in this transaction's snapshot: every row written by a
    /// transaction this snapshot does not see has a version at least this (where a catch-up starts).
    func snapshotXmin() throws -> Int64 {
        let r = try link.query("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
        return r.rows.first.flatMap { Int64.fromRelationalValue(PostgresLink.values($0)[0]) } ?? 0
    }

    /// Announces a committed store's rows (`NOTIFY okit_changes`) in a transaction of its own: a NOTIFY inside the
    /// store's transaction holds PostgreSQL's notification lock through that commit's flush to disk, which made
    /// the stores of every process wait for each other's. An announcement that cannot be sent (the connection
    /// broke after the commit) is kept and sent before this process's next store or follow; a process that dies
    /// in between leaves rows the others read at their next catch-up (and a store of the same row meets their
    /// version).
    /// The rows the store updated in place go with it, with their committed values, when this process knows the
    /// announcement key (`PostgresAnnouncement.payload`).
    func announce(version: Int64, keys: [String]?, tables: Set<String>? = nil, rows: [PostgresAnnouncedRow] = [], schema: Int? = nil) {
        unannounced.append(PostgresAnnouncement(model: modelName, version: version, from: processToken, keys: keys, tables: tables?.sorted(),
                                                schema: schema, rows: keys == nil ? [] : rows))
        sendUnannounced()
    }

    /// Sends the announcements not sent yet, in order; stops at the first that fails (kept for the next try).
    func sendUnannounced() {
        while let note = unannounced.first {
            let payload = note.payload(signedWith: announcementKey)
            do { try link.query("SELECT pg_notify($1, $2)", [.text(PostgresAnnouncement.channel), .text(payload)]) } catch { return }
            unannounced.removeFirst()
        }
    }

    /// One transaction: every changed row checked against the version read and written at this transaction's
    /// version, then the change announced. Returns the new version and what was refused. `isolating`: each row is
    /// written in a savepoint, and a value the database refuses (`PostgresFailure.value`) leaves out that field (of
    /// a row read before) or that row, not the store; without it, such a refusal rolls the whole transaction back.
    /// `alone`: the common store may be one statement (`writeAlone`); false after a version conflict, so that the
    /// transaction's check of `okit_models` runs (the other process may have been a newer app's migration).
    func write(_ plan: RelationalStorePlan, model: Model, engine: any ModelHost, replacing: Bool = false,
               isolating: Bool = false, alone: Bool = true) throws -> (version: Int64, refused: [PostgresRefusal]) {
        try link.open()
        sendUnannounced()
        let migrated = modelsRow.map { $0.schemaVersion < engine.schemaVersion } ?? false
        if alone, !replacing, !isolating, let alone = try writeAlone(plan, model: model, engine: engine) {
            announce(version: alone.version, keys: [alone.row.key], tables: [alone.row.table], rows: [alone.row])
            return (alone.version, [])
        }
        var state = PostgresWriteState()
        let version = try link.transaction {
            if replacing {
                for t in pgTables { try link.query("DELETE FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1", [.text(modelName)]) }
            }
            let version = try writeVersion(type: model.rootType.name, schemaVersion: engine.schemaVersion)
            try checkParents(plan)
            try writeUpserts(plan, version: version, isolating: isolating, state: &state)
            let deleted = try writeDeletes(plan, replacing: replacing, isolating: isolating, state: &state)
            if !replacing { try deleteOrphans(under: deleted, state: &state) }
            try beforeCommit?()
            return version
        }
        modelsRow = (model.rootType.name, engine.schemaVersion)
        announce(version: version, keys: replacing ? nil : state.keys, tables: state.tables, rows: state.rows,
                 schema: migrated ? engine.schemaVersion : nil)
        for d in state.addedThenDeleted {
            report(type: d.table.base.type.name, id: d.parent, field: d.field, base: "null", theirs: ConflictRecord.json(d.key.relationalValue, .string),
                   mine: "null", deleted: true)
        }
        for d in state.editedThenDeleted { reportEditsDeleted(d.table, key: d.key, base: d.base, theirs: d.theirs) }
        return (version, state.refused)
    }

    /// The common store, one edited row and nothing else, as one statement that is its own transaction (no BEGIN,
    /// no COMMIT: a round trip instead of four), at the transaction's id as its version, checked against the
    /// version read like every update; it returns the row as committed, which the announcement carries. Nil when the
    /// plan is not that (a new row, a deletion, several rows).
    func writeAlone(_ plan: RelationalStorePlan, model: Model, engine: any ModelHost) throws -> (version: Int64, row: PostgresAnnouncedRow)? {
        guard plan.upserts.count == 1, plan.deletes.isEmpty, beforeCommit == nil,
              modelsRow?.type == model.rootType.name, modelsRow?.schemaVersion == engine.schemaVersion else { return nil }
        let d = plan.upserts[0]
        guard let read = base[d.key], read.table == d.table else { return nil }
        let t = pgTables[d.table]
        let r = try link.query(t.updateOwnVersionSQL,
                               t.updateBinds(d.values, version: 0, model: modelName, key: d.key, read: read.version))
        guard let row = r.rows.first.map(PostgresLink.values), let version = Int64.fromRelationalValue(row[0]) else {
            throw PostgresVersionConflict(keys: [d.key])
        }
        return (version, PostgresAnnouncedRow(table: t.name, key: d.key, read: read.version, columns: t.columnsFingerprint, values: Array(row.dropFirst())))
    }

    /// A new row under a row this process read: that row must still be there (another process may have deleted
    /// it; the new row would hang under nothing, read by nobody). Locked until the commit.
    func checkParents(_ plan: RelationalStorePlan) throws {
        let upsertKeys = Set(plan.upserts.map(\.key))
        var parents: [Int: Set<String>] = [:]
        for d in plan.upserts where base[d.key]?.table != d.table {
            guard let p = d.parent, !upsertKeys.contains(p), let ps = stored[p] else { continue }
            parents[Int(ps.table), default: []].insert(p)
        }
        var gone: [String] = []
        for (ti, keys) in parents {
            let t = pgTables[ti]
            let found = try link.query("SELECT \(RelationalTable.quoted(t.keyColumnName))::text FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(RelationalTable.quoted(t.keyColumnName)) = ANY($2) FOR KEY SHARE",
                                       [.text(modelName), .texts(Array(keys))]).rows.compactMap { String.fromRelationalValue(PostgresLink.values($0)[0]) }
            gone += keys.subtracting(found)
        }
        if !gone.isEmpty { throw PostgresVersionConflict(keys: gone) }
    }

    /// Inserts and updates (an update checked against the version read; a row whose version moved is a conflict).
    func writeUpserts(_ plan: RelationalStorePlan, version: Int64, isolating: Bool, state: inout PostgresWriteState) throws {
        var conflicts: [String] = []
        for d in plan.upserts {
            let t = pgTables[d.table]
            let read = base[d.key].flatMap { $0.table == d.table ? $0 : nil }
            if let p = d.parent, state.leftOut.contains(p) {
                state.refused.append(refusal(t, key: d.key, values: d.values, reason: "the entity it belongs to (\(p)) was not stored"))
                state.leftOut.insert(d.key)
                continue
            }
            let r: PostgresQueryResult
            if isolating {
                guard let written = try isolatedUpsert(d, t, read: read, version: version, state: &state) else { continue }
                r = written
            } else {
                r = try upsert(d.values, t, key: d.key, read: read, version: version)
            }
            state.keys.append(d.key)
            state.tables.insert(t.name)
            if (r.metadata.rows ?? 0) == 0 { conflicts.append(d.key) }
            if let read, let row = r.rows.first.map(PostgresLink.values), row.count == t.base.written.count {
                state.rows.append(PostgresAnnouncedRow(table: t.name, key: d.key, read: read.version, columns: t.columnsFingerprint, values: row))
            }
        }
        if !conflicts.isEmpty { throw PostgresVersionConflict(keys: conflicts) }
    }

    /// Deletions. Deletion wins over another process's edit (storage.md): the row goes whatever its version; an
    /// edit stored since this process read the row is reported (it was lost silently). Returns the keys deleted.
    func writeDeletes(_ plan: RelationalStorePlan, replacing: Bool, isolating: Bool, state: inout PostgresWriteState) throws -> [(key: String, table: Int)] {
        var deleted: [(key: String, table: Int)] = []
        for (key, row) in plan.deletes {
            let t = pgTables[Int(row.table)]
            let sql = t.deleteSQL + " RETURNING \(t.writtenList), \(PostgresTable.versionColumn)"
            let r: PostgresQueryResult
            if isolating {
                do { r = try link.savepoint { try link.query(sql, [.text(modelName), .text(key)]) } } catch where PostgresFailure(error) == .value {
                    state.refused.append(refusal(t, key: key, values: nil, reason: text(error)))
                    continue
                }
            } else {
                r = try link.query(sql, [.text(modelName), .text(key)])
            }
            state.keys.append(key)
            state.tables.insert(t.name)
            deleted.append((key, Int(row.table)))
            if !replacing, let b = base[key], b.table == Int(row.table), let got = r.rows.first.map(PostgresLink.values),
               Int64.fromRelationalValue(got.last ?? .null) != b.version {
                state.editedThenDeleted.append((key, t, b.values, Array(got.prefix(t.base.written.count))))
            }
        }
        return deleted
    }

    /// Rows still hanging under the deleted ones: added by another process after this one read the model (they
    /// would hang under nothing, read by nobody). The deletion wins; each is reported.
    func deleteOrphans(under deleted: [(key: String, table: Int)], state: inout PostgresWriteState) throws {
        let deletedKeys = Set(deleted.map(\.key))
        var under: [Int: [String]] = [:]
        for (key, ti) in deleted { under[ti, default: []].append(key) }
        while !under.isEmpty {
            var next: [Int: [String]] = [:]
            for (ti, parents) in under {
                var childTables: Set<Int> = []
                for c in pgTables[ti].base.columns { if case .children(let ct) = c.mapping { childTables.insert(ct) } }
                for ct in childTables.sorted() {
                    let t = pgTables[ct]
                    let r = try link.query("DELETE FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(RelationalTable.parentColumn) = ANY($2) RETURNING \(RelationalTable.quoted(t.keyColumnName))::text, \(RelationalTable.parentColumn), \(RelationalTable.fieldColumn)",
                                           [.text(modelName), .texts(parents)])
                    for row in r.rows {
                        let v = PostgresLink.values(row)
                        guard let k = String.fromRelationalValue(v[0]) else { continue }
                        state.keys.append(k)
                        state.tables.insert(t.name)
                        next[ct, default: []].append(k)
                        if let p = String.fromRelationalValue(v[1]), deletedKeys.contains(p) {
                            state.addedThenDeleted.append((p, pgTables[ti], String.fromRelationalValue(v[2]) ?? "", k))
                        }
                    }
                }
            }
            under = next
        }
    }

    /// Another process's edit of a row this process deleted (the deletion won): each field it changed, reported.
    func reportEditsDeleted(_ t: PostgresTable, key: String, base: [RelationalValue], theirs: [RelationalValue]) {
        for c in t.base.columns {
            guard let j = t.columnOfSlot[c.slot], j < base.count, j < theirs.count, base[j] != theirs[j] else { continue }
            report(type: t.base.type.name, id: key, field: c.name, base: ConflictRecord.json(base[j], c.mapping),
                   theirs: ConflictRecord.json(theirs[j], c.mapping), mine: "null", deleted: true)
        }
    }
}
