import Foundation
import GRDB
import PostgresNIO

/// A store's rows whose version moved under it: another process wrote or deleted them first.
struct PostgresVersionConflict: Error {
    let keys: [String]
}

extension PostgresStorage {
    /// Stores the model's changed rows (storage.md "Shared models on PostgreSQL"). When another process stored
    /// some of the same rows first, its rows are read, this process's changes are merged onto them field by field
    /// (fields changed on both sides are reported) and the store is tried again.
    public func store(_ model: Model, engine: Engine) throws -> StoreOutcome {
        try files.worded {
            try files.storePayloads(model, engine: engine)
            try files.writeBinaries(model, engine: engine)
        }
        guard model.isFileDirty else { return .unchanged }
        if let v = storedSchemaVersion, v > engine.schemaVersion {
            throw StorageError(kind: .io, path: settings.shown, message: FileStorage.newerMessage(stored: v, app: engine.schemaVersion))
        }
        guard let tables else { return .unchanged }
        for _ in 0..<20 {
            let plan: SQLiteStorePlan
            do {
                plan = try SQLiteStorePlan(model: model, tables: tables, stored: stored)
            } catch let e as SQLiteDuplicateId {
                throw StorageError(kind: .io, path: settings.shown, message: "\(e.description) (nothing was written)")
            }
            if plan.upserts.isEmpty && plan.deletes.isEmpty {
                model.clearFileDirty()
                return .unchanged
            }
            if offline && !mayRetry {
                savePending(plan)
                throw StorageError(kind: .io, path: settings.shown, message: "the database is offline; the changes stay pending (\(pendingPath)) and are stored when it is back")
            }
            do {
                let version = try write(plan, model: model, engine: engine)
                offline = false
                plan.apply(to: &stored)
                for d in plan.upserts { base[d.key] = PostgresRowState(table: d.table, values: d.values, version: version) }
                for (key, _) in plan.deletes { base[key] = nil }
                model.clearFileDirty()
                dropPending()
                try files.worded { try files.deleteRemovedFiles(model, engine: engine) }
                return .rows(written: plan.upserts.count, deleted: plan.deletes.count)
            } catch let c as PostgresVersionConflict {
                try follow(model, engine: engine, keys: c.keys)
            } catch let e as StorageError {
                throw e
            } catch {
                if Self.isConnectionError(error) {
                    offline = true
                    link.close()
                    savePending(plan)
                    throw StorageError(kind: .io, path: settings.shown, message: "the database is offline (\(Self.text(error))); the changes stay pending (\(pendingPath)) and are stored when it is back")
                }
                throw StorageError(kind: .io, path: settings.shown, message: "cannot store model \"\(model.name)\": \(Self.text(error)); nothing was written")
            }
        }
        throw StorageError(kind: .io, path: settings.shown, message: "model \"\(model.name)\" kept changing under 20 stores in a row; the changes stay in memory and are stored next time")
    }

    /// The model's next version, its `okit_models` row written (made when missing) and locked until the
    /// transaction ends: stores of one model are serialized, in one statement.
    func bumpVersion(type: String, schemaVersion: Int) throws -> Int64 {
        let r = try link.query("""
            INSERT INTO \(PostgresTable.modelsTable) AS m (model, type, schema_version, version) VALUES ($1, $2, $3, 1)
            ON CONFLICT (model) DO UPDATE SET version = m.version + 1, type = excluded.type, schema_version = excluded.schema_version
            RETURNING version
            """, [.text(modelName), .text(type), .int(Int64(schemaVersion))])
        return r.rows.first.flatMap { Int64.fromDatabaseValue(PostgresLink.values($0)[0]) } ?? 1
    }

