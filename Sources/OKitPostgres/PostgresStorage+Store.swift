import Foundation
import OKitEngine
import PostgresNIO

extension PostgresStorage {
    /// Stores the model's changed rows (storage.md "Shared models on PostgreSQL"). When another process stored
    /// some of the same rows first, its rows are read, this process's changes are merged onto them field by field
    /// (fields changed on both sides are reported) and the store is tried again.
    public func store(_ model: Model, engine: any ModelHost) throws -> StoreOutcome {
        try files.worded {
            try files.storePayloads(model, engine: engine)
            try files.writeBinaries(model, engine: engine)
        }
        guard model.isFileDirty else { return .unchanged }
        guard let tables else { return .unchanged }
        // Set once the database refused a value: each row is then written in a savepoint, and what it refuses is
        // set aside instead of blocking every other change (a text with a NUL sets it from the start).
        var isolating = false
        var alone = true
        for _ in 0..<20 {
            let plan: RelationalStorePlan
            do {
                plan = try RelationalStorePlan(model: model, tables: tables, stored: stored)
            } catch let e as RelationalDuplicateId {
                throw StorageError(kind: .io, path: settings.shown, message: "\(e.description) (nothing was written)")
            }
            if plan.upserts.isEmpty && plan.deletes.isEmpty {
                model.clearFileDirty()
                return .unchanged
            }
            if let v = storedSchemaVersion, v > engine.schemaVersion {
                throw StorageError(kind: .io, path: settings.shown, message: newerSchemaMessage(stored: v, app: engine.schemaVersion, plan: plan))
            }
            if offline && !mayRetry {
                throw StorageError(kind: .io, path: settings.shown, message: "the database is offline; \(keepPending(plan)) and are stored when it is back")
            }
            if Self.holdsNUL(plan) {
                guard isolatesRefusals else { throw StorageError(kind: .io, path: settings.shown, message: nulMessage(plan) + "; nothing was written") }
                isolating = true
            }
            do {
                let (version, refused) = try write(plan, model: model, engine: engine, isolating: isolating, alone: alone)
                cameBack(refused: refused.count)
                let readBefore = refused.isEmpty ? [] : Set(plan.upserts.filter { base[$0.key]?.table == $0.table }.map(\.key))
                plan.apply(to: &stored)
                for d in plan.upserts { base[d.key] = PostgresRowState(table: d.table, values: d.values, version: version) }
                for (key, _) in plan.deletes { base[key] = nil }
                model.clearFileDirty()
                dropPending()
                try files.worded { try files.deleteRemovedFiles(model, engine: engine) }
                if !refused.isEmpty { try settle(refused, plan: plan, readBefore: readBefore, model: model, engine: engine) }
                return .rows(written: plan.upserts.count, deleted: plan.deletes.count)
            } catch let c as PostgresVersionConflict {
                alone = false
                try follow(model, engine: engine, keys: c.keys)
            } catch let newer as PostgresNewerSchema {
                noticeSchema(newer.version, engine: engine, warning: false)
            } catch let e as StorageError {
                throw e
            } catch {
                switch PostgresFailure(error) {
                case .unreachable, .tls, .login:
                    wentOffline(error)
                    throw StorageError(kind: .io, path: settings.shown, message: "the database is offline (\(text(error))); \(keepPending(plan)) and are stored when it is back")
                case .value where !isolating && isolatesRefusals:
                    isolating = true        // tried again, row by row: the refused values are set aside
                case .value, .refused:
                    guard isolatesRefusals else {       // a seed or a conversion: whole or not at all
                        throw StorageError(kind: .io, path: settings.shown, message: "cannot store model \"\(model.name)\": \(text(error)); nothing was written")
                    }
                    throw StorageError(kind: .io, path: settings.shown, message: "the database refused the store of model \"\(model.name)\": \(text(error)); \(keepPending(plan)) and are stored by the next store or start that the database takes")
                }
            }
        }
        throw StorageError(kind: .io, path: settings.shown, message: "model \"\(model.name)\" kept changing under 20 stores in a row; the changes stay in memory and are stored next time")
    }

