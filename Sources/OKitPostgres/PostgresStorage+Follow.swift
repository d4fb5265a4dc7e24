import Foundation
import OKitEngine

/// A row another process stored, as fetched.
struct PostgresFetchedRow {
    let table: Int
    /// The written columns, then the unknown ones (what the reader reads).
    let columns: [RelationalValue]
    let written: [RelationalValue]
    let version: Int64
}

extension PostgresStorage {
    /// Applies what other processes announced since the last call (storage.md: "between commands it reads just
    /// the changed rows and applies them as writes to its live entities"), every announcement that arrived at
    /// once. After a lost connection it catches up with every row written since it last read them all. Returns
    /// true when something was applied; a database out of reach leaves the model as it is and marks the storage
    /// offline.
    @discardableResult
    public func followAnnouncements(_ model: Model, engine: any ModelHost) throws -> Bool {
        // A model with nothing of its own to store is, once the other processes' rows are applied, what the
        // database holds: the writes that applied them are not stored back (a store would re-derive every row).
        let wasDirty = model.isFileDirty
        defer { if !wasDirty { model.clearFileDirty() } }
        if offline && !mayRetry { return false }
        do {
            if inbox.lost || !listener.isListening || offline {
                try link.open()
                try listener.start()
                cameBack(storing: false)
                _ = inbox.take()
                try follow(model, engine: engine, keys: nil)
                return true
            }
            // A store another process committed before this command was sent has been announced by then: one round
            // trip on the listening connection brings its announcement here (PostgreSQL sends a listener what was
            // committed before it answers a statement), so the next answer shows it. Nothing is locked or read.
            if !unannounced.isEmpty { sendUnannounced() }
            try listener.sync()
            if let unreadable = inbox.takeUnreadable() {
                // Which rows it stands for is unknown: every row written since the last catch-up is read instead.
                sayUnreadable(unreadable, engine: engine)
                _ = inbox.take()
                try follow(model, engine: engine, keys: nil)
                return true
            }
            let others = inbox.take().filter { $0.model == modelName && $0.from != processToken }
            if others.isEmpty { return false }
            noticeSchema(others.compactMap(\.schema).max(), engine: engine)
            if others.contains(where: { $0.keys == nil }) {
                try follow(model, engine: engine, keys: nil)
                return true
            }
            // Rows announced with their values are applied as announced; only the others are read, and only from
            // the tables the stores wrote (all of them when an announcement does not say).
            let announced = announcedRows(others)
            var keys: [String] = []
            var seen: Set<String> = []
            for a in others { for k in a.keys ?? [] where announced[k] == nil && seen.insert(k).inserted { keys.append(k) } }
            let tables = others.contains { $0.tables == nil } ? nil : Set(others.flatMap { $0.tables ?? [] })
            try follow(model, engine: engine, keys: keys, tables: tables, announced: announced)
            return true
        } catch let e as StorageError {
            throw e
        } catch {
            if Self.isConnectionError(error) { wentOffline(error); return false }
            throw StorageError(kind: .io, path: settings.shown, message: "cannot read other processes' changes to model \"\(modelName)\": \(text(error))")
        }
    }

    /// Reads the rows with these keys (nil: every row written since this process last read them all, by version,
    /// and every key, to find deleted rows) in `only` these tables (nil: every table of the model) and applies them,
    /// with the `announced` rows (`announcedRows`: applied as announced, not read), to the live model.
    func follow(_ model: Model, engine: any ModelHost, keys: [String]?, tables only: Set<String>? = nil,
                announced: [String: PostgresFetchedRow] = [:]) throws {
        guard let tables else { return }
        var read = (fetched: [String: PostgresFetchedRow](), present: Set<String>(), xmin: caughtUpXmin)
        if keys.map({ !$0.isEmpty }) ?? true { read = try readRows(keys: keys, only: only) }
        var fetched = announced
        for (k, f) in read.fetched { fetched[k] = f }
        let present = read.present
        let xmin = read.xmin
        let gone: [String] = keys.map { $0.filter { !present.contains($0) && stored[$0] != nil } }
            ?? stored.keys.map(\.text).filter { !present.contains($0) }
        var apply = PostgresApply(storage: self, model: model, engine: engine, tables: tables)
        try apply.run(fetched: fetched, gone: gone)
        if apply.needsReload {
            // A change this process cannot place row by row (a row moved to another parent, rows without ids):
            // the model is read again whole. What this process changed and has not stored goes to the database
            // first, as pending changes the load merges field by field (both-sides fields reported): a reload
            // alone dropped them without a word (a store that met another process's edit of an entity without
            // an id lost every change it carried).
            let plan = try RelationalStorePlan(model: model, tables: tables, stored: stored)
            if !plan.upserts.isEmpty || !plan.deletes.isEmpty {
                do { try savePendingOrThrow(plan) } catch {
                    throw StorageError(kind: .io, path: settings.shown, message: "cannot apply other processes' changes to model \"\(modelName)\" without dropping this process's unstored changes: \(pendingPath) cannot be written (\(error)); free space or fix the data folder")
                }
            }
            try engine.reload(model)
        }
        // A catch-up starts from this snapshot only when every row was read in it (rows read by key say nothing of
        // the other rows written meanwhile, whose announcements may still be on their way).
        if keys == nil {
            caughtUpXmin = xmin
            noticeSchema(try readSchemaVersion(), engine: engine)
        }
    }