    /// One transaction: every changed row checked against the version read, the model's version bumped, the
    /// change announced. Returns the new version.
    func write(_ plan: SQLiteStorePlan, model: Model, engine: Engine, replacing: Bool = false) throws -> Int64 {
        try link.open()
        // Rows this store deletes that another process edited since this one read them (reported once committed).
        var editedThenDeleted: [(key: String, table: PostgresTable, base: [DatabaseValue], theirs: [DatabaseValue])] = []
        // Rows another process added under rows this store deletes (deleted with them, reported once committed).
        var addedThenDeleted: [(parent: String, table: PostgresTable, field: String, key: String)] = []
        let version = try link.transaction {
            if replacing {
                for t in pgTables { try link.query("DELETE FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1", [.text(modelName)]) }
            }
            let version = try bumpVersion(type: model.rootType.name, schemaVersion: engine.schemaVersion)
            let old = version - 1
            // A new row under a row this process read: that row must still be there (another process may have
            // deleted it; the new row would hang under nothing, read by nobody). Locked until the commit.
            let upsertKeys = Set(plan.upserts.map(\.key))
            var parents: [Int: Set<String>] = [:]
            for d in plan.upserts where base[d.key]?.table != d.table {
                guard let p = d.parent, !upsertKeys.contains(p), let ps = stored[p] else { continue }
                parents[Int(ps.table), default: []].insert(p)
            }
            var gone: [String] = []
            for (ti, keys) in parents {
                let t = pgTables[ti]
                let found = try link.query("SELECT \(SQLiteTable.quoted(t.keyColumnName))::text FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(SQLiteTable.quoted(t.keyColumnName)) = ANY($2) FOR KEY SHARE",
                                           [.text(modelName), .texts(Array(keys))]).rows.compactMap { String.fromDatabaseValue(PostgresLink.values($0)[0]) }
                gone += keys.subtracting(found)
            }
            if !gone.isEmpty { throw PostgresVersionConflict(keys: gone) }
            var conflicts: [String] = []
            var keys: [String] = []
            for d in plan.upserts {
                let t = pgTables[d.table]
                keys.append(d.key)
                let r: PostgresQueryResult
                if let b = base[d.key], b.table == d.table {
                    r = try link.query(t.updateSQL, t.updateBinds(d.values, version: version, model: modelName, key: d.key, read: b.version))
                } else {
                    r = try link.query(t.insertSQL, t.insertBinds(d.values, version: version, model: modelName, key: d.key))
                }
                if (r.metadata.rows ?? 0) == 0 { conflicts.append(d.key) }
            }
            if !conflicts.isEmpty { throw PostgresVersionConflict(keys: conflicts) }
            for (key, row) in plan.deletes {
                keys.append(key)
                let t = pgTables[Int(row.table)]
                // Deletion wins over another process's edit (storage.md): the row goes whatever its version; an
                // edit stored since this process read the row is reported (it was lost silently).
                let r = try link.query(t.deleteSQL + " RETURNING \(t.writtenList), \(PostgresTable.versionColumn)", [.text(modelName), .text(key)])
                if !replacing, let b = base[key], b.table == Int(row.table), let got = r.rows.first.map(PostgresLink.values),
                   Int64.fromDatabaseValue(got.last ?? .null) != b.version {
                    editedThenDeleted.append((key, t, b.values, Array(got.prefix(t.base.written.count))))
                }
            }
            // Rows still hanging under the deleted ones: added by another process after this one read the model
            // (they would hang under nothing, read by nobody). The deletion wins; each is reported.
            let deletedKeys = Set(plan.deletes.map(\.key))
            var under: [Int: [String]] = [:]
            for (key, row) in plan.deletes where !replacing { under[Int(row.table), default: []].append(key) }
            while !under.isEmpty {
                var next: [Int: [String]] = [:]
                for (ti, parents) in under {
                    var childTables: Set<Int> = []
                    for c in pgTables[ti].base.columns { if case .children(let ct) = c.mapping { childTables.insert(ct) } }
                    for ct in childTables.sorted() {
                        let t = pgTables[ct]
                        let r = try link.query("DELETE FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1 AND \(SQLiteTable.parentColumn) = ANY($2) RETURNING \(SQLiteTable.quoted(t.keyColumnName))::text, \(SQLiteTable.parentColumn), \(SQLiteTable.fieldColumn)",
                                               [.text(modelName), .texts(parents)])
                        for row in r.rows {
                            let v = PostgresLink.values(row)
                            guard let k = String.fromDatabaseValue(v[0]) else { continue }
                            keys.append(k)
                            next[ct, default: []].append(k)
                            if let p = String.fromDatabaseValue(v[1]), deletedKeys.contains(p) {
                                addedThenDeleted.append((p, pgTables[ti], String.fromDatabaseValue(v[2]) ?? "", k))
                            }
                        }
                    }
                }
                under = next
            }
            let note = PostgresAnnouncement(model: modelName, version: version, from: processToken, keys: replacing ? nil : keys)
            try link.query("SELECT pg_notify($1, $2)", [.text(PostgresAnnouncement.channel), .text(note.payload())])
            if old == knownVersion { knownVersion = version }
            return version
        }
        for d in addedThenDeleted {
            report(type: d.table.base.type.name, id: d.parent, field: d.field, base: "null", theirs: ConflictRecord.json(d.key.databaseValue, .string),
                   mine: "null", deleted: true)
        }
        for d in editedThenDeleted { reportEditsDeleted(d.table, key: d.key, base: d.base, theirs: d.theirs) }
        return version
    }

    /// Another process's edit of a row this process deleted (the deletion won): each field it changed, reported.
    func reportEditsDeleted(_ t: PostgresTable, key: String, base: [DatabaseValue], theirs: [DatabaseValue]) {
        for c in t.base.columns {
            guard let j = t.columnOfSlot[c.slot], j < base.count, j < theirs.count, base[j] != theirs[j] else { continue }
            report(type: t.base.type.name, id: key, field: c.name, base: ConflictRecord.json(base[j], c.mapping),
                   theirs: ConflictRecord.json(theirs[j], c.mapping), mine: "null", deleted: true)
        }
    }
}