    /// The first text with a NUL of a plan, named (`model "default", Book dune, field name: …`).
    func nulMessage(_ plan: RelationalStorePlan) -> String {
        for d in plan.upserts {
            let t = pgTables[d.table]
            guard let n = Self.nulColumns(d.values, t).first else { continue }
            let field = n.column.map { ", field " + $0.name } ?? ", column " + t.base.written[n.j]
            return "model \"\(modelName)\", \(t.base.type.name) \(d.key)\(field): \(Self.nulReason)"
        }
        return Self.nulReason
    }

    /// Keeps a store's changes on disk (`pending/<model>.postgres.json`) and says where, or that they could not be
    /// kept there (then they are in memory only: the message says so, `changesInMemoryOnly` is true until a store or
    /// a write of the file works, and the log says it once, with the path and the OS's error).
    func keepPending(_ plan: RelationalStorePlan) -> String {
        do {
            try savePendingOrThrow(plan)
            pendingKeptAgain()
            return "the changes stay pending (\(pendingPath))"
        } catch {
            let reason = "\(pendingPath) cannot be written (\(Self.fileError(error)))"
            pendingNotKept(reason)
            return "the changes cannot be kept on disk either (\(reason)): they are in memory only,"
        }
    }

    /// After a store that left values out (the rest is committed): each is set aside in `okit/refused.jsonl`, the
    /// live entities are put back to what the database holds for those rows (the same entities, so screens on them
    /// stay), and the store fails with a message naming the values.
    func settle(_ refused: [PostgresRefusal], plan: RelationalStorePlan, readBefore: Set<String>, model: Model, engine: any ModelHost) throws {
        let kept = setAside(refused)
        let keys = Set(refused.map(\.id))
        // A row read before gets this process's values at no version as its base, so that following the database's
        // row writes back exactly the fields that differ (the refused ones) and reports nothing. A new row left out
        // counts as stored, so that following finds it gone and removes its entity; a refused deletion counts as
        // done, so that following finds the row and puts the entity back.
        for d in plan.upserts where keys.contains(d.key) {
            base[d.key] = readBefore.contains(d.key) ? PostgresRowState(table: d.table, values: d.values, version: -1) : nil
        }
        var reread = ""
        do {
            try follow(model, engine: engine, keys: Array(keys))
            model.clearFileDirty()
        } catch {
            reread = "; the rows could not be read again (\(error)), so this process shows the refused values until it follows the database again"
        }
        var e = StorageError(kind: .io, path: settings.shown, message: Self.refusedMessage(refused, kept: kept) + reread)
        e.refusedValues = refused.map { RefusedValue(type: $0.type, field: $0.field, value: $0.value, changed: $0.changed ?? []) }
        throw e
    }

    /// Appends the refusals to `okit/refused.jsonl`; returns where they are kept (or why they could not be).
    func setAside(_ refused: [PostgresRefusal]) -> String {
        let path = files.folder.refused
        let now = Date()
        let lines = refused.map { $0.jsonLine(time: now) + "\n" }.joined()
        do {
            try AtomicFile.append(path, Array(lines.utf8))
            return "kept in \(path)"
        } catch {
            return "not kept: \(path) cannot be written (\(error))"
        }
    }

    /// `model "default", Book dune, field count: the database refused 5000 (…); …`, the first three, then a count.
    static func refusedMessage(_ refused: [PostgresRefusal], kept: String) -> String {
        let named = refused.prefix(3).map { r in
            r.place + ": " + (r.byDatabase ? "the database refused \(r.refusedWhat) (\(r.reason))" : r.reason)
                + (r.source.map { " (in \($0))" } ?? "")
        }
        let more = refused.count > 3 ? "; and \(refused.count - 3) more" : ""
        let them = refused.count == 1 ? "this value was" : "these values were"
        return named.joined(separator: "; ") + more + "\n  \(them) not stored (\(kept)); every other change was stored"
    }
}