    /// Reads the rows with these keys (nil: every row written since this process last read them all, and every
    /// key) in `only` these tables. Rows of one table are read by one statement (its own snapshot), of several in
    /// one `REPEATABLE READ` transaction. Returns the rows, the keys present, and (reading all) the snapshot's xmin.
    func readRows(keys: [String]?, only: Set<String>?) throws -> (fetched: [String: PostgresFetchedRow], present: Set<String>, xmin: Int64) {
        var fetched: [String: PostgresFetchedRow] = [:]
        var present: Set<String> = []
        var xmin = caughtUpXmin
        let read = pgTables.enumerated().filter { keys == nil || only?.contains($0.element.name) ?? true }
        func inSnapshot(_ body: () throws -> Void) throws {
            if keys != nil && read.count == 1 { try body() } else { try link.transaction("REPEATABLE READ", body) }
        }
        try inSnapshot {
            for (ti, t) in read {
                let existing = ti < existingColumns.count ? existingColumns[ti] : try PostgresTable.columnNames(link, table: t.name)
                if existing.isEmpty { continue }
                let unknown = t.unknownColumns(existing: existing)
                let select = "SELECT \(t.selectList(existing: Set(existing), unknown: unknown)) FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1"
                let rows: [PostgresRowValues]
                followReads += 1
                if let keys {
                    rows = try link.query(select + " AND \(RelationalTable.quoted(t.keyColumnName)) = ANY($2)", [.text(modelName), .texts(keys)]).rows.map(PostgresLink.values)
                } else {
                    rows = try link.query(select + " AND \(PostgresTable.versionColumn) >= $2", [.text(modelName), .int(caughtUpXmin)]).rows.map(PostgresLink.values)
                    followReads += 1
                    for r in try link.query("SELECT \(RelationalTable.quoted(t.keyColumnName))::text FROM \(t.q) WHERE \(PostgresTable.modelColumn) = $1", [.text(modelName)]).rows {
                        if let k = String.fromRelationalValue(PostgresLink.values(r)[0]) { present.insert(k) }
                    }
                }
                for values in rows {
                    let written = Array(values.prefix(t.base.written.count))
                    guard let key = Self.key(of: written, table: t.base) else { continue }
                    let version = Int64.fromRelationalValue(values.last ?? .null) ?? 0
                    fetched[key] = PostgresFetchedRow(table: ti, columns: Array(values.dropLast()), written: written, version: version)
                    present.insert(key)
                }
            }
            if keys == nil { xmin = try snapshotXmin() }
        }
        return (fetched, present, xmin)
    }

    /// The key of a row from its written columns.
    static func key(of written: [RelationalValue], table: RelationalTable) -> String? {
        if table.keyColumn != nil {
            switch written.first {
            case .string(let s)?: return s
            case .int64(let i)?: return String(i)
            default: return nil
            }
        }
        return RelationalTable.positionalKey(parent: String.fromRelationalValue(written[0]), field: String.fromRelationalValue(written[1]),
                                         position: Int64.fromRelationalValue(written[2]).map(Int.init))
    }

    /// Reports a field that changed on both sides: a warning, a line in `okit/conflicts.jsonl`, `app:conflicts()`.
    /// `deleted`: this process deleted the entity after another stored an edit of it (the edit is what was lost);
    /// `deletedThere`: another process deleted it before this one stored its edit (this process's value was lost).
    func report(type: String, id: String, field: String, base: String, theirs: String, mine: String, deleted: Bool = false,
                deletedThere: Bool = false) {
        let record = ConflictRecord(time: Date(), model: modelName, type: type, id: id, field: field, base: base, theirs: theirs,
                                    mine: mine, deletedHere: deleted, deletedThere: deletedThere)
        onConflict?(record)
    }

    /// Warns, once per process and model, of notifications on okit's channel that did not read as announcements.
    func sayUnreadable(_ u: (count: Int, sample: String), engine: any ModelHost) {
        guard !saidUnreadable else { return }
        saidUnreadable = true
        let more = u.count > 1 ? " and \(u.count - 1) more" : ""
        engine.warn("\(settings.shown): a notification on channel \(PostgresAnnouncement.channel) is not an okit announcement (\(u.sample.debugDescription)\(more)); model \"\(modelName)\" read every row changed since it last caught up instead (said once). Another program's NOTIFY belongs on a channel of its own; an okit newer than this one announces in a form this one cannot read: run one okit version per database")
    }
}

typealias PostgresRowValues = [RelationalValue]
